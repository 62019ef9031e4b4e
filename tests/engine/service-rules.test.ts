import { cliStackExport, changeCounts } from "./harness";
import { engineEnv, EngineEnv, LoggedRequest, writes } from "./lifecycle";

// Provider behaviour where the real service's rules differ from a first reading: duplicate
// destinations, a by-name read in a missing folder, and the service's own defaults (empty key
// schema, no password requirements, a cleared description), under the real engine.
jest.setTimeout(15 * 60_000);

const PROJECT = "10000000-0000-4000-8000-000000000001";
/** The fixture's cert-manager project: CAs, policies and profiles live there. */
const PKI_PROJECT = "10000000-0000-4000-8000-000000000003";
const VERCEL = "50000000-0000-4000-8000-000000000012";
const POSTGRES = "50000000-0000-4000-8000-000000000002";
const POLICY = "70000000-0000-4000-8000-000000000001";
const CA = "60000000-0000-4000-8000-000000000001";

const syncArgs = (name: string, app: string, extra: Record<string, unknown> = {}) => ({
  destination: "vercel",
  name,
  projectId: PROJECT,
  connectionId: VERCEL,
  environment: "dev",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "" },
  destinationConfig: { app, appName: name, env: "production", teamId: "team" },
  waitForSync: false,
  ...extra,
});

const api = (rs: LoggedRequest[]) => rs.map((r) => `${r.method} ${r.path}`);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: unknown) => String(e),
  );

describe("the service's rules under the real engine", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  // A sync of the same program to the same place is refused at check (tests/engine/guard-rails):
  // these are syncs made elsewhere (another stack, the web UI), which only the service knows.
  const elsewhere = (name: string, app: string) => {
    // The sync's body, without the resource's kind and options.
    const { destination: _d, waitForSync: _w, ...body } = syncArgs(name, app);
    return env.client.secretSyncs.create("vercel", body as never).then((s) => s.id);
  };

  it("refuses a sync to a destination a sync made elsewhere already syncs to, naming it and its project, unless allowDuplicateDestination", async () => {
    const first = await elsewhere("first", "shared-app");
    try {
      await env.declare([{ kind: "SecretSync", name: "second", args: syncArgs("second", "shared-app") }]);
      await env.resetRequests();
      const text = await failure(env.t.stack.up());
      expect(text).toContain(
        `destinationConfig: secret sync "first" (project ${PROJECT}) already syncs to this destination, and two syncs would overwrite each other's secrets; point this sync elsewhere or set allowDuplicateDestination: true`,
      );
      // Only reads for "second": the check, the look-up of a sync already holding its name (one
      // an interrupted run made would not count as a duplicate), and, the check answering with a
      // project only, one list of that project to name the other sync. Nothing was written.
      expect(api(writes(await env.requests()))).toEqual([]);
      expect(api(await env.requests())).toEqual([
        "POST /api/v1/secret-syncs/vercel/check-destination",
        "GET /api/v1/secret-syncs/vercel/sync-name/second",
        "GET /api/v1/secret-syncs",
      ]);

      await env.declare([
        {
          kind: "SecretSync",
          name: "second",
          args: syncArgs("second", "shared-app", { allowDuplicateDestination: true }),
        },
      ]);
      const up = await env.t.stack.up();
      expect(changeCounts(up.summary.resourceChanges).create).toBe(1);
      const names = (await env.client.secretSyncs.list("vercel", PROJECT)).map((s) => s.name).sort();
      expect(names).toEqual(["first", "second"]);
      expect((await env.client.secretSyncs.get("vercel", first)).syncOptions.keySchema).toBe("");
    } finally {
      await env.declare([]);
      await env.t.stack.up();
      await env.client.secretSyncs.delete("vercel", first, { removeSecrets: false });
    }
  });

  it("refuses to move a sync onto a destination a sync made elsewhere syncs to; its own destination is not a duplicate of itself", async () => {
    const first = await elsewhere("first", "shared-app");
    try {
      await env.declare([{ kind: "SecretSync", name: "second", args: syncArgs("second", "own-app") }]);
      await env.t.stack.up();
      // A description change keeps its own destination: no duplicate of itself.
      await env.declare([
        { kind: "SecretSync", name: "second", args: syncArgs("second", "own-app", { description: "same place" }) },
      ]);
      expect(changeCounts((await env.t.stack.up()).summary.resourceChanges).update).toBe(1);

      await env.declare([{ kind: "SecretSync", name: "second", args: syncArgs("second", "shared-app") }]);
      await env.resetRequests();
      expect(await failure(env.t.stack.up())).toContain(
        `destinationConfig: secret sync "first" (project ${PROJECT}) already syncs to this destination`,
      );
      expect(api(writes(await env.requests()))).toEqual([]);
      const second = (await env.client.secretSyncs.list("vercel", PROJECT)).find((s) => s.name === "second")!;
      expect(second.destinationConfig.app).toBe("own-app");
    } finally {
      await env.declare([]);
      await env.t.stack.up();
      await env.client.secretSyncs.delete("vercel", first, { removeSecrets: false });
    }
  });

  it("adopting a rotation in a folder that does not exist fails with the service's 400, never as 'gone'", async () => {
    await env.declare([
      {
        kind: "SecretRotation",
        name: "nowhere",
        args: {
          type: "postgres-credentials",
          name: "nowhere",
          projectId: PROJECT,
          connectionId: POSTGRES,
          environment: "dev",
          secretPath: "/no/such/folder",
          rotationInterval: 30,
          parameters: { username1: "u1", username2: "u2" },
          secretsMapping: { username: "NOWHERE_USER", password: "NOWHERE_PASSWORD" },
          adoptExisting: true,
        },
      },
    ]);
    await env.resetRequests();
    expect(await failure(env.t.stack.up())).toContain(
      `Could not find folder with path "/no/such/folder" in environment "dev" for project with ID "${PROJECT}"`,
    );
    // The by-name read answered 400; no create was attempted on the strength of it.
    expect(api(writes(await env.requests()))).toEqual([]);
    await env.declare([]);
    await env.t.stack.up();
  });

  it("keeps state to what the program wrote: no invented passwordRequirements; a dropped description is cleared", async () => {
    const rotation = {
      type: "postgres-credentials",
      name: "plain-rotation",
      projectId: PROJECT,
      connectionId: POSTGRES,
      environment: "dev",
      secretPath: "/app/db",
      rotationInterval: 30,
      parameters: { username1: "u1", username2: "u2" },
      secretsMapping: { username: "PLAIN_USER", password: "PLAIN_PASSWORD" },
    };
    const profile = {
      projectId: PKI_PROJECT,
      certificatePolicyId: POLICY,
      caId: CA,
      slug: "described",
      enrollmentType: "api",
      apiConfig: { autoRenew: false },
    };
    await env.declare([
      { kind: "SecretRotation", name: "plain-rotation", args: rotation },
      { kind: "CertificateProfile", name: "described", args: { ...profile, description: "temporary" } },
    ]);
    await env.t.stack.up();
    const exported = JSON.parse(await cliStackExport(env.t)) as {
      deployment: {
        resources: { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
      };
    };
    const state = exported.deployment.resources.find((r) => r.type.endsWith("SecretRotation"))!;
    expect(state.inputs!.parameters).toEqual({ username1: "u1", username2: "u2" });
    expect(state.outputs!.parameters).toEqual({ username1: "u1", username2: "u2" });
    expect((await env.t.stack.preview()).changeSummary).toEqual({ same: 3 });

    await env.declare([
      { kind: "SecretRotation", name: "plain-rotation", args: rotation },
      { kind: "CertificateProfile", name: "described", args: profile },
    ]);
    await env.resetRequests();
    await env.t.stack.up();
    const patch = (await env.requests()).filter((r) => r.method === "PATCH");
    expect(api(patch)).toHaveLength(1);
    const id = (await env.client.certificateProfiles.list({ projectId: PKI_PROJECT })).certificateProfiles.find(
      (p) => p.slug === "described",
    )!.id;
    expect((await env.client.certificateProfiles.get(id)).description).toBeNull();
    expect((await env.t.stack.preview()).changeSummary).toEqual({ same: 3 });
  });
});
