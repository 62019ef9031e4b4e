import {
  apiPaths,
  appConnectionKinds,
  appConnectionOperations,
  knownSyncDestinations,
  rotationTypes,
  secretRotationOperations,
  secretSyncOperations,
  type Operation,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { Api, expectError, FX, start } from "./helpers";

/**
 * The kind routes are one parametric route per operation (emulator/route-registration.ts
 * `routeKindOperations`), built from the first row of each kind table: every row must have the
 * same operations, and an unknown slug must answer as an unregistered path.
 */

const families = {
  "secret syncs": knownSyncDestinations.map((d) => [apiPaths.secretSyncs(d.destination), secretSyncOperations(d)]),
  "secret rotations": Object.values(rotationTypes).map((t) => [
    apiPaths.secretRotations(t.type),
    secretRotationOperations(t),
  ]),
  "app connections": Object.values(appConnectionKinds).map((k) => [
    apiPaths.appConnections(k.app),
    appConnectionOperations(k),
  ]),
} as Record<string, [string, Record<string, Operation>][]>;

const shape = (base: string, ops: Record<string, Operation>) =>
  Object.entries(ops).map(([name, op]) => ({
    name,
    method: op.method,
    path: op.path.startsWith(base) ? op.path.slice(base.length) : `not under ${base}: ${op.path}`,
    bucket: op.bucket,
  }));

describe.each(Object.keys(families))("%s", (family) => {
  test("every row has the first row's operations (names, methods, paths, buckets)", () => {
    const rows = families[family]!;
    const first = shape(...rows[0]!);
    for (const row of rows) expect(shape(...row)).toEqual(first);
  });
});

describe("unknown kind slugs", () => {
  let emu: RunningEmulator;
  let api: Api;
  beforeAll(async () => ({ emu, api } = await start({ rateLimits: { read: 50, write: 40, timeFactor: 1 } })));
  afterAll(() => emu.stop());

  test.each([
    ["GET", "/api/v1/secret-syncs/nope"],
    ["GET", "/api/v1/secret-syncs/nope/sync-name/x"],
    ["POST", "/api/v1/secret-syncs/nope/check-destination"],
    ["PATCH", "/api/v2/secret-rotations/nope/00000000-0000-4000-8000-000000000000"],
    ["DELETE", "/api/v1/app-connections/nope/00000000-0000-4000-8000-000000000000"],
  ])("%s %s: the unregistered route's 404, in the method's bucket", async (method, path) => {
    const res = await api.request(method, path, method === "POST" || method === "PATCH" ? { body: {} } : {});
    expectError(res, 404, "NotFound", `Route ${method}:${path} not found`);
    // The duplicate-destination check counts as a read only for a known destination.
    expect(res.headers.get("x-ratelimit-limit")).toBe(method === "GET" ? "50" : "40");
  });

  test("a known slug still validates with its kind's schemas, and static routes keep priority", async () => {
    const check = await api.post("/api/v1/secret-syncs/vercel/check-destination", {});
    expect(check.status).toBe(422);
    expect(check.headers.get("x-ratelimit-limit")).toBe("50");
    // …and the request log records it in the bucket it was counted in, whatever its validation did.
    const valid = await api.post("/api/v1/secret-syncs/vercel/check-destination", {
      destinationConfig: { app: "prj_logged", appName: "logged", env: "production", teamId: "team_1" },
      connectionId: FX.connection("vercel").id,
      projectId: FX.projectId,
    });
    expect(valid.status).toBe(200);
    const logged = ((await api.get("/__admin/requests")).body.requests as { path: string; bucket: string }[]).filter(
      (r) => r.path === "/api/v1/secret-syncs/vercel/check-destination",
    );
    expect(logged.map((r) => r.bucket)).toEqual(["read", "read"]);
    expect((await api.get("/api/v1/secret-syncs/options")).status).toBe(200);
    expect((await api.get("/api/v2/secret-rotations/options")).status).toBe(200);
    const aws = await api.get(apiPaths.appConnections("aws"));
    expect(aws.status).toBe(200);
    expect(aws.body.appConnections.map((c: { id: string }) => c.id)).toContain(FX.connection("aws").id);
  });
});
