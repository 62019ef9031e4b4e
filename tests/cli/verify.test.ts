import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { createTestStack, programsDir, pulumiBinDir, type TestStack } from "../engine/harness";
import { secretops } from "./run";

// `secretops verify` after a real `pulumi up` against the emulator: every written resource's create
// or update event is found, and none is looked for where the up adopted the object as found (it
// wrote nothing); against an emulator whose audit log never saw them, each written id is missing.
jest.setTimeout(5 * 60_000);

describe("secretops verify", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let fresh: Awaited<ReturnType<typeof startEmulator>>;
  let t: TestStack;
  let ids: string[];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimits: false });
    fresh = await startEmulator({ port: 0, rateLimits: false });
    const f = emulator.summary;
    // A connection made outside the stack, which the program's settings already match: nothing is
    // written for it, so the stack made no event of it.
    const { SecretOpsClient } = await import("../../sdk");
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    await client.appConnections.create("redis", {
      name: "made-elsewhere",
      description: "made in the web UI",
      method: "username-and-password",
      credentials: {
        host: "cache.internal",
        port: 6379,
        username: "default",
        password: "elsewhere-password",
        sslEnabled: false,
        sslRejectUnauthorized: false,
      },
    } as never);
    // An identity made outside the stack, whose membership the stack makes: the service's
    // identity-memberships routes record no event, so none is looked for.
    const member = await client.identities.create({ name: "verify-ci", organizationId: f.orgId, role: "no-access" });
    const resources = [
      {
        kind: "ProjectIdentityMembership",
        name: "membership",
        args: { projectId: f.projects[0]!.id, identityId: member.id, roles: [{ role: "viewer" }] },
      },
      {
        kind: "CertificateProfile",
        name: "profile",
        args: {
          projectId: f.certificatePolicies[0]!.projectId,
          certificatePolicyId: f.certificatePolicies[0]!.id,
          slug: "verify-api",
          issuerType: "self-signed",
          enrollmentType: "api",
          apiConfig: { autoRenew: true, renewBeforeDays: 10 },
        },
      },
      {
        kind: "SecretRotation",
        name: "rotation",
        args: {
          type: "redis-credentials",
          name: "verify-cache",
          projectId: f.projects[0]!.id,
          connectionId: f.connections.find((c) => c.app === "redis")!.id,
          environment: "dev",
          secretPath: "/",
          rotationInterval: 14,
          parameters: { permissionScope: "~* +@all" },
          secretsMapping: { username: "VERIFY_USER", password: "VERIFY_PASSWORD" },
        },
      },
      {
        kind: "AppConnectionSettings",
        name: "settings",
        args: { app: "venafi", connectionName: "emulator-venafi", description: "managed by verify test" },
      },
      {
        kind: "AppConnectionSettings",
        name: "matched",
        args: { app: "redis", connectionName: "made-elsewhere", description: "made in the web UI" },
      },
    ];
    t = await createTestStack({
      program: path.join(programsDir, "resources"),
      config: {
        "resources:resources": { value: JSON.stringify(resources) },
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
      },
    });
    const up = await t.stack.up();
    ids = ["profile", "rotation", "settings", "matched"].map((n) => (up.outputs[n]!.value as { id: string }).id);
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false }); // the emulator stops next
    await emulator?.stop();
    await fresh?.stop();
  });

  // The flags name the service explicitly (they win over the stack's config, which names `emulator`).
  const verify = (url: string, token: string) =>
    secretops(["verify", "--stack", t.stack.name, "--api-url", url, "--token-env", "VERIFY_TOKEN"], {
      cwd: t.stack.workspace.workDir,
      env: {
        ...t.envVars,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
        VERIFY_TOKEN: token,
      },
    });

  const VERIFIED =
    "5 secretops resources verified: 3 have their create/update event, " +
    "1 was adopted as found with no write (no event to look for); " +
    "1 was written by routes that record no event\n";

  it("finds the create/update event of every resource the last up wrote (exit 0)", async () => {
    const r = await verify(emulator.url, emulator.token);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(VERIFIED);
    expect(r.code).toBe(0);
  });

  it("has no false alarm after a change of provider options alone, which sends nothing", async () => {
    const declared = JSON.parse((await t.stack.getConfig("resources:resources")).value) as {
      name: string;
      args: Record<string, unknown>;
    }[];
    const rotation = declared.find((r) => r.name === "rotation")!;
    rotation.args.deleteSecrets = true;
    await t.stack.setConfig("resources:resources", { value: JSON.stringify(declared) });
    const up = await t.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    const r = await verify(emulator.url, emulator.token);
    expect(r.stdout).toBe(VERIFIED);
    expect(r.code).toBe(0);
  });

  /** A command in the stack's directory with no endpoint or token in the environment: only its config has them. */
  const withStackConfigOnly = (args: string[]) =>
    secretops([...args, "--stack", t.stack.name], {
      cwd: t.stack.workspace.workDir,
      env: {
        ...t.envVars,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
        SECRETOPS_API_URL: undefined,
        SECRETOPS_TOKEN: undefined,
        INFISICAL_HOST: undefined,
        INFISICAL_TOKEN: undefined,
      },
    });

  it("reads the endpoint and token from the stack's secretops:* config, as the resources do", async () => {
    const r = await withStackConfigOnly(["verify"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(VERIFIED);
    expect(r.stdout).not.toContain(emulator.token);
    expect(r.code).toBe(0);
  });

  it("secretops audit reads the stack's secretops:* config too, in the project's directory", async () => {
    const r = await withStackConfigOnly(["audit", "--format", "json", "--limit", "1"]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.code).toBe(0);
  });

  it("says that a missing -C directory is missing (exit 2)", async () => {
    const r = await secretops(["verify", "-C", "/no/such/project-dir"], { env: { PATH: process.env.PATH } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("-C, --cwd: the directory /no/such/project-dir does not exist");
  });

  it("names each id the up wrote whose event the audit log lacks (exit 1)", async () => {
    const r = await verify(fresh.url, fresh.token);
    expect(r.code).toBe(1);
    const missing = r.stdout.trim().split("\n");
    expect(missing).toHaveLength(3);
    const [profile, rotation, settings, matched] = ids;
    for (const id of [profile, rotation, settings]) expect(r.stdout).toContain(id);
    // Adopted as found: the up wrote nothing, so there is no event to miss.
    expect(r.stdout).not.toContain(matched);
    expect(missing.find((l) => l.includes(profile!))).toMatch(
      /^missing: CertificateProfile profile \S+: no create-certificate-profile or update-certificate-profile event since /,
    );
    expect(r.stderr).toContain("3 of 5 secretops resources have no create/update event");
  });

  it("looks for the event of an object adopted as found once the stack writes it", async () => {
    const declared = JSON.parse((await t.stack.getConfig("resources:resources")).value) as {
      name: string;
      args: Record<string, unknown>;
    }[];
    declared.find((r) => r.name === "matched")!.args.description = "now managed by the stack";
    await t.stack.setConfig("resources:resources", { value: JSON.stringify(declared) });
    const up = await t.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    const r = await verify(emulator.url, emulator.token);
    expect(r.stdout).toBe(
      "5 secretops resources verified: each has its create/update event; 1 was written by routes that record no event\n",
    );
    expect(r.code).toBe(0);
    const elsewhere = await verify(fresh.url, fresh.token);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toMatch(new RegExp(`^missing: AppConnectionSettings matched ${ids[3]}: `, "m"));
    expect(elsewhere.stderr).toContain("4 of 5 secretops resources have no create/update event");
  });
});
