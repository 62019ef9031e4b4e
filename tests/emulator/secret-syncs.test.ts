import {
  AuditLogListEnvelope,
  SecretSyncEnvelope,
  SecretSyncListEnvelope,
  apiPaths,
  appConnectionKinds,
  syncDestinations,
  type SecretSync,
  type KnownSyncDestination,
  knownSyncDestinations,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import {
  FX,
  expect422,
  expectError,
  expectIncreasing,
  start,
  uniq,
  waitFor,
  withClockStopped,
  type Api,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start({ syncJobDelayMs: 50 })));
afterAll(() => emu.stop());

const destinations = knownSyncDestinations;
const base = (d: string) => apiPaths.secretSyncs(d);
const LOCKED = "A job for this sync is already in progress. Please try again shortly.";

function syncBody(dest: KnownSyncDestination, extra: Record<string, unknown> = {}) {
  return {
    name: uniq("sync"),
    projectId: FX.projectId,
    connectionId: FX.connection(dest.connectionApp).id,
    environment: "dev",
    secretPath: "/app",
    syncOptions: {
      initialSyncBehavior: "overwrite-destination",
      keySchema: "APP_{{secretKey}}",
      disableSecretDeletion: false,
    },
    destinationConfig: dest.example.destinationConfig,
    ...extra,
  };
}

async function createSync(dest: KnownSyncDestination, extra: Record<string, unknown> = {}): Promise<SecretSync> {
  const res = await api.post(base(dest.destination), syncBody(dest, extra));
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return SecretSyncEnvelope.parse(res.body).secretSync;
}

const get = async (dest: string, id: string) =>
  SecretSyncEnvelope.parse((await api.get(`${base(dest)}/${id}`)).body).secretSync;
const settled = (s: SecretSync, field: "syncStatus" | "importStatus" | "removeStatus") =>
  s[field] === "succeeded" || s[field] === "failed";

test("every destination has a connection kind in the fixtures", () => {
  for (const d of destinations) expect(FX.connection(d.connectionApp)).toBeDefined();
});

test("GET /api/v1/secret-syncs lists a project's syncs of every destination in one call, audited", async () => {
  const made = await Promise.all(destinations.slice(0, 4).map((d) => createSync(d, { isAutoSyncEnabled: false })));
  const res = await api.get(apiPaths.allSecretSyncs, { query: { projectId: FX.projectId } });
  expect(res.status).toBe(200);
  const listed = SecretSyncListEnvelope.parse(res.body).secretSyncs;
  for (const s of made) expect(listed.find((x) => x.id === s.id)).toEqual(await get(s.destination, s.id));
  expect(new Set(listed.map((s) => s.destination)).size).toBeGreaterThanOrEqual(4);
  const audited = await api.get(apiPaths.auditLogs, {
    query: { projectId: FX.projectId, eventType: "get-secret-syncs", limit: 1 },
  });
  expect(AuditLogListEnvelope.parse(audited.body).auditLogs[0]?.event.metadata).toEqual({
    count: listed.length,
    syncIds: listed.map((s) => s.id),
  });
  expectError(
    await api.get(apiPaths.allSecretSyncs, { query: { projectId: FX.restrictedProjectId } }),
    403,
    "PermissionDenied",
    "You are not allowed to read on secret-syncs",
  );
  expect422(await api.get(apiPaths.allSecretSyncs), ["projectId"]);
});

test("updatedAt moves on every PATCH, even within one millisecond", async () => {
  const dest = destinations[0]!;
  const times = await withClockStopped(async () => {
    const s = await createSync(dest, { isAutoSyncEnabled: false });
    const url = `${base(dest.destination)}/${s.id}`;
    const a = SecretSyncEnvelope.parse((await api.patch(url, { description: "a" })).body).secretSync;
    const b = SecretSyncEnvelope.parse((await api.patch(url, { description: "b" })).body).secretSync;
    return [s.updatedAt, a.updatedAt, b.updatedAt];
  });
  expectIncreasing(times);
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
      expectError(imp, 400, "BadRequest", `${dest.label} does not support importing secrets`);
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

describe("sync jobs that fail", () => {
  const dest = syncDestinations.vercel;
  test("a job-fault rule fails the next sync job: message set, timestamp unchanged", async () => {
    const name = uniq("faulty");
    expect(
      (await api.post("/__admin/job-faults", { syncName: name, job: "sync", message: "destination said no" })).status,
    ).toBe(200);
    const s = await createSync(dest, { name });
    const failed = await waitFor(
      () => get("vercel", s.id),
      (x) => settled(x, "syncStatus"),
    );
    expect(failed).toMatchObject({ syncStatus: "failed", lastSyncMessage: "destination said no", lastSyncedAt: null });
    expect(failed.lastSyncJobId).toBeTruthy();
    await api.post(`${base("vercel")}/${s.id}/sync-secrets`);
    const ok = await waitFor(
      () => get("vercel", s.id),
      (x) => x.syncStatus === "succeeded",
    );
    expect(ok.lastSyncMessage).toBeNull();
    expect(ok.lastSyncJobId).not.toBe(failed.lastSyncJobId);
  });

  test("DELETE with removeSecrets=true deletes the row only when the remove job succeeds", async () => {
    const s = await createSync(dest, { isAutoSyncEnabled: false });
    const del = await api.delete(`${base("vercel")}/${s.id}`, { query: { removeSecrets: "true" } });
    expect(del.status).toBe(200);
    expect(SecretSyncEnvelope.parse(del.body).secretSync.removeStatus).toBe("pending");
    expect((await api.get(`${base("vercel")}/${s.id}`)).status).toBe(200);
    await waitFor(
      () => api.get(`${base("vercel")}/${s.id}`),
      (r) => r.status === 404,
    );

    const t = await createSync(dest, { isAutoSyncEnabled: false });
    await api.post("/__admin/job-faults", { syncId: t.id, job: "remove", message: "could not remove" });
    expect(
      (await api.delete(`${base("vercel")}/${t.id}`, { query: { removeSecrets: true } })).body.secretSync.removeStatus,
    ).toBe("pending");
    const kept = await waitFor(
      () => get("vercel", t.id),
      (x) => settled(x, "removeStatus"),
    );
    expect(kept).toMatchObject({ removeStatus: "failed", lastRemoveMessage: "could not remove", lastRemovedAt: null });
    // the row stays; a plain DELETE removes it at once
    expect((await api.delete(`${base("vercel")}/${t.id}`, { query: { removeSecrets: "false" } })).status).toBe(200);
    expect((await api.get(`${base("vercel")}/${t.id}`)).status).toBe(404);
  });

  test("DELETE with removeSecrets while a job runs is refused", async () => {
    const name = uniq("held");
    // The auto-sync job is held in flight until released, whatever the machine's load.
    const hold = (await api.post("/__admin/job-holds", { syncName: name })).body.id as string;
    const s = await createSync(dest, { name });
    await waitFor(
      () => get("vercel", s.id),
      (x) => x.syncStatus === "running",
    );
    expectError(
      await api.delete(`${base("vercel")}/${s.id}`, { query: { removeSecrets: "true" } }),
      400,
      "BadRequest",
      LOCKED,
    );
    expect422(await api.delete(`${base("vercel")}/${s.id}`, { query: { removeSecrets: "yes" } }), ["removeSecrets"]);
    expect((await api.get(`${base("vercel")}/${s.id}`)).body.secretSync.syncStatus).toBe("running");
    expect((await api.delete(`/__admin/job-holds/${hold}`)).status).toBe(200);
    await waitFor(
      () => get("vercel", s.id),
      (x) => x.syncStatus === "succeeded",
    );
    expect((await api.delete(`/__admin/job-holds/${hold}`)).status).toBe(404);
  });
});

describe("sync field rules (docs/api-spec.md §8) and service rules", () => {
  const dest = syncDestinations.vercel;
  const post = (extra: Record<string, unknown>) =>
    api.post(base("vercel"), syncBody(dest, { isAutoSyncEnabled: false, ...extra }));

  test("name: 1 to 256, slug-friendly", async () => {
    const n256 = `n${"a".repeat(254)}z`;
    expect((await post({ name: n256 })).status).toBe(200);
    expect422(await post({ name: `${n256}x` }), ["name"], "must be at most 256 characters");
    expect422(await post({ name: "" }), ["name"]);
    expect422(
      await post({ name: "Not_Slug" }),
      ["name"],
      'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
    );
  });

  test("description: at most 256", async () => {
    expect((await post({ description: "d".repeat(256) })).status).toBe(200);
    expect422(await post({ description: "d".repeat(257) }), ["description"]);
  });

  test("environment: 1 to 64; projectId and secretPath at least 1", async () => {
    const env64 = `e${"n".repeat(62)}v`;
    // 64 characters pass validation and reach the folder lookup
    expectError(
      await post({ environment: env64 }),
      400,
      "BadRequest",
      `Could not find folder with path "/app" in environment "${env64}" for project with ID "${FX.projectId}"`,
    );
    expect422(await post({ environment: `${env64}x` }), ["environment"]);
    expect422(await post({ environment: "" }), ["environment"]);
    expect422(await post({ projectId: "" }), ["projectId"]);
    expect422(await post({ secretPath: "" }), ["secretPath"]);
    expect422(await post({ connectionId: "nope" }), ["connectionId"]);
  });

  test("syncOptions and destinationConfig are checked", async () => {
    expect422(await post({ syncOptions: { keySchema: "{{secretKey}}" } }), ["syncOptions", "initialSyncBehavior"]);
    expect422(
      await post({ syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "NO_PLACEHOLDER" } }),
      ["syncOptions", "keySchema"],
    );
    expect422(await post({ destinationConfig: { app: "a", appName: "b", env: "development" } }), [
      "destinationConfig",
      "teamId",
    ]);
    expect422(await post({ destinationConfig: undefined }), ["destinationConfig"]);
    const s = SecretSyncEnvelope.parse((await post({})).body).secretSync;
    expect422(await api.patch(`${base("vercel")}/${s.id}`, { syncOptions: { disableSecretDeletion: true } }), [
      "syncOptions",
      "initialSyncBehavior",
    ]);
    expect(
      (
        await api.patch(`${base("vercel")}/${s.id}`, {
          syncOptions: { initialSyncBehavior: "import-prioritize-source" },
        })
      ).body.secretSync.syncOptions,
    ).toEqual({
      initialSyncBehavior: "import-prioritize-source",
    });
  });

  test("the key-vault destination has its extra sync option", async () => {
    const kv = syncDestinations["azure-key-vault"];
    const res = await api.post(
      base("azure-key-vault"),
      syncBody(kv, { syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true } }),
    );
    expect(res.body.secretSync.syncOptions).toEqual({
      initialSyncBehavior: "overwrite-destination",
      disableCertificateImport: true,
    });
  });

  test("names are unique per project", async () => {
    const name = uniq("same");
    expect((await post({ name })).status).toBe(200);
    expectError(
      await post({ name }),
      400,
      "BadRequest",
      `A Secret Sync with the name "${name}" already exists for the project with ID "${FX.projectId}"`,
    );
    const other = SecretSyncEnvelope.parse((await post({})).body).secretSync;
    expectError(
      await api.patch(`${base("vercel")}/${other.id}`, { name }),
      400,
      "BadRequest",
      `A Secret Sync with the name "${name}" already exists for the project with ID "${FX.projectId}"`,
    );
  });

  test("folder and environment must exist, on create and on PATCH", async () => {
    expectError(
      await post({ secretPath: "/nope" }),
      400,
      "BadRequest",
      `Could not find folder with path "/nope" in environment "dev" for project with ID "${FX.projectId}"`,
    );
    expectError(
      await post({ environment: "qa" }),
      400,
      "BadRequest",
      `Could not find folder with path "/app" in environment "qa" for project with ID "${FX.projectId}"`,
    );
    const s = SecretSyncEnvelope.parse((await post({})).body).secretSync;
    expectError(
      await api.patch(`${base("vercel")}/${s.id}`, { secretPath: "/missing" }),
      400,
      "BadRequest",
      `Could not find folder with path "/missing" in environment "dev" for project with ID "${FX.projectId}"`,
    );
  });

  test("projects: unknown 404, not a member or other org 403", async () => {
    const unknown = "0f0f0f0f-0000-4000-8000-00000000beef";
    expectError(await post({ projectId: unknown }), 404, "NotFound");
    expectError(
      await post({ projectId: FX.restrictedProjectId }),
      403,
      "PermissionDenied",
      "You are not allowed to create on secret-syncs",
    );
    const denied = await api.get(base("vercel"), { query: { projectId: FX.restrictedProjectId } });
    expectError(denied, 403, "PermissionDenied", "You are not allowed to read on secret-syncs");
    expect(denied.body.details).toEqual([
      { action: "read", inverted: false, subject: "secret-syncs", conditions: null },
    ]);
    expectError(await post({ projectId: FX.otherOrgProjectId }), 403, "PermissionDenied");
    expect422(await api.get(base("vercel")), ["projectId"]);
    expect422(await api.get(`${base("vercel")}/sync-name/x`), ["projectId"]);
    const missingConn = "0f0f0f0f-0000-4000-8000-00000000c0c0";
    expectError(
      await post({ connectionId: missingConn }),
      404,
      "NotFound",
      `Could not find App Connection with ID ${missingConn}`,
    );
  });

  test("100 parallel PATCHes lose nothing and versions strictly increase", async () => {
    const s = SecretSyncEnvelope.parse((await post({})).body).secretSync;
    const url = `${base("vercel")}/${s.id}`;
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => api.patch(url, { description: `p${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    const versions = results.map((r) => r.body.secretSync.version as number);
    expect(new Set(versions).size).toBe(100);
    expect(Math.min(...versions)).toBe(s.version! + 1);
    expect(Math.max(...versions)).toBe(s.version! + 100);
    expect((await get("vercel", s.id)).version).toBe(s.version! + 100);
  });
});
