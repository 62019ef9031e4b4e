import { SecretOpsApiError, SecretOpsClient, SecretOpsError } from "../../sdk";
import { UniversalAuthSession } from "../../sdk/auth";
import { appConnection, ids, loginToken } from "./helpers/fixtures";
import { type Recorded, type StubServer, errorBody, startStub } from "./helpers/stub-server";

/** Token auth and universal-auth login: caching, renewal before expiry, renewal after rejection. */

const LOGIN = "/api/v1/auth/universal-auth/login";
const conn = { status: 200, body: { appConnection: appConnection() } };
const bearer = (r: Recorded) => r.headers.authorization;

let stub: StubServer;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(() => stub.close());

function uaClient(extra: ConstructorParameters<typeof SecretOpsClient>[1] = {}) {
  return new SecretOpsClient(
    { baseUrl: stub.url, universalAuth: { clientId: "cid", clientSecret: "csecret" } },
    { rateLimit: false, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...extra },
  );
}

test("token auth sends the bearer token; no login", async () => {
  const c = new SecretOpsClient({ baseUrl: `${stub.url}/`, token: "tok-1" }, { rateLimit: false });
  stub.queue(conn);
  await c.appConnections.get("postgres", ids.connection);
  expect(stub.requests.map((r) => [r.path, bearer(r)])).toEqual([
    [`/api/v1/app-connections/postgres/${ids.connection}`, "Bearer tok-1"],
  ]);
  await expect(c.login()).rejects.toBeInstanceOf(SecretOpsError);
});

test("token auth: a 401 is final (nothing to renew)", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: "tok-1" }, { rateLimit: false });
  stub.fallback({ status: 401, body: errorBody(401, "UnauthorizedError", "Token missing") });
  await expect(c.appConnections.get("postgres", ids.connection)).rejects.toMatchObject({
    status: 401,
    message: "Token missing",
  });
  expect(stub.requests).toHaveLength(1);
});

test("universal auth: one login (body, no bearer), shared by concurrent calls, token cached", async () => {
  const c = uaClient();
  stub.fallback((r) => (r.path === LOGIN ? { status: 200, body: loginToken("ua-1") } : conn));
  await Promise.all([1, 2, 3].map(() => c.appConnections.get("postgres", ids.connection)));
  await c.appConnections.get("postgres", ids.connection);
  const logins = stub.requests.filter((r) => r.path === LOGIN);
  expect(logins).toHaveLength(1);
  expect(JSON.parse(logins[0]!.body)).toEqual({ clientId: "cid", clientSecret: "csecret" });
  expect(bearer(logins[0]!)).toBeUndefined();
  expect(stub.requests.filter((r) => r.path !== LOGIN).map(bearer)).toEqual(Array(4).fill("Bearer ua-1"));
});

test("login() logs in eagerly and never returns the token", async () => {
  const c = uaClient();
  stub.queue({ status: 200, body: loginToken("ua-secret", 100) });
  const info = await c.login();
  expect(info).toMatchObject({ expiresIn: 100, accessTokenMaxTTL: 7200, tokenType: "Bearer" });
  expect(info.renewAt.getTime()).toBeGreaterThan(Date.now() + 70_000);
  expect(JSON.stringify(info)).not.toContain("ua-secret");
});

test("renewed once 80 % of expiresIn has passed", async () => {
  const c = uaClient();
  let n = 0;
  stub.fallback((r) => (r.path === LOGIN ? { status: 200, body: loginToken(`ua-${++n}`, 1) } : conn));
  await c.appConnections.get("postgres", ids.connection);
  await new Promise((r) => setTimeout(r, 500));
  await c.appConnections.get("postgres", ids.connection); // 0.5 s < 0.8 s: same token
  await new Promise((r) => setTimeout(r, 400));
  await c.appConnections.get("postgres", ids.connection); // 0.9 s: renewed first
  expect(stub.requests.filter((r) => r.path !== LOGIN).map(bearer)).toEqual([
    "Bearer ua-1",
    "Bearer ua-1",
    "Bearer ua-2",
  ]);
});

test("session renewal timing with an injected clock", async () => {
  let now = 0;
  let n = 0;
  const s = new UniversalAuthSession(
    async () => loginToken(`t${++n}`, 100),
    0.8,
    () => now,
  );
  expect(await s.token()).toBe("t1");
  now = 79_999;
  expect(await s.token()).toBe("t1");
  now = 80_000;
  expect(await s.token()).toBe("t2");
  // A rejection of an older token does not throw away the current one.
  s.rejected("t1");
  expect(await s.token()).toBe("t2");
  s.rejected("t2");
  expect(await s.token()).toBe("t3");
});

test.each([
  ["401", 401, "UnauthorizedError"],
  ["403 TokenError", 403, "TokenError"],
])("after a %s the token is renewed once and the request repeated once", async (_l, status, error) => {
  const c = uaClient();
  let n = 0;
  let rejected = false;
  stub.fallback((r) => {
    if (r.path === LOGIN) return { status: 200, body: loginToken(`ua-${++n}`) };
    if (!rejected) {
      rejected = true;
      return { status, body: errorBody(status, error, "Your token has expired. Please re-authenticate.") };
    }
    return conn;
  });
  // A POST: the rejected request was never processed, so repeating it is safe.
  await c.appConnections.create("auth0", {
    name: "a0",
    method: "client-credentials",
    credentials: { domain: "d", clientId: "c", clientSecret: "s", audience: "https://api" },
  });
  expect(stub.requests.map((r) => [r.method, r.path === LOGIN ? "login" : "api", bearer(r)])).toEqual([
    ["POST", "login", undefined],
    ["POST", "api", "Bearer ua-1"],
    ["POST", "login", undefined],
    ["POST", "api", "Bearer ua-2"],
  ]);
});

test("a second rejection is final", async () => {
  const c = uaClient();
  stub.fallback((r) =>
    r.path === LOGIN
      ? { status: 200, body: loginToken("ua") }
      : { status: 401, body: errorBody(401, "UnauthorizedError", "nope") },
  );
  await expect(c.appConnections.get("postgres", ids.connection)).rejects.toMatchObject({ status: 401 });
  expect(stub.requests.map((r) => (r.path === LOGIN ? "login" : "api"))).toEqual(["login", "api", "login", "api"]);
});

test("a 403 that is a permission problem does not trigger a renewal", async () => {
  const c = uaClient();
  stub.fallback((r) =>
    r.path === LOGIN
      ? { status: 200, body: loginToken("ua") }
      : { status: 403, body: errorBody(403, "PermissionDenied", "You are not allowed to read on SecretSyncs") },
  );
  const err = await c.secretSyncs.list("vercel", ids.project).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SecretOpsApiError);
  expect(err).toMatchObject({ status: 403, error: "PermissionDenied" });
  expect(stub.requests).toHaveLength(2);
});

test("a failed login surfaces as an API error of the login route", async () => {
  const c = uaClient();
  stub.fallback({ status: 401, body: errorBody(401, "UnauthorizedError", "Invalid credentials") });
  await expect(c.appConnections.get("postgres", ids.connection)).rejects.toMatchObject({
    status: 401,
    method: "POST",
    path: LOGIN,
    message: "Invalid credentials",
  });
  expect(stub.requests).toHaveLength(1);
});
