import {
  SecretSyncEnvelope,
  SecretSyncListEnvelope,
  appConnectionKinds,
  knownSyncDestinations,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { LOCKED, syncObjects } from "../emulator/objects";
import { FX, expect422, expectError, expectIncreasing, start, uniq, waitFor, type Api } from "../emulator/helpers";

/**
 * Every sync destination's row over HTTP: create, the job's statuses, reads, PATCH, the three
 * triggers, delete, a connection of another kind. The rules every destination shares:
 * tests/emulator/secret-syncs.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start({ syncJobDelayMs: 50 })));
afterAll(() => emu.stop());

const destinations = knownSyncDestinations;
const { base, syncBody, createSync, get, settled } = syncObjects(() => api);

test("every destination has a connection kind in the fixtures", () => {
  for (const d of destinations) expect(FX.connection(d.connectionApp)).toBeDefined();
});

describe.each(destinations.map((d) => [d.destination, d] as const))("%s syncs", (destination, dest) => {
  test("create → pending → running → succeeded; reads by id, name and list", async () => {
    // The job is held at `running` (admin job-holds) so that a poll sees it there on any machine.
    const name = uniq("sync");
    const hold = (await api.post("/__admin/job-holds", { syncName: name, job: "sync" })).body.id as string;
    const created = await createSync(dest, { name, description: "a sync" });
    expect(created).toMatchObject({
      destination,
      version: 1,
      isAutoSyncEnabled: true,
      description: "a sync",
      syncStatus: "pending",
      lastSyncJobId: null,
      lastSyncedAt: null,
      importStatus: null,
      removeStatus: null,
      connection: {
        app: dest.connectionApp,
        id: FX.connection(dest.connectionApp).id,
        name: FX.connection(dest.connectionApp).name,
      },
      environment: { slug: "dev", name: "Development" },
      folder: { path: "/app" },
      destinationConfig: dest.example.destinationConfig,
    });
    expect(created.folderId).toBe(created.folder!.id);
    const running = await waitFor(
      () => get(destination, created.id),
      (s) => s.syncStatus !== "pending",
    );
    expect(running).toMatchObject({ syncStatus: "running", lastSyncedAt: null });
    expect(running.lastSyncJobId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api.delete(`/__admin/job-holds/${hold}`)).status).toBe(200);
    const done = await waitFor(
      () => get(destination, created.id),
      (s) => settled(s, "syncStatus"),
    );
    expect(done.syncStatus).toBe("succeeded");
    expect(done.lastSyncJobId).toBe(running.lastSyncJobId);
    expect(done.lastSyncMessage).toBeNull();
    expect(done.lastSyncJobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(done.lastSyncedAt!)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));

    const byName = await api.get(`${base(destination)}/sync-name/${created.name}`, {
      query: { projectId: FX.projectId },
    });
    expect(SecretSyncEnvelope.parse(byName.body).secretSync.id).toBe(created.id);
    const list = SecretSyncListEnvelope.parse(
      (await api.get(base(destination), { query: { projectId: FX.projectId } })).body,
    ).secretSyncs;
    expect(list.some((s) => s.id === created.id)).toBe(true);
    expect(list.every((s) => s.destination === destination)).toBe(true);
  });

  test("PATCH: version and updatedAt move, auto-sync queues a sync, immutable fields are stripped", async () => {
    const s = await createSync(dest);
    await waitFor(
      () => get(destination, s.id),
      (x) => settled(x, "syncStatus"),
    );
    const res = await api.patch(`${base(destination)}/${s.id}`, {
      description: "changed",
      projectId: FX.restrictedProjectId,
      destination: "other",
      secretPath: "/app/db/",
      environment: "staging",
    });
    expect(res.status).toBe(200);
    const p = SecretSyncEnvelope.parse(res.body).secretSync;
    expect(p).toMatchObject({
      version: 2,
      description: "changed",
      projectId: FX.projectId,
      destination,
      syncStatus: "pending",
    });
    expect(p.folder).toMatchObject({ path: "/app/db" });
    expect(p.environment).toMatchObject({ slug: "staging" });
    expectIncreasing([s.updatedAt, p.updatedAt]);
    await waitFor(
      () => get(destination, s.id),
      (x) => x.syncStatus === "succeeded",
    );
    // auto-sync off after the update: nothing queued
    const off = SecretSyncEnvelope.parse(
      (await api.patch(`${base(destination)}/${s.id}`, { isAutoSyncEnabled: false })).body,
    ).secretSync;
    expect(off.syncStatus).toBe("succeeded");
    expect(off.version).toBe(3);
  });

  test("import and remove triggers", async () => {
    const s = await createSync(dest, { isAutoSyncEnabled: false });
    expect(s.syncStatus).toBeNull();
    expect422(await api.post(`${base(destination)}/${s.id}/import-secrets`), ["importBehavior"]);
    const imp = await api.post(`${base(destination)}/${s.id}/import-secrets`, undefined, {
      query: { importBehavior: "prioritize-source" },
    });
    if (dest.canImport) {
      expect(imp.status).toBe(200);
      expect(SecretSyncEnvelope.parse(imp.body).secretSync.importStatus).toBe("pending");
      const imported = await waitFor(
        () => get(destination, s.id),
        (x) => settled(x, "importStatus"),
      );
      expect(imported).toMatchObject({ importStatus: "succeeded", lastImportMessage: null, syncStatus: null });
      expect(imported.lastImportJobId).toBeTruthy();
      expect(imported.lastImportedAt).toBeTruthy();
    } else {
      // A destination that cannot import refuses the trigger, as its row says.
      expectError(imp, 400, "BadRequest", `${dest.label} does not support importing secrets.`);
    }

    const rem = await api.post(`${base(destination)}/${s.id}/remove-secrets`);
    expect(rem.body.secretSync.removeStatus).toBe("pending");
    const removed = await waitFor(
      () => get(destination, s.id),
      (x) => settled(x, "removeStatus"),
    );
    expect(removed).toMatchObject({ removeStatus: "succeeded", lastRemoveMessage: null });
    expect(removed.lastRemovedAt).toBeTruthy();

    // The job is held in flight (admin job-holds) so that the second call meets it on any machine,
    // however slowly this test runs.
    const hold = await api.post("/__admin/job-holds", { syncId: s.id, job: "sync" });
    expect(hold.status).toBe(200);
    const sync = await api.post(`${base(destination)}/${s.id}/sync-secrets`, {});
    expect(sync.body.secretSync.syncStatus).toBe("pending");
    expectError(await api.post(`${base(destination)}/${s.id}/sync-secrets`), 400, "BadRequest", LOCKED);
    expectError(await api.post(`${base(destination)}/${s.id}/remove-secrets`), 400, "BadRequest", LOCKED);
    expect((await api.delete(`/__admin/job-holds/${hold.body.id}`)).status).toBe(200);
    await waitFor(
      () => get(destination, s.id),
      (x) => x.syncStatus === "succeeded",
    );
  });

  test("DELETE returns the sync; wrong destination 400; unknown 404", async () => {
    const s = await createSync(dest, { isAutoSyncEnabled: false });
    const other = destinations.find((d) => d.destination !== destination)!;
    const wrong = `Secret sync with ID "${s.id}" is not configured for ${other.label}`;
    expectError(await api.get(`${base(other.destination)}/${s.id}`), 400, "BadRequest", wrong);
    expectError(await api.patch(`${base(other.destination)}/${s.id}`, { description: "x" }), 400, "BadRequest", wrong);
    expectError(await api.delete(`${base(other.destination)}/${s.id}`), 400, "BadRequest", wrong);
    expectError(
      await api.get(`${base(other.destination)}/sync-name/${s.name}`, { query: { projectId: FX.projectId } }),
      400,
      "BadRequest",
      wrong,
    );
    const del = await api.delete(`${base(destination)}/${s.id}`);
    expect(del.status).toBe(200);
    expect(SecretSyncEnvelope.parse(del.body).secretSync).toEqual(s);
    expectError(
      await api.get(`${base(destination)}/${s.id}`),
      404,
      "NotFound",
      `Could not find ${dest.label} Sync with ID "${s.id}"`,
    );
    expectError(
      await api.get(`${base(destination)}/sync-name/${s.name}`, { query: { projectId: FX.projectId } }),
      404,
      "NotFound",
      `Could not find ${dest.label} Sync with name "${s.name}"`,
    );
  });

  test("connection of another kind is refused", async () => {
    const other = destinations.find((d) => d.connectionApp !== dest.connectionApp)!;
    const wrongConn = FX.connection(other.connectionApp);
    // The service names both connection kinds (its app-connection-service), not the destination.
    const label = (app: string) => appConnectionKinds[app as keyof typeof appConnectionKinds].label;
    const res = await api.post(base(destination), syncBody(dest, { connectionId: wrongConn.id }));
    expectError(
      res,
      400,
      "BadRequest",
      `${label(other.connectionApp)} Connection with ID ${wrongConn.id} cannot be used to connect to ${label(dest.connectionApp)}`,
    );
    const s = await createSync(dest, { isAutoSyncEnabled: false });
    expectError(
      await api.patch(`${base(destination)}/${s.id}`, { connectionId: wrongConn.id }),
      400,
      "BadRequest",
      /cannot be used to connect to/,
    );
  });
});
