import { createHash } from "node:crypto";
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
import { stripTwin } from "../../emulator/service-schemas";
import {
  FX,
  expect422,
  fixtures,
  expectError,
  expectIncreasing,
  start,
  uniq,
  withClockStopped,
  type Api,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const kinds = Object.values(appConnectionKinds) as AppConnectionKind[];
const base = (app: string) => apiPaths.appConnections(app);

/**
 * The spec's 4.1 PATCH matrix, written out here independently of the kind table, so a wrong
 * table row fails too. Columns: isPlatformManagedCredentials, gatewayId, isAutoRotationEnabled,
 * rotation. The three sync-destination kinds are not in the spec; they follow the common row.
 */
const specMatrix: Record<string, [string, string, string, string]> = {
  auth0: ["only-false", "unsupported", "only-false", "unsupported"],
  postgres: ["one-way", "uuid-or-null", "only-false", "unsupported"],
  mssql: ["one-way", "uuid-or-null", "only-false", "unsupported"],
  mysql: ["one-way", "uuid-or-null", "only-false", "unsupported"],
  redis: ["only-false", "unsupported", "only-false", "unsupported"],
  ldap: ["only-false", "uuid-or-null", "only-false", "unsupported"],
  "octopus-deploy": ["only-false", "unsupported", "only-false", "unsupported"],
  oci: ["only-false", "unsupported", "only-false", "unsupported"],
  bitbucket: ["only-false", "unsupported", "only-false", "unsupported"],
  venafi: ["only-false", "unsupported", "only-false", "unsupported"],
  "azure-client-secrets": ["only-false", "unsupported", "boolean", "object"],
  vercel: ["only-false", "unsupported", "only-false", "unsupported"],
  "azure-app-configuration": ["only-false", "unsupported", "only-false", "unsupported"],
  "azure-key-vault": ["only-false", "unsupported", "only-false", "unsupported"],
};

/** Valid credentials for each method: the row's example of it. */
function credentialsFor(app: string, method: string): Record<string, unknown> {
  return (appConnectionKinds as Record<string, AppConnectionKind>)[app]!.examples[method]!;
}

test("every method's example credentials are valid for it; the fixture connection is made of the first", () => {
  for (const kind of kinds) {
    expect([kind.app, Object.keys(kind.examples).sort()]).toEqual([kind.app, Object.keys(kind.methods).sort()]);
    for (const [method, m] of Object.entries(kind.methods))
      expect([`${kind.app}/${method}`, m.credentials.safeParse(credentialsFor(kind.app, method)).error]).toEqual([
        `${kind.app}/${method}`,
        undefined,
      ]);
    const [first] = Object.entries(kind.examples);
    expect(FX.connection(kind.app)).toMatchObject({ method: first![0], credentials: first![1] });
  }
});

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

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

test("the kind table covers the spec's families and the sync-destination kinds", () => {
  expect(kinds.map((k) => k.app)).toEqual(expect.arrayContaining(Object.keys(specMatrix)));
});

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
  expectError(
    await api.get(apiPaths.allAppConnections, { query: { projectId: FX.restrictedProjectId } }),
    403,
    "PermissionDenied",
    "You are not allowed to read on app-connections",
  );
});

describe.each(kinds.map((k) => [k.app, k] as const))("%s connections", (app, kind) => {
  const fx = FX.connection(app);
  const notSupported = `Not supported for ${kind.label} Connections`;
  const fromRow = [
    kind.patchSupport.isPlatformManagedCredentials,
    kind.patchSupport.gatewayId,
    kind.patchSupport.isAutoRotationEnabled,
    kind.patchSupport.rotation,
  ] as const;
  // A kind the spec's matrix lists is checked against it; a kind it does not (one added from the
  // service's source) is tested on its row's own column.
  const [pmc, gateway, autoRotation, rotation] = specMatrix[app] ?? fromRow;
  const secretFields = kind.methods[fx.method]!.secretFields;

  if (specMatrix[app]) {
    test("the kind row matches the spec matrix", () => {
      expect(fromRow).toEqual([pmc, gateway, autoRotation, rotation]);
    });
  }

  test("list, read by id and read by name; secret credential parts never returned", async () => {
    const list = await api.get(base(app));
    expect(list.status).toBe(200);
    const { appConnections } = AppConnectionListEnvelope.parse(list.body);
    // Without projectId: every connection of the organization the caller may read, project-scoped
    // ones included (the service's app-connection-service.ts `listAppConnections` queries by orgId
    // alone; only its oldest versions added `projectId: null`).
    expect(appConnections.every((c) => c.app === app)).toBe(true);
    const visible = fixtures.appConnections.filter(
      (c) =>
        c.app === app &&
        c.orgId === FX.orgId &&
        ((c as { projectId?: string | null }).projectId ?? FX.projectId) === FX.projectId,
    );
    expect(appConnections.map((c) => c.id)).toEqual(expect.arrayContaining(visible.map((c) => c.id)));
    expect(appConnections.some((c) => c.projectId === FX.restrictedProjectId)).toBe(false);
    const names = appConnections.map((c) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const listed = appConnections.find((c) => c.id === fx.id)!;
    expect(listed.method).toBe(fx.method);

    const byId = AppConnectionEnvelope.parse((await api.get(`${base(app)}/${fx.id}`)).body).appConnection;
    const byName = AppConnectionEnvelope.parse(
      (await api.get(`${base(app)}/connection-name/${fx.name}`)).body,
    ).appConnection;
    expect(byId).toEqual(listed);
    expect(byName).toEqual(listed);
    for (const f of secretFields) expect(byId.credentials).not.toHaveProperty(f);
    const shown = JSON.stringify(byId);
    for (const f of secretFields) expect(shown).not.toContain(String((fx.credentials as Record<string, unknown>)[f]));
    expect(byId.credentials).toEqual(
      Object.fromEntries(
        Object.entries(fx.credentials).filter(([k]) => !(secretFields as readonly string[]).includes(k)),
      ),
    );
  });

  test("create: defaults, version 1, credentialsHash = sha256 of the stored credentials", async () => {
    const c = await create(app, { description: "made by a test" });
    expect(c).toMatchObject({
      app,
      method: fx.method,
      version: 1,
      description: "made by a test",
      isPlatformManagedCredentials: false,
      gatewayId: null,
      projectId: null,
      project: null,
      isAutoRotationEnabled: false,
    });
    expect(c.createdAt).toBe(c.updatedAt);
    const again = await create(app);
    expect(c.credentialsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(again.credentialsHash).toBe(c.credentialsHash);
    const stored = Object.fromEntries(Object.entries(fx.credentials).sort(([a], [b]) => (a < b ? -1 : 1)));
    // canonical JSON of these flat objects is JSON.stringify with sorted keys
    expect(c.credentialsHash).toBe(sha256(JSON.stringify(stored)));
  });

  test("PATCH isPlatformManagedCredentials per the matrix", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    expect((await api.patch(url, { isPlatformManagedCredentials: false })).status).toBe(200);
    if (pmc === "only-false") {
      expect422(
        await api.patch(url, { isPlatformManagedCredentials: true }),
        ["isPlatformManagedCredentials"],
        notSupported,
      );
      expect422(
        await api.post(base(app), {
          name: uniq("pm"),
          method: fx.method,
          credentials: fx.credentials,
          isPlatformManagedCredentials: true,
        }),
        ["isPlatformManagedCredentials"],
        notSupported,
      );
      return;
    }
    // one-way: needs credentials to switch on; then neither credentials nor the flag can change
    expectError(
      await api.patch(url, { isPlatformManagedCredentials: true }),
      400,
      "BadRequest",
      "Credentials required to transition to platform managed credentials",
    );
    const on = await api.patch(url, { isPlatformManagedCredentials: true, credentials: fx.credentials });
    expect(on.status).toBe(200);
    const managed = AppConnectionEnvelope.parse(on.body).appConnection;
    expect(managed.isPlatformManagedCredentials).toBe(true);
    expect(managed.credentialsHash).not.toBe(c.credentialsHash); // the server set a password only it knows
    const frozen = "Cannot update credentials or management status for platform managed connections";
    expectError(await api.patch(url, { isPlatformManagedCredentials: false }), 400, "BadRequest", frozen);
    expectError(await api.patch(url, { credentials: fx.credentials }), 400, "BadRequest", frozen);
    const still = AppConnectionEnvelope.parse(
      (await api.patch(url, { isPlatformManagedCredentials: true, description: "x" })).body,
    ).appConnection;
    expect(still.credentialsHash).toBe(managed.credentialsHash);
    // create with the flag on: allowed for this kind
    const created = await create(app, { isPlatformManagedCredentials: true });
    expect(created.isPlatformManagedCredentials).toBe(true);
    expect(created.credentialsHash).not.toBe(c.credentialsHash);
  });

  test("PATCH gatewayId per the matrix", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    const nulled = await api.patch(url, { gatewayId: null });
    expect(nulled.status).toBe(200);
    expect(nulled.body.appConnection.gatewayId).toBeNull();
    if (gateway === "unsupported") {
      expect422(await api.patch(url, { gatewayId: FX.gatewayId }), ["gatewayId"], notSupported);
      return;
    }
    const set = await api.patch(url, { gatewayId: FX.gatewayId });
    expect(set.status).toBe(200);
    expect(set.body.appConnection.gatewayId).toBe(FX.gatewayId);
    expect422(await api.patch(url, { gatewayId: "not-a-uuid" }), ["gatewayId"], "must be a UUID");
    const unknown = "0f0f0f0f-0000-4000-8000-00000000abcd";
    expectError(
      await api.patch(url, { gatewayId: unknown }),
      404,
      "NotFound",
      `Gateway with ID ${unknown} not found for org`,
    );
    expectError(
      await api.patch(url, { gatewayId: FX.otherOrgGatewayId }),
      404,
      "NotFound",
      `Gateway with ID ${FX.otherOrgGatewayId} not found for org`,
    );
  });

  test("PATCH isAutoRotationEnabled and rotation per the matrix", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    expect((await api.patch(url, { isAutoRotationEnabled: false })).status).toBe(200);
    if (autoRotation === "only-false") {
      expect422(await api.patch(url, { isAutoRotationEnabled: true }), ["isAutoRotationEnabled"], notSupported);
    }
    if (rotation === "unsupported") {
      expect422(await api.patch(url, { rotation: { rotationInterval: 30 } }), ["rotation"], notSupported);
      return;
    }
    expectError(
      await api.patch(url, { isAutoRotationEnabled: true }),
      400,
      "BadRequest",
      /rotation configuration is required/,
    );
    expect422(await api.patch(url, { rotation: { rotationInterval: 0 } }), ["rotation", "rotationInterval"]);
    expect422(await api.patch(url, { rotation: { rotationInterval: 366 } }), ["rotation", "rotationInterval"]);
    expect((await api.patch(url, { rotation: { rotationInterval: 1 } })).status).toBe(200);
    const on = AppConnectionEnvelope.parse(
      (await api.patch(url, { isAutoRotationEnabled: true, rotation: { rotationInterval: 365 } })).body,
    ).appConnection;
    expect(on.isAutoRotationEnabled).toBe(true);
    expect(on.rotation).toMatchObject({ rotationInterval: 365, rotateAtUtc: { hours: 0, minutes: 0 } });
    expect(Date.parse(on.rotation!.nextRotationAt!)).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const off = AppConnectionEnvelope.parse(
      (await api.patch(url, { isAutoRotationEnabled: false })).body,
    ).appConnection;
    expect(off.rotation).toMatchObject({ rotationInterval: 365, nextRotationAt: null });
  });

  test("credentials must fit the stored method", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    // a shape no method accepts fails schema validation
    expectError(await api.patch(url, { credentials: { nope: true } }), 422, "ValidationFailure");
    for (const method of Object.keys(kind.methods)) {
      const credentials = credentialsFor(app, method);
      const res = await api.patch(url, { credentials });
      // The service checks them against the stored method's schema, a plain z.object that drops
      // what it does not know (updateAppConnection, services/app-connection/app-connection-service.ts):
      // credentials of another method that hold the stored method's fields pass (railway's tokens,
      // github's app credentials on an oauth connection: `code` is there, `installationId` dropped).
      if (method === fx.method || stripTwin(kind.methods[fx.method]!.credentials).safeParse(credentials).success)
        expect(res.status).toBe(200);
      else
        expectError(
          res,
          400,
          "BadRequest",
          `Invalid credential format for ${kind.label} Connection with method ${fx.method}`,
        );
    }
  });

  test("every update bumps version and updatedAt; credentialsHash changes exactly with the credentials", async () => {
    const c = await create(app);
    const url = `${base(app)}/${c.id}`;
    let prev = c;
    const step = async (body: Record<string, unknown>) => {
      const next = AppConnectionEnvelope.parse((await api.patch(url, body)).body).appConnection;
      expect(next.version).toBe(prev.version! + 1);
      expect(Date.parse(next.updatedAt)).toBeGreaterThan(Date.parse(prev.updatedAt));
      expect(next.createdAt).toBe(c.createdAt);
      const before = prev;
      prev = next;
      return [before, next] as const;
    };
    let [a, b] = await step({ description: "changed" });
    expect(b.credentialsHash).toBe(a.credentialsHash);
    [a, b] = await step({ credentials: fx.credentials }); // same values
    expect(b.credentialsHash).toBe(a.credentialsHash);
    // A secret field whose changed value the method still accepts (an email or a URL with a
    // suffix may not be; a token of a fixed length, okta's, only changes in place).
    const credentialsSchema = kind.methods[fx.method]!.credentials;
    const changes = secretFields.flatMap((f) => {
      const was = String((fx.credentials as Record<string, unknown>)[f] ?? "");
      const inPlace = was.length > 7 ? `${was.slice(0, -7)}rotated` : undefined;
      return [`${was}-rotated`, `rotated-${was}`, ...(inPlace && inPlace !== was ? [inPlace] : [])].map((v) => ({
        ...(fx.credentials as Record<string, unknown>),
        [f]: v,
      }));
    });
    const changed = changes.find((c) => credentialsSchema.safeParse(c).success)!;
    expect(changed).toBeDefined();
    const secret = secretFields.find((f) => changed[f] !== (fx.credentials as Record<string, unknown>)[f])!;
    [a, b] = await step({ credentials: changed });
    expect(b.credentialsHash).not.toBe(a.credentialsHash);
    expect(JSON.stringify(b)).not.toContain(`${String(changed[secret])}`);
    // immutable fields are stripped like unknown keys (the service's zod strips them)
    [a, b] = await step({ method: "something-else", app: "other", projectId: FX.projectId, name: `${c.name}-x` });
    expect(b).toMatchObject({ method: fx.method, app, projectId: null, name: `${c.name}-x` });
  });

  test("wrong kind on GET and DELETE is 400, unknown ids 404", async () => {
    const other = kinds.find((k) => k.app !== app)!.app;
    expectError(
      await api.get(`${base(other)}/${fx.id}`),
      400,
      "BadRequest",
      `App Connection with ID ${fx.id} is not for App "${other}"`,
    );
    expectError(
      await api.delete(`${base(other)}/${fx.id}`),
      400,
      "BadRequest",
      `App Connection with ID ${fx.id} is not for App "${other}"`,
    );
    expectError(
      await api.get(`${base(other)}/connection-name/${fx.name}`),
      400,
      "BadRequest",
      `App Connection with name ${fx.name} is not for App "${other}"`,
    );
    // like the service, PATCH does not check the kind in the path (docs/service-api.md §1)
    expect((await api.patch(`${base(other)}/${fx.id}`, { description: fx.description })).status).toBe(200);
    const missing = "0f0f0f0f-0000-4000-8000-00000000dead";
    expectError(
      await api.get(`${base(app)}/${missing}`),
      404,
      "NotFound",
      `Could not find App Connection with ID ${missing}`,
    );
    expectError(
      await api.patch(`${base(app)}/${missing}`, { description: "x" }),
      404,
      "NotFound",
      `Could not find App Connection with ID ${missing}`,
    );
    expectError(
      await api.delete(`${base(app)}/${missing}`),
      404,
      "NotFound",
      `Could not find App Connection with ID ${missing}`,
    );
    expectError(
      await api.get(`${base(app)}/connection-name/no-such-name`),
      404,
      "NotFound",
      "Could not find App Connection with name no-such-name in organization scope.",
    );
    expect422(await api.get(`${base(app)}/not-a-uuid`), ["connectionId"]);
  });

  test("DELETE returns the deleted connection", async () => {
    const c = await create(app);
    const res = await api.delete(`${base(app)}/${c.id}`);
    expect(res.status).toBe(200);
    expect(AppConnectionEnvelope.parse(res.body).appConnection).toEqual(c);
    expect((await api.get(`${base(app)}/${c.id}`)).status).toBe(404);
  });
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
    expectError(
      await api.post(base(app), body({ projectId: FX.restrictedProjectId })),
      403,
      "PermissionDenied",
      "You are not allowed to create on app-connections",
    );
    expectError(await api.get(base(app), { query: { projectId: FX.restrictedProjectId } }), 403, "PermissionDenied");
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
