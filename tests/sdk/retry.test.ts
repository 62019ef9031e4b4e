import {
  SecretOpsApiError,
  SecretOpsClient,
  SecretOpsNetworkError,
  backoffDelayMs,
  defaultRetryOptions,
  isAmbiguous,
  retryDelayMs,
  serverDelayMs,
  type RequestInfo,
} from "../../sdk";
import { classifyFailure, isAmbiguousFailure, shouldRetry } from "../../sdk/retry";
import { appConnection, ids, secretSync } from "./helpers/fixtures";
import { type StubServer, errorBody, startStub } from "./helpers/stub-server";

/** Retry-delay computation (pure), and the retry policy end to end against a stub server. */

describe("delay the service asks for", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");

  test("Retry-After in seconds", () => {
    expect(serverDelayMs({ "retry-after": "7" }, now)).toBe(7000);
    expect(serverDelayMs({ "Retry-After": "0" }, now)).toBe(0);
  });

  test("Retry-After as an HTTP date", () => {
    expect(serverDelayMs({ "retry-after": "Wed, 01 Jan 2025 00:00:30 GMT" }, now)).toBe(30_000);
    // A date in the past means "now".
    expect(serverDelayMs({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }, now)).toBe(0);
  });

  test("X-RateLimit-Reset when there is no Retry-After: seconds, or a Unix timestamp", () => {
    expect(serverDelayMs({ "x-ratelimit-reset": "12" }, now)).toBe(12_000);
    expect(serverDelayMs({ "x-ratelimit-reset": String(now / 1000 + 5) }, now)).toBe(5000);
    expect(serverDelayMs({ "retry-after": "2", "x-ratelimit-reset": "40" }, now)).toBe(2000);
  });

  test("nothing usable", () => {
    expect(serverDelayMs({}, now)).toBeUndefined();
    expect(serverDelayMs({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(serverDelayMs(undefined, now)).toBeUndefined();
  });
});

describe("backoff", () => {
  const opts = defaultRetryOptions;

  test("defaults: 1 s doubling to 60 s, ±25 % jitter, never outside [1 s, 60 s]", () => {
    expect(backoffDelayMs(1, opts, () => 0)).toBe(1000);
    expect(backoffDelayMs(1, opts, () => 1)).toBe(1250);
    expect(backoffDelayMs(3, opts, () => 0.5)).toBe(4000);
    expect(backoffDelayMs(3, opts, () => 0)).toBe(3000);
    expect(backoffDelayMs(3, opts, () => 1)).toBe(5000);
    expect(backoffDelayMs(10, opts, () => 1)).toBe(60_000);
    for (let n = 1; n <= 12; n++) {
      const d = backoffDelayMs(n, opts);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(60_000);
    }
  });

  test("429 uses the server's wait, 5xx backs off unless Retry-After is given", () => {
    const fixed = () => 0.5;
    expect(retryDelayMs(1, { status: 429, headers: { "retry-after": "3" } }, opts, fixed)).toBe(3000);
    expect(retryDelayMs(1, { status: 429, headers: { "x-ratelimit-reset": "9" } }, opts, fixed)).toBe(9000);
    expect(retryDelayMs(2, { status: 429, headers: {} }, opts, fixed)).toBe(2000);
    // The rate limiter stamps X-RateLimit-Reset on every response; a 503 must not wait for it.
    expect(retryDelayMs(1, { status: 503, headers: { "x-ratelimit-reset": "50" } }, opts, fixed)).toBe(1000);
    expect(retryDelayMs(1, { status: 503, headers: { "retry-after": "4" } }, opts, fixed)).toBe(4000);
    expect(retryDelayMs(2, undefined, opts, fixed)).toBe(2000);
  });
});

describe("what is repeated", () => {
  test("classification", () => {
    expect(classifyFailure(429, undefined)).toBe("refused");
    expect(classifyFailure(500, undefined)).toBe("maybe-applied");
    expect(classifyFailure(504, undefined)).toBe("maybe-applied");
    expect(classifyFailure(400, undefined)).toBe("final");
    expect(classifyFailure(404, undefined)).toBe("final");
    expect(classifyFailure(undefined, "ECONNRESET")).toBe("maybe-applied");
    expect(classifyFailure(undefined, "ETIMEDOUT")).toBe("maybe-applied");
    expect(classifyFailure(undefined, "ECONNREFUSED")).toBe("not-sent");
    expect(classifyFailure(undefined, "ERR_CANCELED")).toBe("final");
  });

  test("429 and never-sent are repeated for any method; 5xx/timeouts/resets only when idempotent", () => {
    expect(shouldRetry("refused", false)).toBe(true);
    expect(shouldRetry("not-sent", false)).toBe(true);
    expect(shouldRetry("maybe-applied", true)).toBe(true);
    expect(shouldRetry("maybe-applied", false)).toBe(false);
    expect(shouldRetry("final", true)).toBe(false);
    expect(isAmbiguousFailure("maybe-applied", false)).toBe(true);
    expect(isAmbiguousFailure("maybe-applied", true)).toBe(false);
    expect(isAmbiguousFailure("refused", false)).toBe(false);
  });
});

describe("retries against a stub server", () => {
  let stub: StubServer;
  let log: RequestInfo[];
  let client: SecretOpsClient;

  beforeEach(async () => {
    stub = await startStub();
    log = [];
    client = new SecretOpsClient(
      { baseUrl: stub.url, token: "t" },
      {
        rateLimit: false,
        timeoutMs: 300,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
        logger: { onRequest: (i) => log.push(i) },
      },
    );
  });
  afterEach(() => stub.close());

  const syncBody = {
    name: "web",
    projectId: ids.project,
    connectionId: ids.connection,
    environment: "dev",
    secretPath: "/",
    syncOptions: { initialSyncBehavior: "overwrite-destination" as const },
    destinationConfig: { app: "a", appName: "A", env: "development", teamId: "t" },
  };

  test("GET: 500 and 503 are retried, attempts are logged", async () => {
    stub.queue(
      { status: 500, body: errorBody(500, "InternalServerError", "Something went wrong") },
      { status: 503, body: errorBody(503, "ServiceUnavailable", "busy") },
      { status: 200, body: { appConnection: appConnection() } },
    );
    const c = await client.appConnections.get("postgres", ids.connection);
    expect(c.id).toBe(ids.connection);
    expect(stub.requests).toHaveLength(3);
    expect(log.map((l) => [l.attempt, l.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(
      log.every((l) => l.method === "GET" && l.path === `/api/v1/app-connections/postgres/${ids.connection}`),
    ).toBe(true);
  });

  test("at most 5 tries by default, then the last error", async () => {
    stub.fallback({ status: 502, body: errorBody(502, "BadGateway", "upstream") });
    const err = await client.secretSyncs.get("vercel", ids.sync).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err).toMatchObject({
      status: 502,
      error: "BadGateway",
      message: "upstream",
      ambiguous: false,
      method: "GET",
    });
    expect(stub.requests).toHaveLength(5);
  });

  test("maxAttempts is configurable", async () => {
    const once = new SecretOpsClient(
      { baseUrl: stub.url, token: "t" },
      { rateLimit: false, retry: { maxAttempts: 2, baseDelayMs: 1 } },
    );
    stub.fallback({ status: 500, body: errorBody(500, "InternalServerError", "x") });
    await expect(once.secretSyncs.get("vercel", ids.sync)).rejects.toMatchObject({ status: 500 });
    expect(stub.requests).toHaveLength(2);
  });

  test("retry: false sends once", async () => {
    const never = new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit: false, retry: false });
    stub.fallback({ status: 503, body: errorBody(503, "ServiceUnavailable", "x") });
    await expect(never.secretSyncs.get("vercel", ids.sync)).rejects.toMatchObject({ status: 503 });
    expect(stub.requests).toHaveLength(1);
  });

  test("4xx is final", async () => {
    stub.queue({ status: 404, body: errorBody(404, "NotFound", "Could not find Vercel Sync") });
    await expect(client.secretSyncs.get("vercel", ids.sync)).rejects.toMatchObject({
      status: 404,
      error: "NotFound",
      reqId: "req-404",
    });
    expect(stub.requests).toHaveLength(1);
  });

  test("create POST after a 500 is not repeated: ambiguous", async () => {
    stub.fallback({ status: 500, body: errorBody(500, "InternalServerError", "Something went wrong") });
    const err = await client.secretSyncs.create("vercel", syncBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err).toMatchObject({ status: 500, ambiguous: true, method: "POST", path: "/api/v1/secret-syncs/vercel" });
    expect(isAmbiguous(err)).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });

  test("create POST after a connection reset is not repeated: ambiguous network error", async () => {
    stub.fallback({ reset: true });
    const err = await client.secretSyncs.create("vercel", syncBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsNetworkError);
    expect(err).toMatchObject({ code: "ECONNRESET", ambiguous: true });
    expect(String(err)).toContain("may or may not have been applied");
    expect(stub.requests).toHaveLength(1);
    expect(log).toEqual([expect.objectContaining({ status: null, code: "ECONNRESET", attempt: 1 })]);
  });

  test("triggers (POST) are not repeated either", async () => {
    stub.fallback({ status: 503, body: errorBody(503, "ServiceUnavailable", "x") });
    await expect(client.secretSyncs.syncSecrets("vercel", ids.sync)).rejects.toMatchObject({ ambiguous: true });
    await expect(client.secretRotations.rotate("postgres-credentials", ids.sync)).rejects.toMatchObject({
      ambiguous: true,
    });
    expect(stub.requests).toHaveLength(2);
  });

  test("429 is repeated for a POST too (refused before processing), honouring Retry-After", async () => {
    stub.queue(
      {
        status: 429,
        body: errorBody(429, "RateLimitExceeded", "Rate limit exceeded. Please try again in 1 seconds"),
        headers: { "retry-after": "1" },
      },
      { status: 200, body: { secretSync: secretSync() } },
    );
    const s = await client.secretSyncs.create("vercel", syncBody);
    expect(s.id).toBe(ids.sync);
    expect(stub.requests).toHaveLength(2);
    const waited = stub.requests[1]!.at - stub.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(3000);
  });

  test("429 that never clears: a non-ambiguous 429 error after maxAttempts", async () => {
    stub.fallback({
      status: 429,
      body: errorBody(429, "RateLimitExceeded", "slow down"),
      headers: { "retry-after": "0" },
    });
    await expect(client.secretSyncs.create("vercel", syncBody)).rejects.toMatchObject({
      status: 429,
      ambiguous: false,
    });
    expect(stub.requests).toHaveLength(5);
  });

  test("PATCH and DELETE are retried after resets", async () => {
    stub.queue(
      { reset: true },
      { status: 200, body: { secretSync: secretSync() } },
      { reset: true },
      { status: 200, body: { secretSync: secretSync() } },
    );
    await client.secretSyncs.update("vercel", ids.sync, { description: "d" });
    await client.secretSyncs.delete("vercel", ids.sync);
    expect(stub.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH", "DELETE", "DELETE"]);
    // A retried PATCH sends the same body.
    expect(stub.requests[1]!.body).toBe(stub.requests[0]!.body);
  });

  test("timeouts: GET retried (per-attempt timeout), create POST ambiguous", async () => {
    stub.queue({ hang: true }, { status: 200, body: { secretSync: secretSync() } });
    await client.secretSyncs.get("vercel", ids.sync);
    expect(stub.requests).toHaveLength(2);

    stub.queue({ hang: true });
    const err = await client.secretSyncs.create("vercel", syncBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsNetworkError);
    expect(err).toMatchObject({ code: "ETIMEDOUT", ambiguous: true });
    expect(stub.requests).toHaveLength(3);
  });

  test("connection refused is repeated even for a POST, and is not ambiguous", async () => {
    const offline = new SecretOpsClient(
      { baseUrl: "http://127.0.0.1:9", token: "t" },
      {
        rateLimit: false,
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
        logger: { onRequest: (i) => log.push(i) },
      },
    );
    const err = await offline.secretSyncs.create("vercel", syncBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsNetworkError);
    expect(err).toMatchObject({ code: "ECONNREFUSED", ambiguous: false });
    expect(log.map((l) => l.attempt)).toEqual([1, 2, 3]);
  });
});
