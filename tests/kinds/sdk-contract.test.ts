import {
  type AppConnectionApp,
  type AppConnectionCreateInput,
  type RotationTypeSlug,
  type SecretsMappingInput,
  type SyncDestinationSlug,
  SecretOpsApiError,
  SecretOpsClient,
  appConnectionApps,
  appConnectionKinds,
  rotationTypeSlugs,
  rotationTypes,
  syncDestinationSlugs,
  syncDestinations,
} from "../../sdk";
import { type TestEmulator, defaultFixtures, defaultIdentity, poll, startTestEmulator } from "../sdk/helpers/emulator";

/**
 * Contract tests: every SDK method against the emulator (emulator/index.ts), for every app
 * connection kind, sync destination and rotation type. The emulator validates with the same shared
 * schemas, so a request the SDK builds wrongly shows up here as a 422. Certificate profiles, audit
 * logs and permission errors: tests/sdk/contract.test.ts.
 */

let t: TestEmulator;
let client: SecretOpsClient;
let projectId: string;

beforeAll(async () => {
  t = await startTestEmulator();
  client = new SecretOpsClient(
    { baseUrl: t.url, token: t.token },
    { rateLimit: false, retry: { baseDelayMs: 10, maxDelayMs: 50 } },
  );
  projectId = t.emu.summary.projects[0]!.id;
});
afterAll(() => t.stop());

const orgConnection = (app: string) => {
  const c = t.emu.summary.connections.find((x) => x.app === app && x.projectId === null);
  if (!c) throw new Error(`the emulator's fixtures have no ${app} connection`);
  return c;
};

describe("app connections, every kind", () => {
  /** The fixture file's connections are create bodies (name, method, credentials, …) per kind. */
  const createBody = <A extends AppConnectionApp>(app: A, name: string) => {
    const fx = defaultFixtures.appConnections.find((c) => c.app === app && c.orgId === defaultIdentity.orgId)!;
    const { id: _id, orgId: _org, app: _app, ...body } = fx;
    return { ...body, name, projectId } as unknown as AppConnectionCreateInput<A>;
  };

  test.each(appConnectionApps)("%s: list, get, getByName, create, update, delete", async (app) => {
    const fixture = orgConnection(app);
    expect((await client.appConnections.list(app)).map((c) => c.id)).toContain(fixture.id);
    expect(await client.appConnections.get(app, fixture.id)).toMatchObject({ id: fixture.id, app, name: fixture.name });
    expect((await client.appConnections.getByName(app, fixture.name)).id).toBe(fixture.id);

    const name = `sdk-${app}`;
    const body = createBody(app, name);
    const created = await client.appConnections.create(app, body);
    expect(created).toMatchObject({ app, name, projectId, method: body.method, version: 1 });
    const kind = appConnectionKinds[app];
    for (const secret of (kind.methods as Record<string, { secretFields: readonly string[] }>)[body.method]!
      .secretFields) {
      expect(created.credentials).not.toHaveProperty(secret);
    }
    expect((await client.appConnections.list(app, { projectId })).map((c) => c.id)).toEqual([created.id]);
    expect((await client.appConnections.getByName(app, name, { projectId })).id).toBe(created.id);

    const updated = await client.appConnections.update(app, created.id, {
      description: "updated by the SDK contract test",
    });
    expect(updated).toMatchObject({ description: "updated by the SDK contract test", version: 2 });

    expect((await client.appConnections.delete(app, created.id)).id).toBe(created.id);
    await expect(client.appConnections.get(app, created.id)).rejects.toMatchObject({ status: 404 });
  });

  test("postgres: platform-managed credentials turn on together with credentials", async () => {
    const created = await client.appConnections.create("postgres", createBody("postgres", "sdk-pg-managed"));
    const body = createBody("postgres", "x") as Extract<
      AppConnectionCreateInput<"postgres">,
      { method: "username-and-password" }
    >;
    const managed = await client.appConnections.update("postgres", created.id, {
      isPlatformManagedCredentials: true,
      credentials: body.credentials,
    });
    expect(managed.isPlatformManagedCredentials).toBe(true);
    await client.appConnections.delete("postgres", created.id);
  });

  test("a duplicate name is the service's 400, not retried", async () => {
    await t.admin.clearRequests();
    const fixture = orgConnection("auth0");
    const err = await client.appConnections
      .create("auth0", { ...createBody("auth0", fixture.name), projectId: undefined })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err).toMatchObject({
      status: 400,
      error: "BadRequest",
      ambiguous: false,
      method: "POST",
      path: "/api/v1/app-connections/auth0",
    });
    expect((err as Error).message).toContain("already exists");
    expect((await t.admin.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("secret syncs, every destination", () => {
  const createSync = (dest: SyncDestinationSlug, name: string) =>
    client.secretSyncs.create(dest, {
      name,
      projectId,
      connectionId: orgConnection(syncDestinations[dest].connectionApp).id,
      environment: "dev",
      secretPath: "/app/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: syncDestinations[dest].example.destinationConfig as never,
    });
  const settled = (dest: SyncDestinationSlug, id: string, field: "syncStatus" | "importStatus" | "removeStatus") =>
    poll(
      () => client.secretSyncs.get(dest, id),
      (s) => s[field] === "succeeded" || s[field] === "failed",
    );

  test.each(syncDestinationSlugs)("%s: create, reads, update, the three triggers, delete", async (dest) => {
    const name = `sdk-sync-${dest}`;
    const created = await createSync(dest, name);
    expect(created).toMatchObject({
      name,
      destination: dest,
      projectId,
      isAutoSyncEnabled: true,
      syncStatus: "pending",
      folder: { path: "/app" },
    });
    expect((await settled(dest, created.id, "syncStatus")).syncStatus).toBe("succeeded");

    expect((await client.secretSyncs.getByName(dest, name, projectId)).id).toBe(created.id);
    expect((await client.secretSyncs.list(dest, projectId)).map((s) => s.id)).toContain(created.id);

    const updated = await client.secretSyncs.update(dest, created.id, { description: "updated" });
    expect(updated).toMatchObject({ description: "updated", version: 2 });
    await settled(dest, created.id, "syncStatus"); // a PATCH queues a sync; triggers need the lock free

    // A destination that cannot import refuses the trigger, as its row says.
    if (syncDestinations[dest].canImport) {
      expect((await client.secretSyncs.importSecrets(dest, created.id, "prioritize-source")).importStatus).toBe(
        "pending",
      );
      expect((await settled(dest, created.id, "importStatus")).importStatus).toBe("succeeded");
    } else {
      await expect(client.secretSyncs.importSecrets(dest, created.id, "prioritize-source")).rejects.toMatchObject({
        status: 400,
        message: `${syncDestinations[dest].label} does not support importing secrets.`,
      });
    }
    expect((await client.secretSyncs.removeSecrets(dest, created.id)).removeStatus).toBe("pending");
    expect((await settled(dest, created.id, "removeStatus")).removeStatus).toBe("succeeded");
    expect((await client.secretSyncs.syncSecrets(dest, created.id)).syncStatus).toBe("pending");
    expect((await settled(dest, created.id, "syncStatus")).syncStatus).toBe("succeeded");

    expect((await client.secretSyncs.delete(dest, created.id)).id).toBe(created.id);
    await expect(client.secretSyncs.get(dest, created.id)).rejects.toMatchObject({ status: 404 });
  });

  test("delete with removeSecrets: the sync goes once its remove job succeeded", async () => {
    const created = await createSync("vercel", "sdk-sync-remove-on-delete");
    await settled("vercel", created.id, "syncStatus");
    const pending = await client.secretSyncs.delete("vercel", created.id, { removeSecrets: true });
    expect(pending.removeStatus).toBe("pending");
    const gone = await poll(
      () =>
        client.secretSyncs.get("vercel", created.id).then(
          () => false,
          (e: unknown) => e instanceof SecretOpsApiError && e.status === 404,
        ),
      (v) => v,
    );
    expect(gone).toBe(true);
  });
});

describe("secret rotations, every type", () => {
  const mapping = <T extends RotationTypeSlug>(type: T): SecretsMappingInput<T> => {
    const prefix = type.toUpperCase().replace(/-/g, "_");
    const keys = Object.keys(rotationTypes[type].secretsMapping.shape);
    return Object.fromEntries(keys.map((k) => [k, `${prefix}_${k.toUpperCase()}`])) as SecretsMappingInput<T>;
  };

  test.each(rotationTypeSlugs)("%s: create, reads, update, rotate, generated credentials, delete", async (type) => {
    const name = `sdk-${type}`;
    const where = { projectId, environment: "staging", secretPath: "/app" };
    const created = await client.secretRotations.create(type, {
      name,
      projectId,
      connectionId: orgConnection(rotationTypes[type].connectionApp).id,
      environment: where.environment,
      secretPath: where.secretPath,
      rotationInterval: 30,
      parameters: rotationTypes[type].example.parameters as never,
      secretsMapping: mapping(type) as never,
    });
    expect(created).toMatchObject({
      name,
      type,
      rotationStatus: "success",
      activeIndex: 0,
      isAutoRotationEnabled: true,
      rotateAtUtc: { hours: 0, minutes: 0 },
    });

    expect((await client.secretRotations.get(type, created.id)).id).toBe(created.id);
    expect((await client.secretRotations.getByName(type, name, where)).id).toBe(created.id);
    expect((await client.secretRotations.list(type, projectId)).map((r) => r.id)).toContain(created.id);

    expect(
      (await client.secretRotations.update(type, created.id, { rotationInterval: 14, description: "d" }))
        .rotationInterval,
    ).toBe(14);

    const first = await client.secretRotations.generatedCredentials(type, created.id);
    expect(first).toMatchObject({ activeIndex: 0, rotationId: created.id, type });
    expect(first.generatedCredentials).toHaveLength(1);
    expect(Object.keys(first.generatedCredentials[0]!).sort()).toEqual(
      Object.keys(rotationTypes[type].generatedCredentials.shape).sort(),
    );

    expect((await client.secretRotations.rotate(type, created.id)).activeIndex).toBe(1);
    expect((await client.secretRotations.generatedCredentials(type, created.id)).generatedCredentials).toHaveLength(2);

    await client.secretRotations.delete(type, created.id, { deleteSecrets: true, revokeGeneratedCredentials: true });
    await expect(client.secretRotations.get(type, created.id)).rejects.toMatchObject({ status: 404 });
  });
});
