import { AuditLogListEnvelope, apiPaths, eventTypes, type AuditLogEntry } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expect422, start, uniq, expectNotMember, type Api, type Json } from "./helpers";

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const AUDIT = apiPaths.auditLogs;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

async function insert(entries: Json[]): Promise<void> {
  const res = await api.post("/__admin/audit-logs", { entries });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body).slice(0, 500));
}

async function query(
  q: Record<string, string | number | string[] | undefined>,
  token?: string,
): Promise<AuditLogEntry[]> {
  const res = await api.get(AUDIT, { query: q, ...(token && { token }) });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return AuditLogListEnvelope.parse(res.body).auditLogs;
}

describe("the 13 filters", () => {
  // A quiet hour ten days ago holds a hand-made set of entries.
  const T0 = Math.floor((Date.now() - 10 * DAY) / HOUR) * HOUR;
  const range = { startDate: iso(T0), endDate: iso(T0 + HOUR) };
  const ids = {
    e1: "e1000000-0000-4000-8000-000000000001",
    e2: "e1000000-0000-4000-8000-000000000002",
    e3: "e1000000-0000-4000-8000-000000000003",
    e4: "e1000000-0000-4000-8000-000000000004",
    e5: "e1000000-0000-4000-8000-000000000005",
    e6: "e1000000-0000-4000-8000-000000000006",
  };
  const idsOf = (list: AuditLogEntry[]) =>
    list.map((e) => Object.entries(ids).find(([, v]) => v === e.id)?.[0] ?? e.id);

  beforeAll(() =>
    insert([
      {
        id: ids.e1,
        createdAt: iso(T0 + 1000),
        event: { type: "get-secrets", metadata: { environment: "dev", secretPath: "/app", secretKey: "DB_PASS" } },
        actor: { type: "user", metadata: { userId: "user-1", email: "a@b.c" } },
        userAgentType: "cli",
        projectId: FX.projectId,
      },
      {
        id: ids.e2,
        createdAt: iso(T0 + 2000),
        event: { type: "get-secrets", metadata: { environment: "prod", secretPath: "/", secretKey: "API" } },
        actor: { type: "identity", metadata: { identityId: FX.identityId, name: FX.identityName } },
        userAgentType: "web",
        projectId: FX.projectId,
      },
      {
        id: ids.e3,
        createdAt: iso(T0 + 3000),
        event: { type: "create-secret-sync", metadata: { syncId: "s-1", destination: "vercel" } },
        actor: { type: "identity", metadata: { identityId: FX.identityId, name: FX.identityName } },
        userAgentType: "terraform",
        projectId: FX.projectId,
      },
      {
        id: ids.e4,
        createdAt: iso(T0 + 4000),
        event: { type: "create-secret-sync", metadata: { syncId: "s-2", destination: "vercel", n: 5 } },
        actor: { type: "user", metadata: { userId: "user-2" } },
        userAgentType: "InfisicalNodeSDK",
      },
      {
        id: ids.e5,
        createdAt: iso(T0 + 5000),
        event: { type: "login-identity-universal-auth", metadata: {} },
        actor: { type: "identity", metadata: { identityId: "30000000-0000-4000-8000-0000000000ff" } },
        projectId: FX.restrictedProjectId,
      },
      {
        id: ids.e6,
        createdAt: iso(T0 + 6000),
        event: { type: "get-secrets", metadata: {} },
        orgId: FX.otherOrgId,
        projectId: FX.otherOrgProjectId,
      },
    ]),
  );

  test("no filter: the organization's entries, newest first; entry shape", async () => {
    const all = await query(range);
    expect(idsOf(all)).toEqual(["e5", "e4", "e3", "e2", "e1"]);
    expect(all[2]).toMatchObject({
      orgId: FX.orgId,
      projectId: FX.projectId,
      projectName: "Emulator Project",
      expiresAt: null,
      updatedAt: all[2]!.createdAt,
    });
    expect(idsOf(await query(range, FX.otherOrgToken))).toEqual(["e6"]);
  });

  test("projectId (member projects only)", async () => {
    expect(idsOf(await query({ ...range, projectId: FX.projectId }))).toEqual(["e3", "e2", "e1"]);
    expectNotMember(await api.get(AUDIT, { query: { ...range, projectId: FX.restrictedProjectId } }));
  });

  test("environment, secretPath and secretKey need projectId (docs/api-spec.md §4.5)", async () => {
    expect(idsOf(await query({ ...range, projectId: FX.projectId, environment: "dev" }))).toEqual(["e1"]);
    expect(idsOf(await query({ ...range, projectId: FX.projectId, secretPath: "/app/" }))).toEqual(["e1"]);
    expect(idsOf(await query({ ...range, projectId: FX.projectId, secretKey: "API" }))).toEqual(["e2"]);
    expect422(await api.get(AUDIT, { query: { ...range, environment: "dev" } }), ["environment"], "requires projectId");
    expect422(await api.get(AUDIT, { query: { ...range, secretPath: "/app" } }), ["secretPath"], "requires projectId");
    expect422(await api.get(AUDIT, { query: { ...range, secretKey: "API" } }), ["secretKey"], "requires projectId");
  });

  test("actorType and actor", async () => {
    expect(idsOf(await query({ ...range, actorType: "identity" }))).toEqual(["e5", "e3", "e2"]);
    expect(idsOf(await query({ ...range, actorType: "user" }))).toEqual(["e4", "e1"]);
    expect(idsOf(await query({ ...range, actor: "user-1" }))).toEqual(["e1"]);
    expect(idsOf(await query({ ...range, actor: "user-2", actorType: "user" }))).toEqual(["e4"]);
    expect(idsOf(await query({ ...range, actor: FX.identityId, actorType: "identity" }))).toEqual(["e3", "e2"]);
    expect422(await api.get(AUDIT, { query: { ...range, actor: FX.identityId } }), ["actorType"]);
    expect422(await api.get(AUDIT, { query: { ...range, actorType: "robot" } }), ["actorType"]);
  });

  test("eventType: one, a comma list, repeated, unknown", async () => {
    expect(idsOf(await query({ ...range, eventType: "create-secret-sync" }))).toEqual(["e4", "e3"]);
    expect(idsOf(await query({ ...range, eventType: "get-secrets,create-secret-sync" }))).toEqual([
      "e4",
      "e3",
      "e2",
      "e1",
    ]);
    expect(idsOf(await query({ ...range, eventType: ["login-identity-universal-auth", "get-secrets"] }))).toEqual([
      "e5",
      "e2",
      "e1",
    ]);
    expect(idsOf(await query({ ...range, eventType: "create-secret-sync", projectId: FX.projectId }))).toEqual(["e3"]);
    expect422(await api.get(AUDIT, { query: { ...range, eventType: "not-an-event" } }), ["eventType"]);
  });

  test("userAgentType", async () => {
    expect(idsOf(await query({ ...range, userAgentType: "cli" }))).toEqual(["e1"]);
    expect(idsOf(await query({ ...range, userAgentType: "InfisicalNodeSDK" }))).toEqual(["e4"]);
    expect422(await api.get(AUDIT, { query: { ...range, userAgentType: "browser" } }), ["userAgentType"]);
  });

  test("eventMetadata: every k=v pair must match (string compare)", async () => {
    expect(idsOf(await query({ ...range, eventMetadata: "destination=vercel" }))).toEqual(["e4", "e3"]);
    expect(idsOf(await query({ ...range, eventMetadata: "destination=vercel,syncId=s-2" }))).toEqual(["e4"]);
    // e4's n is the number 5, not the string "5"
    expect(idsOf(await query({ ...range, eventMetadata: "n=5" }))).toEqual([]);
    expect(idsOf(await query({ ...range, eventMetadata: "destination=vercel,syncId=nope" }))).toEqual([]);
    // pairs without a key or value are dropped
    expect(idsOf(await query({ ...range, eventMetadata: "destination=vercel,=x,y=" }))).toEqual(["e4", "e3"]);
  });

  test("startDate inclusive, endDate exclusive; range rules", async () => {
    expect(idsOf(await query({ startDate: iso(T0 + 3000), endDate: range.endDate }))).toEqual(["e5", "e4", "e3"]);
    expect(idsOf(await query({ startDate: range.startDate, endDate: iso(T0 + 3000) }))).toEqual(["e2", "e1"]);
    expect422(
      await api.get(AUDIT, { query: { startDate: range.endDate, endDate: range.startDate } }),
      ["endDate"],
      "End date cannot be before start date",
    );
    expect422(
      await api.get(AUDIT, { query: { startDate: iso(T0 - 100 * DAY), endDate: range.endDate } }),
      ["endDate"],
      "Dates must be within 3 months",
    );
    // Either date alone is never range-checked (the service's refine needs both).
    expect((await api.get(AUDIT, { query: { startDate: iso(Date.now() - 120 * DAY) } })).status).toBe(200);
    expect422(await api.get(AUDIT, { query: { startDate: "yesterday" } }), ["startDate"]);
    // 3 calendar months are at least 89 days.
    expect(
      (await api.get(AUDIT, { query: { startDate: iso(Date.now() - 89 * DAY), endDate: iso(Date.now()) } })).status,
    ).toBe(200);
  });

  test("offset and limit", async () => {
    expect(idsOf(await query({ ...range, offset: 1, limit: 2 }))).toEqual(["e4", "e3"]);
    expect(idsOf(await query({ ...range, offset: 5 }))).toEqual([]);
    expect((await api.get(AUDIT, { query: { ...range, limit: 1000 } })).status).toBe(200);
    expect422(await api.get(AUDIT, { query: { ...range, limit: 1001 } }), ["limit"], "must be at most 1000");
    // No minimum in the service's schema: 0 is an empty page.
    expect(await query({ ...range, limit: 0 })).toEqual([]);
    expect422(await api.get(AUDIT, { query: { ...range, limit: -1 } }), ["limit"]);
    expect422(await api.get(AUDIT, { query: { ...range, offset: -1 } }), ["offset"]);
  });
});

describe("filters compare as the service's query does (docs/service-api.md §5)", () => {
  // Another quiet hour, eleven days ago.
  const T = Math.floor((Date.now() - 11 * DAY) / HOUR) * HOUR;
  const range = { startDate: iso(T), endDate: iso(T + HOUR), projectId: FX.projectId };
  const ids = {
    one: "e2000000-0000-4000-8000-000000000001",
    bulk: "e2000000-0000-4000-8000-000000000002",
    sync: "e2000000-0000-4000-8000-000000000003",
  };
  const idsOf = (list: AuditLogEntry[]) =>
    list.map((e) => Object.entries(ids).find(([, v]) => v === e.id)?.[0] ?? e.id);
  const at = { environment: "dev", secretPath: "/app" };

  beforeAll(() =>
    insert([
      {
        id: ids.one,
        createdAt: iso(T + 1000),
        event: {
          type: "create-secret",
          metadata: { ...at, secretKey: "K1", flag: false, n: 5, text: "false", eq: "a=b" },
        },
        projectId: FX.projectId,
      },
      {
        id: ids.bulk,
        createdAt: iso(T + 2000),
        event: { type: "update-secrets", metadata: { ...at, secrets: [{ secretKey: "K2" }, { secretKey: "K3" }] } },
        projectId: FX.projectId,
      },
      {
        id: ids.sync,
        createdAt: iso(T + 3000),
        event: { type: "create-secret-sync", metadata: { ...at, secretKey: "K1" } },
        projectId: FX.projectId,
      },
    ]),
  );

  test("eventMetadata matches JSON strings only, split at the first = and untrimmed; a repeated key keeps its last value", async () => {
    expect(idsOf(await query({ ...range, eventMetadata: "text=false" }))).toEqual(["one"]);
    // a boolean false and a number 5 are not the strings "false" and "5"
    expect(idsOf(await query({ ...range, eventMetadata: "flag=false" }))).toEqual([]);
    expect(idsOf(await query({ ...range, eventMetadata: "n=5" }))).toEqual([]);
    expect(idsOf(await query({ ...range, eventMetadata: "eq=a=b" }))).toEqual(["one"]);
    expect(idsOf(await query({ ...range, eventMetadata: " text=false" }))).toEqual([]);
    expect(idsOf(await query({ ...range, eventMetadata: "text=x,text=false" }))).toEqual(["one"]);
    expect(idsOf(await query({ ...range, eventMetadata: "text=false,text=x" }))).toEqual([]);
  });

  test("secretKey also matches an entry of a bulk event's secrets", async () => {
    expect(idsOf(await query({ ...range, secretKey: "K3" }))).toEqual(["bulk"]);
    expect(idsOf(await query({ ...range, secretKey: "K1" }))).toEqual(["sync", "one"]);
  });

  test("environment, secretPath and secretKey apply only when no event type or a secret event type is asked for", async () => {
    const elsewhere = { environment: "prod", secretPath: "/other", secretKey: "NONE" };
    for (const [field, value] of Object.entries(elsewhere)) {
      expect(idsOf(await query({ ...range, [field]: value }))).toEqual([]);
      // a non-secret event type: the filter is ignored
      expect(idsOf(await query({ ...range, [field]: value, eventType: "create-secret-sync" }))).toEqual(["sync"]);
      // one secret event type among them: it applies
      expect(await query({ ...range, [field]: value, eventType: "create-secret-sync,create-secret" })).toEqual([]);
      // get-secrets is not one of the service's filterable secret events
      expect(idsOf(await query({ ...range, [field]: value, eventType: "get-secrets,create-secret-sync" }))).toEqual([
        "sync",
      ]);
    }
  });
});

test("default range: from the last UTC midnight to now", async () => {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const tag = uniq("midnight");
  await insert([
    { createdAt: iso(midnight - 1), event: { type: "get-secret", metadata: { tag, at: "before" } } },
    { createdAt: iso(midnight), event: { type: "get-secret", metadata: { tag, at: "midnight" } } },
    { createdAt: iso(Date.now() + HOUR), event: { type: "get-secret", metadata: { tag, at: "future" } } },
  ]);
  const got = await query({ eventMetadata: `tag=${tag}` });
  expect(got.map((e) => e.event.metadata.at)).toEqual(["midnight"]);
});

test("pagination: full 1000-entry pages, the exact end, no duplicates across ties", async () => {
  const T1 = Math.floor((Date.now() - 20 * DAY) / HOUR) * HOUR;
  // 2500 entries, three per millisecond at most: ties must not break paging
  const entries = Array.from({ length: 2500 }, (_, i) => ({
    createdAt: iso(T1 + Math.floor(i / 3)),
    event: { type: "get-secret-imports", metadata: { i } },
  }));
  await insert(entries);
  const q = { startDate: iso(T1), endDate: iso(T1 + HOUR), eventType: "get-secret-imports", limit: 1000 };
  const pages: AuditLogEntry[][] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await query({ ...q, offset });
    pages.push(page);
    if (page.length < 1000) break;
  }
  expect(pages.map((p) => p.length)).toEqual([1000, 1000, 500]);
  expect(await query({ ...q, offset: 2500 })).toEqual([]);
  expect((await query({ ...q, offset: 2499 })).map((e) => e.event.metadata.i)).toEqual([0]);
  const all = pages.flat();
  expect(new Set(all.map((e) => e.id)).size).toBe(2500);
  // newest first: the insertion index goes strictly down
  const order = all.map((e) => e.event.metadata.i as number);
  expect(order).toEqual(Array.from({ length: 2500 }, (_, k) => 2499 - k));
  // default page size
  expect(await query({ ...q, limit: undefined })).toHaveLength(20);
});

/** Sends a sync job trigger until it is not refused for the sync's previous job still running. */
async function whenIdle(send: () => ReturnType<Api["post"]>): ReturnType<Api["post"]> {
  for (;;) {
    const res = await send();
    if (!(res.status === 400 && JSON.stringify(res.body).includes("already in progress"))) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("served operations are audited", () => {
  const UA = "InfisicalNodeSDK/2.0 (emulator test)";
  const headers = { "user-agent": UA };
  let started: number;
  let events: AuditLogEntry[];

  beforeAll(async () => {
    started = Date.now() - 1;
    const h = { headers };
    // app connections
    const ac = apiPaths.appConnections("bitbucket");
    const fx = FX.connection("bitbucket");
    await api.get(ac, h);
    await api.get(`${ac}/${fx.id}`, h);
    await api.get(`${ac}/connection-name/${fx.name}`, h);
    const conn = (await api.post(ac, { name: uniq("audited"), method: fx.method, credentials: fx.credentials }, h)).body
      .appConnection;
    await api.patch(`${ac}/${conn.id}`, { description: "x" }, h);
    await api.delete(`${ac}/${conn.id}`, h);
    await api.get(`${ac}/0f0f0f0f-0000-4000-8000-00000000dead`, h); // fails: not audited
    // secret syncs
    const ss = apiPaths.secretSyncs("vercel");
    const sync = (
      await api.post(
        ss,
        {
          name: uniq("audited"),
          projectId: FX.projectId,
          connectionId: FX.connection("vercel").id,
          environment: "dev",
          secretPath: "/",
          isAutoSyncEnabled: false,
          syncOptions: { initialSyncBehavior: "overwrite-destination" },
          destinationConfig: { app: "a", appName: "b", env: "development", teamId: "t" },
        },
        h,
      )
    ).body.secretSync;
    await api.get(ss, { ...h, query: { projectId: FX.projectId } });
    await api.get(`${ss}/${sync.id}`, h);
    await api.get(`${ss}/sync-name/${sync.name}`, { ...h, query: { projectId: FX.projectId } });
    await api.patch(`${ss}/${sync.id}`, { description: "y" }, h);
    // A trigger while the sync's last job still runs is refused (400, no event): send it again
    // until the job is done, however slow the machine, instead of sleeping a fixed time.
    await whenIdle(() => api.post(`${ss}/${sync.id}/sync-secrets`, undefined, h));
    await whenIdle(() =>
      api.post(`${ss}/${sync.id}/import-secrets`, undefined, {
        ...h,
        query: { importBehavior: "prioritize-destination" },
      }),
    );
    await whenIdle(() => api.post(`${ss}/${sync.id}/remove-secrets`, undefined, h));
    // A plain delete is not refused while a job runs; the job then ends (emulator/jobs.ts).
    await api.delete(`${ss}/${sync.id}`, h);
    // secret rotations
    const sr = apiPaths.secretRotations("redis-credentials");
    const rot = (
      await api.post(
        sr,
        {
          name: uniq("audited"),
          projectId: FX.projectId,
          connectionId: FX.connection("redis").id,
          environment: "prod",
          secretPath: "/infra",
          rotationInterval: 3,
          parameters: { permissionScope: "~* +@all" },
          secretsMapping: { username: uniq("U").toUpperCase(), password: uniq("P").toUpperCase() },
        },
        h,
      )
    ).body.secretRotation;
    await api.get(sr, { ...h, query: { projectId: FX.projectId } });
    await api.get(`${sr}/${rot.id}`, h);
    await api.patch(`${sr}/${rot.id}`, { description: "z" }, h);
    await api.post(`${sr}/${rot.id}/rotate-secrets`, undefined, h);
    await api.get(`${sr}/${rot.id}/generated-credentials`, h);
    await api.delete(`${sr}/${rot.id}`, h);
    // certificate profiles
    const cp = apiPaths.certificateProfiles;
    const prof = (
      await api.post(
        cp,
        {
          projectId: FX.pkiProjectId,
          certificatePolicyId: FX.policyId,
          caId: FX.internalCaId,
          slug: uniq("audited"),
          enrollmentType: "api",
          apiConfig: {},
        },
        h,
      )
    ).body.certificateProfile;
    await api.get(cp, { ...h, query: { projectId: FX.pkiProjectId } });
    await api.get(`${cp}/${prof.id}`, h);
    await api.get(`${cp}/slug/${prof.slug}`, { ...h, query: { projectId: FX.pkiProjectId } });
    await api.patch(`${cp}/${prof.id}`, { description: "d" }, h);
    await api.delete(`${cp}/${prof.id}`, h);
    // universal auth
    await api.post(
      apiPaths.universalAuthLogin,
      { clientId: FX.clientId, clientSecret: FX.clientSecret },
      { ...h, token: null },
    );
    await api.post(
      apiPaths.universalAuthLogin,
      { clientId: FX.clientId, clientSecret: "wrong" },
      { ...h, token: null },
    );

    events = await query({ startDate: iso(started), endDate: iso(Date.now() + HOUR), limit: 1000 });
    events = events.filter((e) => e.userAgent === UA);
  });

  test("each operation records its event type (part 6)", () => {
    const expected = [
      "get-app-connections",
      "get-app-connection",
      "create-app-connection",
      "update-app-connection",
      "delete-app-connection",
      "create-secret-sync",
      "get-secret-syncs",
      "get-secret-sync",
      "update-secret-sync",
      "secret-sync-sync-secrets",
      "secret-sync-import-secrets",
      "secret-sync-remove-secrets",
      "delete-secret-sync",
      "create-secret-rotation",
      "get-secret-rotations",
      "get-secret-rotation",
      "update-secret-rotation",
      "secret-rotation-rotate-secrets",
      "get-secret-rotation-generated-credentials",
      "delete-secret-rotation",
      "create-certificate-profile",
      "list-certificate-profiles",
      "get-certificate-profile",
      "update-certificate-profile",
      "delete-certificate-profile",
      "login-identity-universal-auth",
      "login-identity-universal-auth-failed",
    ];
    for (const t of expected) expect(eventTypes).toContain(t);
    const types = events.map((e) => e.event.type).reverse();
    // reads by id and by name record the same event type
    const twice = new Set(["get-app-connection", "get-secret-sync", "get-certificate-profile"]);
    expect(types).toEqual(expected.flatMap((t) => (twice.has(t) ? [t, t] : [t])));
  });

  test("entries carry actor, ip, user agent, org and project", () => {
    for (const e of events) {
      expect(e).toMatchObject({
        actor: { type: "identity", metadata: { identityId: FX.identityId, name: FX.identityName } },
        ipAddress: "127.0.0.1",
        userAgent: UA,
        userAgentType: "InfisicalNodeSDK",
        orgId: FX.orgId,
        expiresAt: null,
      });
      expect(e.updatedAt).toBe(e.createdAt);
    }
    const sync = events.find((e) => e.event.type === "create-secret-sync")!;
    expect(sync).toMatchObject({ projectId: FX.projectId, projectName: "Emulator Project" });
    expect(sync.event.metadata).toMatchObject({ destination: "vercel", environment: "dev", secretPath: "/" });
    const rot = events.find((e) => e.event.type === "secret-rotation-rotate-secrets")!;
    expect(rot.event.metadata).toMatchObject({ type: "redis-credentials", environment: "prod", secretPath: "/infra" });
    const conn = events.find((e) => e.event.type === "get-app-connection")!;
    expect(conn).toMatchObject({
      projectId: null,
      projectName: null,
      event: { metadata: { app: "bitbucket", connectionId: FX.connection("bitbucket").id } },
    });
    // a generated secret never lands in audit metadata
    expect(JSON.stringify(events)).not.toMatch(/"password"\s*:/);
  });

  test("the eventMetadata filter finds an entity's events", async () => {
    const created = events.find((e) => e.event.type === "create-secret-rotation")!;
    const id = created.event.metadata.rotationId as string;
    const found = await query({
      startDate: iso(started),
      endDate: iso(Date.now() + HOUR),
      eventMetadata: `rotationId=${id}`,
    });
    expect(found.map((e) => e.event.type).reverse()).toEqual([
      "create-secret-rotation",
      "get-secret-rotation",
      "update-secret-rotation",
      "secret-rotation-rotate-secrets",
      "get-secret-rotation-generated-credentials",
      "delete-secret-rotation",
    ]);
  });
});

test("userAgentType is derived from the User-Agent header", async () => {
  const cases: [string, string][] = [
    ["Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0", "web"],
    ["cli", "cli"],
    ["k8-operator", "k8-operator"],
    ["terraform", "terraform"],
    ["InfisicalPythonSDK/1.0.3", "InfisicalPythonSDK"],
    ["my-app InfisicalNodeSDK", "InfisicalNodeSDK"],
    ["curl/8.0", "other"],
    ["cli/0.1", "other"],
  ];
  const t0 = Date.now() - 1;
  for (const [ua] of cases) await api.get(apiPaths.appConnections("venafi"), { headers: { "user-agent": ua } });
  const got = await query({
    startDate: iso(t0),
    endDate: iso(Date.now() + HOUR),
    eventType: "get-app-connections",
    limit: 100,
  });
  for (const [ua, type] of cases) expect(got.find((e) => e.userAgent === ua)?.userAgentType).toBe(type);
});

// Correctness at full scale; the latency target is measured by `npm run bench:emulator`, not here.
test("full filtered 1000-entry pages out of 100,000 entries: all of the type, newest first, disjoint", async () => {
  const types = [
    "get-secrets",
    "get-secret",
    "create-secret",
    "update-secret",
    "delete-secret",
    "get-secret-syncs",
    "get-secret-sync",
    "create-secret-sync",
    "update-secret-sync",
    "delete-secret-sync",
  ];
  const now = Date.now();
  const span = 30 * DAY;
  for (let chunk = 0; chunk < 4; chunk++) {
    await insert(
      Array.from({ length: 25_000 }, (_, k) => {
        const i = chunk * 25_000 + k;
        return {
          createdAt: iso(now - span + Math.floor((i * span) / 100_000)),
          event: { type: types[i % types.length], metadata: { i } },
          projectId: i % 2 ? FX.projectId : null,
        };
      }),
    );
  }
  const q = { startDate: iso(now - span - DAY), endDate: iso(now + DAY), eventType: "update-secret", limit: 1000 };
  const seen = new Set<string>();
  let previous = Infinity;
  for (let page = 0; page < 5; page++) {
    const res = await api.get(AUDIT, { query: { ...q, offset: page * 1000 } });
    expect(res.status).toBe(200);
    const entries = res.body.auditLogs as AuditLogEntry[];
    expect(entries).toHaveLength(1000);
    for (const e of entries) {
      expect(e.event.type).toBe("update-secret");
      expect(Date.parse(e.createdAt)).toBeLessThanOrEqual(previous);
      previous = Date.parse(e.createdAt);
      expect(seen.has(e.id)).toBe(false);
      seen.add(e.id);
    }
  }
  // 10,000 of the 100,000 entries have this type: pages 0-4 are the newest half of them.
  expect(seen.size).toBe(5000);
}, 60_000);
