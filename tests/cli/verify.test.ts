import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { createTestStack, programsDir, pulumiBinDir, type TestStack } from "../engine/harness";
import { secretops } from "./run";

// `secretops verify` after a real `pulumi up` against the emulator: every resource's create or
// update event is found; against an emulator whose audit log never saw them, each id is missing.
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
    const resources = [
      {
        kind: "CertificateProfile",
        name: "profile",
        args: {
          projectId: f.projects[0]!.id,
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
    ids = ["profile", "rotation", "settings"].map((n) => (up.outputs[n]!.value as { id: string }).id);
  });
  afterAll(async () => {
    await t?.dispose();
    await emulator?.stop();
    await fresh?.stop();
  });

  const verify = (url: string, token: string) =>
    secretops(["verify", "--stack", t.stack.name], {
      cwd: t.stack.workspace.workDir,
      env: {
        ...t.envVars,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
        SECRETOPS_API_URL: url,
        SECRETOPS_TOKEN: token,
      },
    });

  it("finds the create/update event of every resource of the last up (exit 0)", async () => {
    const r = await verify(emulator.url, emulator.token);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("3 secretops resources verified: each has its create/update event\n");
    expect(r.code).toBe(0);
  });

  it("names each id whose event the audit log lacks (exit 1)", async () => {
    const r = await verify(fresh.url, fresh.token);
    expect(r.code).toBe(1);
    const missing = r.stdout.trim().split("\n");
    expect(missing).toHaveLength(3);
    for (const id of ids) expect(r.stdout).toContain(id);
    expect(missing.find((l) => l.includes(ids[0]!))).toMatch(
      /^missing: CertificateProfile profile \S+: no create-certificate-profile or update-certificate-profile event since /,
    );
    expect(r.stderr).toContain("3 of 3 secretops resources have no create/update event");
  });
});
