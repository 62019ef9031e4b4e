import { SecretOpsClient } from "../../sdk";
import { startEmulator } from "../../emulator";
import { changeCounts, cliStackExport, createTestStack, TestStack } from "./harness";
import type { RequestLogEntry } from "../../emulator";
import { Emulator, engineEnv, EngineEnv, writes } from "./lifecycle";

// Provider behaviours beyond the lifecycle, under the real engine against the emulator.
jest.setTimeout(15 * 60_000);

const PROJECT = "10000000-0000-4000-8000-000000000001";
/** The fixture's cert-manager project: CAs, policies and profiles live there. */
const PKI_PROJECT = "10000000-0000-4000-8000-000000000003";
const VERCEL = "50000000-0000-4000-8000-000000000012";
const POSTGRES = "50000000-0000-4000-8000-000000000002";
const POLICY = "70000000-0000-4000-8000-000000000001";
const CA = "60000000-0000-4000-8000-000000000001";

const syncArgs = (name: string, extra: Record<string, unknown> = {}) => ({
  destination: "vercel",
  name,
  projectId: PROJECT,
  connectionId: VERCEL,
  environment: "dev",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj", appName: name, env: "production", teamId: "team" },
  ...extra,
});
const rotationArgs = (name: string, extra: Record<string, unknown> = {}) => ({
  type: "postgres-credentials",
  name,
  projectId: PROJECT,
  connectionId: POSTGRES,
  environment: "dev",
  secretPath: "/app/db",
  rotationInterval: 30,
  parameters: { username1: "u1", username2: "u2" },
  secretsMapping: {
    username: `${name.toUpperCase().replace(/-/g, "_")}_USER`,
    password: `${name.toUpperCase().replace(/-/g, "_")}_PASSWORD`,
  },
  ...extra,
});

const api = (rs: RequestLogEntry[]) => rs.map((r) => `${r.method} ${r.path}`);
const status = (e: unknown) => (e as { status?: number }).status;

describe("provider behaviours under the real engine", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it("rejects bad input in preview, naming each property and rule, before any API call", async () => {
    await env.declare([
      { kind: "SecretSync", name: "bad-sync", args: syncArgs("Bad_Name", { environment: "x".repeat(65) }) },
    ]);
    await env.resetRequests();
    const text = String(
      await env.t.stack.preview().then(
        () => "preview passed",
        (e: Error) => e,
      ),
    );
    expect(text).toMatch(
      /SecretSync resource 'bad-sync' has a problem: name: name field can only contain lowercase letters, numbers, and hyphens/,
    );
    expect(text).toMatch(/resource 'bad-sync' has a problem: environment: must be at most 64 characters/);
    // One voice: never by property, which the engine prints with the input's value.
    expect(text).not.toMatch(/property \S+ value/);
    expect(await env.requests()).toEqual([]);
  });

  it("reports a bad secret value by its path without echoing it", async () => {
    const canary = "short7";
    await env.declare([
      {
        kind: "CertificateProfile",
        name: "bad-profile",
        args: {
          projectId: PKI_PROJECT,
          certificatePolicyId: POLICY,
          slug: "scep",
          caId: CA,
          enrollmentType: "scep",
          scepConfig: { challengePassword: canary },
        },
      },
    ]);
    await env.resetRequests();
    const text = String(
      await env.t.stack.preview().then(
        () => "preview passed",
        (e: Error) => e,
      ),
    );
    expect(text).toMatch(
      /resource 'bad-profile' has a problem: scepConfig\.challengePassword: a static challenge needs a challengePassword of at least 8 characters/,
    );
    expect(text).not.toContain(canary);
    expect(await env.requests()).toEqual([]);
  });

  it("fails up with the service's message when a sync job fails, keeps the sync in state, and retries it on the next up", async () => {
    await env.admin.addJobFault({
      syncName: "flaky",
      job: "sync",
      message: "destination refused the write: quota exceeded",
      count: 1,
    });
    await env.declare([{ kind: "SecretSync", name: "flaky", args: syncArgs("flaky") }]);
    await expect(env.t.stack.up()).rejects.toThrow(
      /secret sync "flaky" failed: destination refused the write: quota exceeded/,
    );

    const state = JSON.parse(await cliStackExport(env.t));
    const kept = state.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::flaky"));
    expect(kept.outputs.syncStatus).toBe("failed");
    const id = kept.id as string;
    expect((await env.client.secretSyncs.get("vercel", id)).syncStatus).toBe("failed");

    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    await env.resetRequests();
    await env.t.stack.up();
    expect(api(writes(await env.requests()))).toEqual([`POST /api/v1/secret-syncs/vercel/${id}/sync-secrets`]);
    expect((await env.client.secretSyncs.get("vercel", id)).syncStatus).toBe("succeeded");
    expect((await env.t.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("drops an object deleted out of band on refresh, and recreates it on up", async () => {
    const outputs = await env.t.stack.outputs();
    const id = (outputs.flaky!.value as { id: string }).id;
    await env.client.secretSyncs.delete("vercel", id);
    const refresh = await env.t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges).delete).toBe(1);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(1);
    const newId = ((await env.t.stack.outputs()).flaky!.value as { id: string }).id;
    expect(newId).not.toBe(id);
    expect((await env.client.secretSyncs.get("vercel", newId)).name).toBe("flaky");
  });

  it("on delete, removeSecrets removes the synced secrets and waits for the service to delete the sync", async () => {
    await env.declare([{ kind: "SecretSync", name: "flaky", args: syncArgs("flaky", { removeSecrets: true }) }]);
    await env.resetRequests();
    const up = await env.t.stack.up();
    // Only a provider option changed: state is updated, nothing is sent.
    expect(changeCounts(up.summary.resourceChanges).update).toBe(1);
    expect(writes(await env.requests())).toEqual([]);
    const id = ((await env.t.stack.outputs()).flaky!.value as { id: string }).id;

    await env.declare([]);
    await env.resetRequests();
    await env.t.stack.up();
    expect(api(writes(await env.requests()))).toEqual([`DELETE /api/v1/secret-syncs/vercel/${id}`]);
    const del = (await env.requests()).find((r) => r.method === "DELETE")!;
    expect(del.url ?? "").toContain("removeSecrets=true");
    expect(await env.client.secretSyncs.get("vercel", id).catch(status)).toBe(404);
  });

  it("fails on a name that exists, with the service's message and nothing written; adoptExisting takes the object over", async () => {
    // Made elsewhere, through the API: the rotation's body, without the resource's kind.
    const { type: _type, ...body } = rotationArgs("adopted");
    const existing = await env.client.secretRotations.create("postgres-credentials", body as never);
    await env.declare([
      { kind: "SecretRotation", name: "adopted", args: rotationArgs("adopted", { rotationInterval: 7 }) },
    ]);
    await expect(env.t.stack.up()).rejects.toThrow(
      /A Secret Rotation with the name "adopted" already exists at the secret path "\/app\/db"/,
    );
    expect(
      (await env.client.secretRotations.list("postgres-credentials", PROJECT)).filter((r) => r.name === "adopted"),
    ).toHaveLength(1);

    await env.declare([
      {
        kind: "SecretRotation",
        name: "adopted",
        args: rotationArgs("adopted", { rotationInterval: 7, adoptExisting: true }),
      },
    ]);
    await env.resetRequests();
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(1);
    expect(api(writes(await env.requests()))).toEqual([
      `PATCH /api/v2/secret-rotations/postgres-credentials/${existing.id}`,
    ]);
    expect(((await env.t.stack.outputs()).adopted!.value as { id: string }).id).toBe(existing.id);
    expect((await env.client.secretRotations.get("postgres-credentials", existing.id)).rotationInterval).toBe(7);
    expect((await env.t.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("deleteSecrets also deletes the secrets a rotation wrote", async () => {
    const id = ((await env.t.stack.outputs()).adopted!.value as { id: string }).id;
    await env.declare([
      {
        kind: "SecretRotation",
        name: "adopted",
        args: rotationArgs("adopted", {
          rotationInterval: 7,
          adoptExisting: true,
          deleteSecrets: true,
          revokeGeneratedCredentials: true,
        }),
      },
    ]);
    await env.t.stack.up();
    await env.declare([]);
    await env.resetRequests();
    await env.t.stack.up();
    const del = (await env.requests()).find((r) => r.method === "DELETE")!;
    expect(del.path).toBe(`/api/v2/secret-rotations/postgres-credentials/${id}`);
    expect(del.url).toContain("deleteSecrets=true");
    expect(del.url).toContain("revokeGeneratedCredentials=true");
    // The secrets are gone: a rotation writing the same secret names can be created again.
    const { type: _t, ...again_ } = rotationArgs("adopted");
    const again = await env.client.secretRotations.create("postgres-credentials", again_ as never);
    await env.client.secretRotations.delete("postgres-credentials", again.id, { deleteSecrets: true });
  });
  it("resolves a create whose response was lost through the read by slug, never by posting again", async () => {
    await env.admin.addFault({
      method: "POST",
      path: "^/api/v1/cert-manager/certificate-profiles$",
      kind: "reset",
      after: true,
      count: 1,
    });
    const args = {
      projectId: PKI_PROJECT,
      certificatePolicyId: POLICY,
      caId: CA,
      slug: "lost-response",
      enrollmentType: "acme",
    };
    await env.declare([{ kind: "CertificateProfile", name: "lost", args }]);
    await env.resetRequests();
    await env.t.stack.up();
    const calls = api(await env.requests());
    expect(calls.filter((c) => c.startsWith("POST"))).toEqual(["POST /api/v1/cert-manager/certificate-profiles"]);
    expect(calls).toContain("GET /api/v1/cert-manager/certificate-profiles/slug/lost-response");
    const onService = await env.client.certificateProfiles.getBySlug("lost-response", PKI_PROJECT);
    expect(((await env.t.stack.outputs()).lost!.value as { id: string }).id).toBe(onService.id);
    expect((await env.t.stack.preview()).changeSummary).toEqual({ same: 2 });
    await env.declare([]);
    await env.t.stack.up();
  });
});

describe("provider credentials", () => {
  let emulator: Emulator;
  let t: TestStack | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, rateLimits: false });
  });
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  const profile = (slug: string) => [
    {
      kind: "CertificateProfile",
      name: "p",
      args: {
        projectId: PKI_PROJECT,
        certificatePolicyId: POLICY,
        caId: CA,
        slug,
        enrollmentType: "api",
        apiConfig: { autoRenew: true, renewBeforeDays: 7 },
      },
    },
  ];

  it("come from the service's own environment variables when stack config has none", async () => {
    t = await createTestStack({
      program: "resources",
      config: { "resources:resources": { value: JSON.stringify(profile("from-env")) } },
      env: { INFISICAL_HOST: emulator.url, INFISICAL_TOKEN: emulator.token },
    });
    await t.stack.up();
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    expect((await client.certificateProfiles.getBySlug("from-env", PKI_PROJECT)).slug).toBe("from-env");
  });

  it("can be a universal-auth client id and secret, which stay out of state", async () => {
    const fixture = require("../../emulator/fixtures/default.json");
    const ua = fixture.identities[0].universalAuth as { clientId: string; clientSecret: string };
    t = await createTestStack({
      program: "resources",
      config: {
        "resources:resources": { value: JSON.stringify(profile("from-ua")) },
        "secretops:apiUrl": { value: emulator.url },
        "secretops:clientId": { value: ua.clientId },
        "secretops:clientSecret": { value: ua.clientSecret, secret: true },
      },
    });
    await t.stack.up();
    expect(await cliStackExport(t)).not.toContain(ua.clientSecret);
  });

  it("missing credentials fail with a message that says which settings to set", async () => {
    t = await createTestStack({
      program: "resources",
      config: {
        "resources:resources": { value: JSON.stringify(profile("no-creds")) },
        "secretops:apiUrl": { value: emulator.url },
      },
    });
    await expect(t.stack.up()).rejects.toThrow(
      /no credentials configured: set `pulumi config set --secret secretops:token <token>`/,
    );
  });
});
