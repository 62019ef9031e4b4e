import { createHash } from "node:crypto";
import {
  AppConnectionEnvelope,
  AppConnectionListEnvelope,
  apiPaths,
  appConnectionKinds,
  type AppConnection,
  type AppConnectionKind,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { stripTwin } from "../../emulator/service-schemas";
import { FX, expect422, fixtures, expectError, start, uniq, type Api } from "../emulator/helpers";

/**
 * Every connection kind's row over HTTP: its methods' sample credentials, its lifecycle, its PATCH
 * matrix against the spec's, its errors. The rules every kind shares: tests/emulator/app-connections.test.ts.
 */

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
