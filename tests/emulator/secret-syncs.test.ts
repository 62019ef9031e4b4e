import {
  AuditLogListEnvelope,
  SecretSyncEnvelope,
  SecretSyncListEnvelope,
  apiPaths,
  syncDestinations,
  knownSyncDestinations,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { LOCKED, syncObjects } from "./objects";
import {
  FX,
  expect422,
  expectError,
  expectIncreasing,
  start,
  uniq,
  waitFor,
  withClockStopped,
  expectNotMember,
  expectOtherOrg,
  type Api,
} from "./helpers";

/**
 * Secret syncs over HTTP: listing every destination in one call, failing jobs, the field rules and
 * the service's rules, on a few destinations. Each destination's own lifecycle:
 * tests/kinds/secret-syncs.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start({ syncJobDelayMs: 50 })));
afterAll(() => emu.stop());

const destinations = knownSyncDestinations;
const { base, syncBody, createSync, get, settled } = syncObjects(() => api);

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
  expectNotMember(await api.get(apiPaths.allSecretSyncs, { query: { projectId: FX.restrictedProjectId } }));
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
    expectNotMember(await post({ projectId: FX.restrictedProjectId }));
    expectNotMember(await api.get(base("vercel"), { query: { projectId: FX.restrictedProjectId } }));
    expectOtherOrg(await post({ projectId: FX.otherOrgProjectId }));
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

test("import on a destination that cannot import is refused before the sync is looked up, as the service does", async () => {
  // github cannot import: an unknown sync id gets the 400 first (docs/service-api.md §2), not a 404.
  expect(syncDestinations.github.canImport).toBe(false);
  const unknown = "00000000-0000-4000-8000-0000000000ff";
  expectError(
    await api.post(`${base("github")}/${unknown}/import-secrets`, undefined, {
      query: { importBehavior: "prioritize-source" },
    }),
    400,
    "BadRequest",
    "GitHub does not support importing secrets.",
  );
  // One that can import looks the sync up: 404.
  expect(syncDestinations.vercel.canImport).toBe(true);
  expectError(
    await api.post(`${base("vercel")}/${unknown}/import-secrets`, undefined, {
      query: { importBehavior: "prioritize-source" },
    }),
    404,
    "NotFound",
  );
});
