import {
  AppConnectionEnvelope,
  AppConnectionListEnvelope,
  AuditLogListEnvelope,
  apiPaths,
  appConnectionKinds,
  type AppConnection,
  type AppConnectionKind,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import {
  FX,
  expect422,
  expectError,
  expectIncreasing,
  start,
  uniq,
  withClockStopped,
  expectNotMember,
  type Api,
} from "./helpers";

/**
 * App connections over HTTP: listing every kind in one call, the field rules and the service's
 * rules, on a few kinds. Each kind's own lifecycle and PATCH matrix: tests/kinds/app-connections.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const kinds = Object.values(appConnectionKinds) as AppConnectionKind[];
const base = (app: string) => apiPaths.appConnections(app);

async function create(app: string, extra: Record<string, unknown> = {}): Promise<AppConnection> {
  const fx = FX.connection(app);
  const res = await api.post(base(app), {
    name: uniq(`t-${app}`),
    method: fx.method,
    credentials: fx.credentials,
    ...extra,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return AppConnectionEnvelope.parse(res.body).appConnection;
}

test("GET /api/v1/app-connections lists the connections of every kind in one call, audited", async () => {
  const made = await Promise.all(kinds.slice(0, 4).map((k) => create(k.app)));
  const inProject = await create(kinds[0]!.app, { projectId: FX.projectId });
  const org = AppConnectionListEnvelope.parse((await api.get(apiPaths.allAppConnections)).body).appConnections;
  for (const c of [...made, inProject]) expect(org.find((x) => x.id === c.id)).toEqual(c);
  expect(new Set(org.map((c) => c.app)).size).toBeGreaterThanOrEqual(4);
  const res = await api.get(apiPaths.allAppConnections, { query: { projectId: FX.projectId } });
  const project = AppConnectionListEnvelope.parse(res.body).appConnections;
  expect(project.map((c) => c.id)).toContain(inProject.id);
  expect(project.every((c) => c.projectId === FX.projectId)).toBe(true);
  const audited = await api.get(apiPaths.auditLogs, {
    query: { projectId: FX.projectId, eventType: "get-app-connections", limit: 1 },
  });
  expect(AuditLogListEnvelope.parse(audited.body).auditLogs[0]?.event.metadata).toEqual({
    count: project.length,
    connectionIds: project.map((c) => c.id),
  });
  expectNotMember(await api.get(apiPaths.allAppConnections, { query: { projectId: FX.restrictedProjectId } }));
});

test("updatedAt moves on every PATCH, even within one millisecond", async () => {
  const app = kinds[0]!.app;
  const times = await withClockStopped(async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    const a = AppConnectionEnvelope.parse((await api.patch(url, { description: "a" })).body).appConnection;
    const b = AppConnectionEnvelope.parse((await api.patch(url, { description: "b" })).body).appConnection;
    return [c.updatedAt, a.updatedAt, b.updatedAt];
  });
  expectIncreasing(times);
});

describe("connection field rules (docs/api-spec.md §8)", () => {
  const app = "bitbucket";
  const fx = FX.connection(app);
  const body = (extra: Record<string, unknown>) => ({
    name: uniq("r"),
    method: fx.method,
    credentials: fx.credentials,
    ...extra,
  });

  test("name: 1 to 64, slug-friendly", async () => {
    const n64 = `a${"b".repeat(62)}c`;
    expect(n64).toHaveLength(64);
    expect((await api.post(base(app), body({ name: n64 }))).status).toBe(200);
    expect422(await api.post(base(app), body({ name: `${n64}d` })), ["name"], "must be at most 64 characters");
    expect422(await api.post(base(app), body({ name: "" })), ["name"]);
    expect422(
      await api.post(base(app), body({ name: "Upper-Case" })),
      ["name"],
      'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
    );
    expect422(await api.post(base(app), body({ name: "-lead" })), ["name"]);
    const c = AppConnectionEnvelope.parse((await api.post(base(app), body({}))).body).appConnection;
    expect422(await api.patch(`${base(app)}/${c.id}`, { name: `${n64}d` }), ["name"]);
    expect((await api.patch(`${base(app)}/${c.id}`, { name: `${"z".repeat(64)}` })).status).toBe(200);
  });

  test("description: at most 256, nullable", async () => {
    expect((await api.post(base(app), body({ description: "d".repeat(256) }))).status).toBe(200);
    expect422(
      await api.post(base(app), body({ description: "d".repeat(257) })),
      ["description"],
      "must be at most 256 characters",
    );
    const c = AppConnectionEnvelope.parse((await api.post(base(app), body({ description: null }))).body).appConnection;
    expect(c.description).toBeNull();
    expect422(await api.patch(`${base(app)}/${c.id}`, { description: "d".repeat(257) }), ["description"]);
    expect(
      (await api.patch(`${base(app)}/${c.id}`, { description: "d".repeat(256) })).body.appConnection.description,
    ).toHaveLength(256);
  });

  test("credentials are validated per kind and method", async () => {
    expect422(await api.post(base(app), body({ credentials: { apiToken: "x", email: "not-an-email" } })), [
      "credentials",
      "email",
    ]);
    expect422(await api.post(base(app), body({ method: "oauth" })), ["method"]);
    expect422(await api.post(base(app), body({ credentials: undefined })), ["credentials"]);
  });

  test("names are unique per org scope and per project scope", async () => {
    const name = uniq("dup");
    expect((await api.post(base(app), body({ name }))).status).toBe(200);
    expectError(
      await api.post(base(app), body({ name })),
      400,
      "BadRequest",
      `An App Connection with the name "${name}" already exists`,
    );
    // the same name in a project scope is another scope
    const inProject = await api.post(base(app), body({ name, projectId: FX.projectId }));
    expect(inProject.status).toBe(200);
    expect(inProject.body.appConnection.project).toEqual({
      id: FX.projectId,
      name: "Emulator Project",
      slug: "emulator-project",
      type: "secret-manager",
    });
    expectError(
      await api.post(base(app), body({ name, projectId: FX.projectId })),
      400,
      "BadRequest",
      `An App Connection with the name "${name}" already exists`,
    );
    // other kinds share the namespace (the service has one table)
    expectError(
      await api.post(base("vercel"), { name, method: "api-token", credentials: { apiToken: "t" } }),
      400,
      "BadRequest",
    );
    const other = AppConnectionEnvelope.parse((await api.post(base(app), body({}))).body).appConnection;
    expectError(
      await api.patch(`${base(app)}/${other.id}`, { name }),
      400,
      "BadRequest",
      `An App Connection with the name "${name}" already exists`,
    );
  });

  test("project scope: list and read by name with projectId", async () => {
    const name = uniq("scoped");
    await api.post(base(app), body({ name, projectId: FX.projectId }));
    const list = AppConnectionListEnvelope.parse(
      (await api.get(base(app), { query: { projectId: FX.projectId } })).body,
    ).appConnections;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((c) => c.projectId === FX.projectId)).toBe(true);
    expect((await api.get(`${base(app)}/connection-name/${name}`, { query: { projectId: FX.projectId } })).status).toBe(
      200,
    );
    expectError(
      await api.get(`${base(app)}/connection-name/${name}`),
      404,
      "NotFound",
      `Could not find App Connection with name ${name} in organization scope.`,
    );
  });

  test("projects: unknown 400, not a member 403, other org 403", async () => {
    const unknown = "0f0f0f0f-0000-4000-8000-00000000beef";
    expectError(
      await api.post(base(app), body({ projectId: unknown })),
      400,
      "BadRequest",
      `Could not find project with ID ${unknown}`,
    );
    expectNotMember(await api.post(base(app), body({ projectId: FX.restrictedProjectId })));
    expectNotMember(await api.get(base(app), { query: { projectId: FX.restrictedProjectId } }));
    expectError(
      await api.get(`${base("postgres")}/${FX.otherOrgConnectionId}`),
      403,
      "PermissionDenied",
      "You are not allowed to read on app-connections",
    );
    expectError(
      await api.patch(`${base("postgres")}/${FX.otherOrgConnectionId}`, { description: "x" }),
      403,
      "PermissionDenied",
    );
    expectError(await api.delete(`${base("postgres")}/${FX.otherOrgConnectionId}`), 403, "PermissionDenied");
  });

  test("the enterprise kind (oci) is allowed in the emulator", async () => {
    expect((await create("oci")).app).toBe("oci");
  });

  test("a connection used by a sync or a rotation cannot be deleted", async () => {
    const vercel = await create("vercel");
    const sync = await api.post(apiPaths.secretSyncs("vercel"), {
      name: uniq("uses"),
      projectId: FX.projectId,
      connectionId: vercel.id,
      environment: "dev",
      secretPath: "/",
      isAutoSyncEnabled: false,
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: "prj", appName: "n", env: "development", teamId: "t" },
    });
    expect(sync.status).toBe(200);
    const inUse =
      "Cannot delete App Connection with existing connections. Remove all existing connections and try again.";
    expectError(await api.delete(`${base("vercel")}/${vercel.id}`), 400, "BadRequest", inUse);
    await api.delete(`${apiPaths.secretSyncs("vercel")}/${sync.body.secretSync.id}`);

    const pg = await create("postgres");
    const rot = await api.post(apiPaths.secretRotations("postgres-credentials"), {
      name: uniq("uses"),
      projectId: FX.projectId,
      connectionId: pg.id,
      environment: "dev",
      secretPath: "/",
      rotationInterval: 7,
      parameters: { username1: "u1", username2: "u2" },
      secretsMapping: { username: uniq("U").toUpperCase(), password: uniq("P").toUpperCase() },
    });
    expect(rot.status).toBe(200);
    expectError(await api.delete(`${base("postgres")}/${pg.id}`), 400, "BadRequest", inUse);
    await api.delete(`${apiPaths.secretRotations("postgres-credentials")}/${rot.body.secretRotation.id}`);
    expect((await api.delete(`${base("postgres")}/${pg.id}`)).status).toBe(200);
    expect((await api.delete(`${base("vercel")}/${vercel.id}`)).status).toBe(200);
  });

  test("100 parallel PATCHes lose nothing and versions strictly increase", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => api.patch(url, { description: `parallel-${i}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const versions = results.map((r) => r.body.appConnection.version as number);
    expect(new Set(versions).size).toBe(100);
    expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => c.version! + 1 + i));
    const final = (await api.get(url)).body.appConnection;
    expect(final.version).toBe(c.version! + 100);
    // the last write wins: the final description is the one of the response with the top version
    expect(final.description).toBe(
      results.find((r) => r.body.appConnection.version === c.version! + 100)!.body.appConnection.description,
    );
  });
});
