import util from "node:util";
import { SecretOpsClient, SecretOpsError, type RequestInfo } from "../../sdk";
import { ids } from "./helpers/fixtures";
import { type StubServer, errorBody, startStub } from "./helpers/stub-server";

/**
 * No token, client secret or credential value may appear in an error's message, stack, JSON or
 * inspection, nor in logger output, nor in an inspection of the client. Canary values make a
 * leak visible wherever it happens.
 */

const TOKEN = "canary-TOKEN-5a0e9d";
const CLIENT_SECRET = "canary-CLIENTSECRET-b71c";
const PASSWORD = "canary-PASSWORD-3f88";
const API_TOKEN = "canary-APITOKEN-c2d4";
const CANARIES = [TOKEN, CLIENT_SECRET, PASSWORD, API_TOKEN];

let stub: StubServer;
let logged: RequestInfo[];
beforeEach(async () => {
  stub = await startStub();
  logged = [];
});
afterEach(() => stub.close());

const options = () => ({
  rateLimit: false as const,
  timeoutMs: 300,
  retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  logger: { onRequest: (i: RequestInfo) => logged.push(i) },
});

function renderings(err: unknown): string[] {
  const e = err as Error;
  return [String(e), e.message, e.stack ?? "", JSON.stringify(e), util.inspect(e, { depth: 10, showHidden: true })];
}

function expectClean(err: unknown) {
  expect(err).toBeInstanceOf(SecretOpsError);
  expect((err as Error).cause).toBeUndefined();
  for (const text of [...renderings(err), JSON.stringify(logged), util.inspect(logged, { depth: 10 })]) {
    for (const canary of CANARIES) expect(text).not.toContain(canary);
  }
}

const pgCreate = {
  name: "db",
  method: "username-and-password" as const,
  credentials: {
    host: "db",
    port: 5432,
    database: "app",
    username: "u",
    password: PASSWORD,
    sslEnabled: false,
    sslRejectUnauthorized: true,
  },
};

test("token client: the request really carries the canaries (so the checks below mean something)", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  stub.fallback({ status: 400, body: errorBody(400, "BadRequest", "Could not connect") });
  await c.appConnections.create("postgres", pgCreate).catch(() => undefined);
  expect(stub.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  expect(stub.requests[0]!.body).toContain(PASSWORD);
});

test.each([
  ["a 400", { status: 400, body: errorBody(400, "BadRequest", "Could not connect to the database") }],
  ["a 500 (ambiguous create)", { status: 500, body: errorBody(500, "InternalServerError", "Something went wrong") }],
  [
    "a 422 with issues",
    {
      status: 422,
      body: errorBody(422, "ValidationFailure", [
        { code: "custom", path: ["credentials", "host"], message: "bad host" },
      ]),
    },
  ],
  ["a non-JSON 502", { status: 502, raw: "<html>bad gateway</html>" }],
  ["a connection reset", { reset: true as const }],
  ["a timeout", { hang: true as const }],
])("token auth, create with a password: %s", async (_label, reply) => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  stub.fallback(reply);
  const err = await c.appConnections.create("postgres", pgCreate).catch((e: unknown) => e);
  expectClean(err);
  expect(logged.length).toBeGreaterThan(0);
});

test("the 422 issues are kept (path + message only)", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  stub.fallback({
    status: 422,
    body: errorBody(422, "ValidationFailure", [
      { code: "too_big", path: ["name"], message: "must be at most 64 characters", input: PASSWORD },
    ]),
  });
  const err = await c.appConnections.create("postgres", pgCreate).catch((e: unknown) => e);
  expect(err).toMatchObject({
    status: 422,
    error: "ValidationFailure",
    message: "name: must be at most 64 characters",
  });
  expect((err as { issues: unknown }).issues).toEqual([{ path: "name", message: "must be at most 64 characters" }]);
  expectClean(err);
});

test.each([
  ["login refused", { status: 401, body: errorBody(401, "UnauthorizedError", "Invalid credentials") }],
  ["login 500", { status: 500, body: errorBody(500, "InternalServerError", "Something went wrong") }],
  ["login reset", { reset: true as const }],
  ["login answers garbage", { status: 200, body: { accessToken: 42 } }],
])("universal auth: %s", async (_label, reply) => {
  const c = new SecretOpsClient(
    { baseUrl: stub.url, universalAuth: { clientId: "cid", clientSecret: CLIENT_SECRET } },
    options(),
  );
  stub.fallback(reply);
  const err = await c.secretSyncs.list("vercel", ids.project).catch((e: unknown) => e);
  expect(stub.requests[0]!.body).toContain(CLIENT_SECRET);
  expectClean(err);
});

test("an unexpected response holding secrets is reported by path only", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  stub.fallback({
    status: 200,
    body: {
      generatedCredentials: [
        { username: "u", password: PASSWORD },
        { username: 1, password: API_TOKEN },
      ],
      activeIndex: 0,
      rotationId: "r",
      type: "postgres-credentials",
    },
  });
  const err = await c.secretRotations
    .generatedCredentials("postgres-credentials", ids.rotation)
    .catch((e: unknown) => e);
  expect((err as Error).message).toBe(
    `Unexpected response from GET /api/v2/secret-rotations/postgres-credentials/${ids.rotation}/generated-credentials: generatedCredentials.1.username: expected string`,
  );
  expectClean(err);
});

test("a validation error on a secret field does not echo it", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  const err = await c.appConnections
    .create("bitbucket", {
      name: "bb",
      method: "api-token",
      credentials: { apiToken: API_TOKEN.repeat(20), email: "not-an-email" },
    })
    .catch((e: unknown) => e);
  expect((err as Error).message).toBe(
    "credentials.apiToken: must be at most 255 characters; credentials.email: must be an e-mail address",
  );
  expectClean(err);
  expect(stub.requests).toHaveLength(0);
});

test("the client object itself does not show its credentials", () => {
  const a = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  const b = new SecretOpsClient(
    { baseUrl: stub.url, universalAuth: { clientId: "cid", clientSecret: CLIENT_SECRET } },
    options(),
  );
  for (const c of [a, b]) {
    const text =
      util.inspect(c, { depth: 10, showHidden: true }) +
      JSON.stringify(c, (_k, v: unknown) => (typeof v === "function" ? "[fn]" : v));
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(CLIENT_SECRET);
  }
});

test("logger info has exactly method, path, status, durationMs, attempt (and code without a response)", async () => {
  const c = new SecretOpsClient({ baseUrl: stub.url, token: TOKEN }, options());
  stub.queue({ reset: true }, { status: 404, body: errorBody(404, "NotFound", "gone") });
  await c.secretSyncs.getByName("vercel", "web", ids.project).catch(() => undefined);
  expect(logged).toEqual([
    {
      method: "GET",
      path: "/api/v1/secret-syncs/vercel/sync-name/web",
      status: null,
      code: "ECONNRESET",
      durationMs: expect.any(Number),
      attempt: 1,
    },
    {
      method: "GET",
      path: "/api/v1/secret-syncs/vercel/sync-name/web",
      status: 404,
      durationMs: expect.any(Number),
      attempt: 2,
    },
  ]);
});
