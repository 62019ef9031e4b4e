import { ErrorBodySchema, UniversalAuthTokenSchema, apiPaths } from "../../sdk/schemas";
import type { Fixtures, RunningEmulator } from "../../emulator";
import {
  Api,
  FX,
  expect422,
  expectError,
  fixtures,
  sleep,
  start,
  uniq,
  expectNotMember,
  expectOtherOrg,
} from "./helpers";

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const LIST = apiPaths.appConnections("auth0");
const SYNCS = apiPaths.secretSyncs("vercel");

describe("authentication", () => {
  test("no token: 401 Token missing", async () => {
    expectError(await api.get(LIST, { token: null }), 401, "UnauthorizedError", "Token missing");
    expectError(
      await api.get(LIST, { token: null, headers: { authorization: "Basic dXNlcjpwdw==" } }),
      401,
      "UnauthorizedError",
      "Token missing",
    );
    expectError(
      await api.get(LIST, { token: null, headers: { authorization: "Bearer" } }),
      401,
      "UnauthorizedError",
      "Token missing",
    );
  });

  test("unknown token: 403 TokenError", async () => {
    expectError(await api.get(LIST, { token: "not-a-real-token" }), 403, "TokenError", /malformed/);
  });

  test("universal auth login issues a working access token", async () => {
    const res = await api.post(
      apiPaths.universalAuthLogin,
      { clientId: FX.clientId, clientSecret: FX.clientSecret },
      { token: null },
    );
    expect(res.status).toBe(200);
    const t = UniversalAuthTokenSchema.parse(res.body);
    expect(t).toMatchObject({ expiresIn: 7200, accessTokenMaxTTL: 2592000, tokenType: "Bearer" });
    expect((await api.get(LIST, { token: t.accessToken })).status).toBe(200);
    expectError(
      await api.post(apiPaths.universalAuthLogin, { clientId: FX.clientId, clientSecret: "wrong" }, { token: null }),
      401,
      "UnauthorizedError",
      "Invalid credentials",
    );
    expectError(
      await api.post(apiPaths.universalAuthLogin, { clientId: "unknown", clientSecret: "x" }, { token: null }),
      401,
      "UnauthorizedError",
      "Invalid credentials",
    );
    expect422(await api.post(apiPaths.universalAuthLogin, { clientId: FX.clientId }, { token: null }), [
      "clientSecret",
    ]);
  });

  test("an expired access token: 403 TokenError", async () => {
    const short = structuredClone(fixtures);
    short.identities[0]!.universalAuth!.accessTokenTTL = 1;
    const { emu: e2, api: a2 } = await start({ fixtures: short as Fixtures });
    try {
      const t = UniversalAuthTokenSchema.parse(
        (
          await a2.post(
            apiPaths.universalAuthLogin,
            { clientId: FX.clientId, clientSecret: FX.clientSecret },
            { token: null },
          )
        ).body,
      );
      expect(t.expiresIn).toBe(1);
      expect((await a2.get(LIST, { token: t.accessToken })).status).toBe(200);
      await sleep(1100);
      expectError(
        await a2.get(LIST, { token: t.accessToken }),
        403,
        "TokenError",
        "Your token has expired. Please re-authenticate.",
      );
      expect((await a2.get(LIST)).status).toBe(200); // static tokens do not expire
    } finally {
      await e2.stop();
    }
  });
});

describe("tenancy: 403", () => {
  test("a project the identity is not a member of", async () => {
    expectNotMember(await api.get(SYNCS, { query: { projectId: FX.restrictedProjectId } }));
  });

  test("another organization's token sees only its own organization", async () => {
    expectOtherOrg(await api.get(SYNCS, { query: { projectId: FX.projectId }, token: FX.otherOrgToken }));
    expectError(
      await api.get(`${apiPaths.appConnections("auth0")}/${FX.connection("auth0").id}`, { token: FX.otherOrgToken }),
      403,
      "PermissionDenied",
    );
    const own = await api.get(apiPaths.appConnections("auth0"), { token: FX.otherOrgToken });
    expect(own.status).toBe(200);
    expect(own.body.appConnections).toEqual([]);
    expect((await api.get(SYNCS, { query: { projectId: FX.otherOrgProjectId }, token: FX.otherOrgToken })).status).toBe(
      200,
    );
  });
});

describe("error bodies", () => {
  test("404 for an unknown route and an unknown resource", async () => {
    expectError(await api.get("/api/v1/nothing-here"), 404, "NotFound", "Route GET:/api/v1/nothing-here not found");
    expectError(await api.get(`${SYNCS}/0f0f0f0f-0000-4000-8000-00000000dead`), 404, "NotFound");
  });

  test("422: zod issues as the message", async () => {
    const res = await api.post(SYNCS, { name: "UPPER" });
    expectError(res, 422, "ValidationFailure");
    const issues = res.body.message as { code: string; path: string[]; message: string }[];
    expect(issues.length).toBeGreaterThan(3);
    for (const i of issues) {
      expect(typeof i.code).toBe("string");
      expect(Array.isArray(i.path)).toBe(true);
      expect(typeof i.message).toBe("string");
    }
    expect(issues.map((i) => i.path[0])).toEqual(
      expect.arrayContaining([
        "name",
        "projectId",
        "connectionId",
        "environment",
        "secretPath",
        "syncOptions",
        "destinationConfig",
      ]),
    );
    // query and params are validated too
    expect422(await api.get(SYNCS, { query: {} }), ["projectId"]);
    expect422(await api.get(`${SYNCS}/123`), ["syncId"]);
    // a missing body is a validation failure, not a crash
    expectError(await api.post(SYNCS), 422, "ValidationFailure");
  });

  test("400 for a body that is not JSON", async () => {
    const res = await api.post(SYNCS, "{not json");
    expectError(res, 400, "BadRequest");
  });

  test("secret values from requests never appear in errors", async () => {
    const canary = "canary-secret-value-71c2";
    const res = await api.post(apiPaths.appConnections("postgres"), {
      name: "Bad Name",
      method: "username-and-password",
      credentials: {
        host: "h",
        port: 5432,
        database: "d",
        username: "u",
        password: canary,
        sslEnabled: "yes",
        sslRejectUnauthorized: true,
      },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).not.toContain(canary);
  });
});

describe("admin: faults and request log", () => {
  afterEach(async () => {
    await api.delete("/__admin/faults");
  });

  test("status fault: count applies exactly N times, selected by method and path", async () => {
    const { body } = await api.post("/__admin/faults", {
      kind: "status",
      status: 503,
      method: "GET",
      path: "^/api/v1/app-connections/auth0$",
      count: 2,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api.get(apiPaths.appConnections("venafi"))).status).toBe(200); // other path
    expectError(await api.get(LIST), 503, "ServiceUnavailableError");
    const r = await api.get(LIST);
    expect(r.status).toBe(503);
    ErrorBodySchema.parse(r.body);
    expect((await api.get(LIST)).status).toBe(200);
    await api.post("/__admin/faults", { kind: "status", status: 500, method: "POST" });
    expect((await api.get(LIST)).status).toBe(200);
    expectError(
      await api.post(apiPaths.universalAuthLogin, { clientId: "x", clientSecret: "y" }, { token: null }),
      500,
      "InternalServerError",
      "Something went wrong",
    );
  });

  test("probability 0 never applies; 1 always", async () => {
    await api.post("/__admin/faults", { kind: "status", status: 500, probability: 0 });
    for (let i = 0; i < 5; i++) expect((await api.get(LIST)).status).toBe(200);
    await api.delete("/__admin/faults");
    await api.post("/__admin/faults", { kind: "status", status: 502, probability: 1, count: 3 });
    for (let i = 0; i < 3; i++) expect((await api.get(LIST)).status).toBe(502);
    expect((await api.get(LIST)).status).toBe(200);
  });

  test("latency fault delays the request", async () => {
    // A wide latency, so that "the next request is not delayed" holds on a loaded machine too.
    await api.post("/__admin/faults", { kind: "latency", latencyMs: 1000, count: 1 });
    const slow = await api.get(LIST);
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(990);
    const fast = await api.get(LIST);
    expect(fast.ms).toBeLessThan(500);
  });

  test("rate-limit fault: 429 with retry-after", async () => {
    await api.post("/__admin/faults", { kind: "rate-limit", retryAfterSeconds: 7, count: 1 });
    const res = await api.get(LIST);
    expectError(res, 429, "RateLimitExceeded", "Rate limit exceeded. Please try again in 7 seconds");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  test("reset fault destroys the connection", async () => {
    await api.post("/__admin/faults", { kind: "reset", count: 1, path: "auth0" });
    await expect(api.get(LIST)).rejects.toThrow();
    expect((await api.get(LIST)).status).toBe(200);
  });

  test("after-faults keep the request's effect and lose its response", async () => {
    await api.post("/__admin/faults", { kind: "reset", after: true, count: 1, method: "PATCH" });
    const conn = FX.connection("auth0").id;
    const before = (await api.get(`${LIST}/${conn}`)).body.appConnection.version;
    await expect(api.patch(`${LIST}/${conn}`, { description: "applied, response lost" })).rejects.toThrow();
    const after = (await api.get(`${LIST}/${conn}`)).body.appConnection;
    expect(after.version).toBe(before + 1);
    expect(after.description).toBe("applied, response lost");

    await api.post("/__admin/faults", { kind: "status", status: 502, after: true, count: 1, method: "PATCH" });
    expectError(await api.patch(`${LIST}/${conn}`, { description: "applied again" }), 502, "BadGatewayError");
    expect((await api.get(`${LIST}/${conn}`)).body.appConnection.description).toBe("applied again");
    expect422(await api.post("/__admin/faults", { kind: "latency", latencyMs: 1, after: true }), ["after"]);
  });

  test("fault rules are validated", async () => {
    expect422(await api.post("/__admin/faults", { kind: "status" }), ["status"]);
    expect422(await api.post("/__admin/faults", { kind: "explode" }), ["kind"]);
    expect422(await api.post("/__admin/faults", { kind: "latency", latencyMs: 5, path: "([" }), ["path"]);
    expect422(await api.post("/__admin/faults", { kind: "status", status: 500, probability: 2 }), ["probability"]);
  });

  test("request log: method, path, url, status, bucket, durationMs; resettable", async () => {
    await api.delete("/__admin/requests");
    await api.get(SYNCS, { query: { projectId: FX.projectId } });
    await api.get(LIST, { token: null });
    await api.post("/__admin/faults", { kind: "reset", count: 1 });
    await api.get(LIST).catch(() => undefined);
    await api.post(`${SYNCS}/check-destination`, {}, { token: null });
    await api.delete(`${SYNCS}/${FX.projectId}`, { token: null });
    const { requests } = (await api.get("/__admin/requests")).body;
    expect(requests).toHaveLength(5);
    expect(requests[0]).toMatchObject({
      method: "GET",
      path: SYNCS,
      url: `${SYNCS}?projectId=${FX.projectId}`,
      status: 200,
      bucket: "read",
    });
    // The duplicate-destination check is a POST the service counts as a read.
    expect(requests.slice(3).map((r: { bucket: string }) => r.bucket)).toEqual(["read", "write"]);
    expect(typeof requests[0].durationMs).toBe("number");
    expect(Date.parse(requests[0].at)).toBeGreaterThan(Date.now() - 60_000);
    expect(requests[1]).toMatchObject({ path: LIST, status: 401 });
    expect(requests[2]).toMatchObject({ path: LIST, status: 0 });
    await api.delete("/__admin/requests");
    expect((await api.get("/__admin/requests")).body.requests).toEqual([]);
  });

  test("admin routes are off unless enabled", async () => {
    const { emu: e2, api: a2 } = await start({ admin: false });
    try {
      expect((await a2.get("/__admin/requests")).status).toBe(404);
      expect((await a2.post("/__admin/faults", { kind: "status", status: 500 })).status).toBe(404);
    } finally {
      await e2.stop();
    }
  });
});

describe("rate limits", () => {
  let e2: RunningEmulator;
  let a2: Api;
  beforeAll(async () => ({ emu: e2, api: a2 } = await start({ rateLimits: { read: 3, write: 2, timeFactor: 0.01 } })));
  afterAll(() => e2.stop());

  test("read bucket: 429 with retry-after and x-ratelimit headers, then the window resets", async () => {
    await sleep(650);
    const ok = await a2.get(LIST);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-ratelimit-limit")).toBe("3");
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("2");
    expect(ok.headers.get("x-ratelimit-reset")).toBe("1");
    await a2.get(LIST);
    await a2.get(LIST);
    const limited = await a2.get(LIST);
    expectError(limited, 429, "RateLimitExceeded", /^Rate limit exceeded\. Please try again in \d+ seconds$/);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe("1");
    // writes have their own bucket
    const w = await a2.post(
      apiPaths.universalAuthLogin,
      { clientId: FX.clientId, clientSecret: FX.clientSecret },
      { token: null },
    );
    expect(w.status).toBe(200);
    expect(w.headers.get("x-ratelimit-limit")).toBe("2");
    await sleep(650);
    expect((await a2.get(LIST)).status).toBe(200);
  });

  test("write bucket: POST, PATCH and DELETE share it", async () => {
    await sleep(650);
    const c = FX.connection("auth0");
    expect((await a2.patch(`${LIST}/${c.id}`, { description: "a" })).status).toBe(200);
    expect((await a2.delete(`${LIST}/0f0f0f0f-0000-4000-8000-00000000dead`)).status).toBe(404);
    expect((await a2.post(LIST, { name: uniq("rl") })).status).toBe(429);
  });

  test("secrets bucket: every secrets route and the folder writes share it; folder reads are reads", async () => {
    await a2.put("/__admin/rate-limits", { read: 3, write: 2, secrets: 2, timeFactor: 0.01 });
    await sleep(650);
    const place = { projectId: FX.projectId, environment: "dev", secretPath: "/" };
    const list = await a2.get(apiPaths.secrets, { query: place });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-ratelimit-limit")).toBe("2");
    const folder = await a2.post(apiPaths.secretFolders, {
      projectId: FX.projectId,
      environment: "dev",
      name: uniq("rl"),
    });
    expect(folder.status).toBe(200);
    expectError(await a2.get(`${apiPaths.secrets}/ANY`, { query: place }), 429, "RateLimitExceeded");
    // Not the read bucket's nor the write bucket's.
    const folders = await a2.get(apiPaths.secretFolders, { query: { projectId: FX.projectId, environment: "dev" } });
    expect(folders.status).toBe(200);
    expect(folders.headers.get("x-ratelimit-limit")).toBe("3");
    await a2.put("/__admin/rate-limits", { read: 3, write: 2, secrets: 60, timeFactor: 0.01 });
  });

  test("admin can change or disable the limits", async () => {
    expect((await a2.put("/__admin/rate-limits", { enabled: false })).body.rateLimits.enabled).toBe(false);
    for (let i = 0; i < 10; i++) expect((await a2.get(LIST)).status).toBe(200);
    const set = await a2.put("/__admin/rate-limits", { read: 1, timeFactor: 1 });
    expect(set.body.rateLimits).toEqual({ enabled: true, read: 1, write: 2, secrets: 60, timeFactor: 1 });
    expect((await a2.get(LIST)).status).toBe(200);
    const limited = await a2.get(LIST);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(50);
    expect422(await a2.put("/__admin/rate-limits", { read: 0 }), ["read"]);
    await a2.put("/__admin/rate-limits", { read: 3, timeFactor: 0.01 });
  });

  test("the unlicensed plan's limits are the default: 60 reads, 200 writes and 40 secrets calls per minute", async () => {
    const { emu: e3, api: a3 } = await start({ rateLimits: undefined });
    try {
      const r = await a3.get(LIST);
      expect(r.headers.get("x-ratelimit-limit")).toBe("60");
      expect(r.headers.get("x-ratelimit-reset")).toBe("60");
      const w = await a3.patch(`${LIST}/${FX.connection("auth0").id}`, { description: "d" });
      expect(w.headers.get("x-ratelimit-limit")).toBe("200");
      const s = await a3.get(apiPaths.secrets, { query: { projectId: FX.projectId, environment: "dev" } });
      expect(s.headers.get("x-ratelimit-limit")).toBe("40");
    } finally {
      await e3.stop();
    }
  });
});
