import {
  type RequestInfo,
  SecretOpsApiError,
  SecretOpsClient,
  SecretOpsNetworkError,
  isAmbiguous,
  resetSharedLimiters,
} from "../../sdk";
import { type TestEmulator, fixturesWithTokenTtl, startTestEmulator, universalAuth } from "./helpers/emulator";

/**
 * Contract tests of the failure handling against the emulator: retries on injected 500/503/429/
 * reset faults, ambiguous creates that are not repeated, client-side throttling against the
 * emulator's rate limits (scaled by timeFactor), and universal-auth login and token renewal.
 */

const SYNCS = "/api/v1/secret-syncs/vercel";
const LOGIN = "/api/v1/auth/universal-auth/login";

describe("against the default emulator", () => {
  let t: TestEmulator;
  let projectId: string;
  let vercelConnection: string;
  let log: RequestInfo[];
  let client: SecretOpsClient;

  beforeAll(async () => {
    t = await startTestEmulator();
    projectId = t.emu.summary.projects[0]!.id;
    vercelConnection = t.emu.summary.connections.find((c) => c.app === "vercel" && c.projectId === null)!.id;
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    log = [];
    client = new SecretOpsClient(
      { baseUrl: t.url, token: t.token },
      {
        rateLimit: false,
        timeoutMs: 1000,
        retry: { baseDelayMs: 20, maxDelayMs: 100 },
        logger: { onRequest: (i) => log.push(i) },
      },
    );
    await t.admin.clearFaults();
    await t.admin.setRateLimits({ enabled: false });
    await t.admin.clearRequests();
  });

  const syncBody = (name: string) => ({
    name,
    projectId,
    connectionId: vercelConnection,
    environment: "dev",
    secretPath: "/",
    syncOptions: { initialSyncBehavior: "overwrite-destination" as const },
    destinationConfig: { app: "prj", appName: "web", env: "preview", teamId: "team" },
  });
  const statuses = async (method: string, path: string | RegExp) =>
    (await t.admin.requests())
      .filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)))
      .map((r) => r.status);

  describe("retries", () => {
    test.each([
      ["500", { kind: "status", status: 500 } as const, 500],
      ["503", { kind: "status", status: 503 } as const, 503],
      ["reset", { kind: "reset" } as const, 0],
    ])("GET after %s (twice) succeeds on the third try", async (_l, fault, logged) => {
      await t.admin.addFault({ method: "GET", path: `^${SYNCS}$`, count: 2, ...fault });
      expect(await client.secretSyncs.list("vercel", projectId)).toEqual(expect.any(Array));
      expect(await statuses("GET", SYNCS)).toEqual([logged, logged, 200]);
      expect(log.map((l) => l.attempt)).toEqual([1, 2, 3]);
    });

    test("PATCH and DELETE after a reset are retried", async () => {
      const s = await client.secretSyncs.create("vercel", syncBody("resilience-patch"));
      await t.admin.addFault({ method: "PATCH", kind: "reset", count: 1 });
      await t.admin.addFault({ method: "DELETE", kind: "status", status: 503, count: 1 });
      expect((await client.secretSyncs.update("vercel", s.id, { description: "x" })).description).toBe("x");
      await client.secretSyncs.delete("vercel", s.id);
      expect(await statuses("PATCH", /./)).toEqual([0, 200]);
      expect(await statuses("DELETE", /./)).toEqual([503, 200]);
    });

    test("a GET that times out is retried (per-attempt timeout)", async () => {
      await t.admin.addFault({ method: "GET", path: `^${SYNCS}$`, kind: "latency", latencyMs: 1500, count: 1 });
      await client.secretSyncs.list("vercel", projectId);
      expect(log.map((l) => [l.attempt, l.status, l.code])).toEqual([
        [1, null, "ETIMEDOUT"],
        [2, 200, undefined],
      ]);
    });

    test("429 on a create is retried after Retry-After (refused before processing): one sync", async () => {
      await t.admin.addFault({
        method: "POST",
        path: `^${SYNCS}$`,
        kind: "rate-limit",
        retryAfterSeconds: 1,
        count: 1,
      });
      const started = Date.now();
      const s = await client.secretSyncs.create("vercel", syncBody("resilience-429"));
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(await statuses("POST", SYNCS)).toEqual([429, 200]);
      expect((await client.secretSyncs.list("vercel", projectId)).filter((x) => x.name === s.name)).toHaveLength(1);
    });
  });

  describe("ambiguous creates are not repeated", () => {
    test.each([
      ["500", { kind: "status", status: 500 } as const, SecretOpsApiError],
      ["503", { kind: "status", status: 503 } as const, SecretOpsApiError],
      ["reset", { kind: "reset" } as const, SecretOpsNetworkError],
    ])("create answered with %s: one POST, ambiguous, resolved by getByName", async (label, fault, errorClass) => {
      const name = `resilience-ambiguous-${label}`;
      await t.admin.addFault({ method: "POST", path: `^${SYNCS}$`, count: 1, ...fault });
      const err = await client.secretSyncs.create("vercel", syncBody(name)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(errorClass);
      expect(isAmbiguous(err)).toBe(true);
      expect(await statuses("POST", SYNCS)).toHaveLength(1);
      // The caller's resolution: look it up by name. Here the fault answered before the handler ran.
      await expect(client.secretSyncs.getByName("vercel", name, projectId)).rejects.toMatchObject({ status: 404 });
      expect((await client.secretSyncs.create("vercel", syncBody(name))).name).toBe(name);
    });

    test("a trigger answered with 500 is not repeated either", async () => {
      const s = await client.secretSyncs.create("vercel", {
        ...syncBody("resilience-trigger"),
        isAutoSyncEnabled: false,
      });
      await t.admin.addFault({ method: "POST", path: "/sync-secrets$", kind: "status", status: 500, count: 1 });
      await expect(client.secretSyncs.syncSecrets("vercel", s.id)).rejects.toMatchObject({
        status: 500,
        ambiguous: true,
      });
      expect(await statuses("POST", /\/sync-secrets$/)).toEqual([500]);
    });
  });

  describe("throttling against the emulator's rate limits", () => {
    // 5 reads per window; timeFactor 0.02 scales the service's 60 s window to 1.2 s.
    const limits = { read: 5, write: 5, timeFactor: 0.02 };
    const windowMs = 60_000 * limits.timeFactor;

    test("without client-side throttling a burst runs into 429s (the limit is real)", async () => {
      await t.admin.setRateLimits(limits);
      const raw = new SecretOpsClient({ baseUrl: t.url, token: t.token }, { rateLimit: false, retry: false });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => raw.secretSyncs.list("vercel", projectId)),
      );
      const rejected = results
        .filter((r) => r.status === "rejected")
        .map((r) => (r as PromiseRejectedResult).reason as SecretOpsApiError);
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected.every((e) => e.status === 429)).toBe(true);
    });

    test("with the same limits on the client, a burst of 12 reads never sees a 429", async () => {
      await t.admin.setRateLimits(limits);
      resetSharedLimiters();
      // No retries: a single 429 would fail the test.
      const throttled = new SecretOpsClient(
        { baseUrl: t.url, token: t.token },
        { rateLimit: { readsPerMinute: limits.read, writesPerMinute: limits.write, windowMs }, retry: false },
      );
      const started = Date.now();
      await Promise.all(Array.from({ length: 12 }, () => throttled.secretSyncs.list("vercel", projectId)));
      expect(Date.now() - started).toBeGreaterThanOrEqual(2 * windowMs);
      expect(await statuses("GET", SYNCS)).toEqual(Array(12).fill(200));
    });

    test("two clients share the budget", async () => {
      await t.admin.setRateLimits(limits);
      resetSharedLimiters();
      const make = () =>
        new SecretOpsClient(
          { baseUrl: t.url, token: t.token },
          { rateLimit: { readsPerMinute: limits.read, writesPerMinute: limits.write, windowMs }, retry: false },
        );
      const [a, b] = [make(), make()];
      await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).secretSyncs.list("vercel", projectId)));
      expect(await statuses("GET", SYNCS)).toEqual(Array(8).fill(200));
    });

    test("without throttling, the 429s are absorbed by retries that honour Retry-After", async () => {
      await t.admin.setRateLimits(limits);
      const retrying = new SecretOpsClient(
        { baseUrl: t.url, token: t.token },
        { rateLimit: false, retry: { baseDelayMs: 50 } },
      );
      await Promise.all(Array.from({ length: 8 }, () => retrying.secretSyncs.list("vercel", projectId)));
      const seen = await statuses("GET", SYNCS);
      expect(seen.filter((s) => s === 200)).toHaveLength(8);
      expect(seen).toContain(429);
    });
  });
});

describe("universal auth", () => {
  let t: TestEmulator;
  beforeAll(async () => {
    // Access tokens live 2 s here, so renewal can be observed.
    t = await startTestEmulator({ fixtures: fixturesWithTokenTtl(2) });
  });
  afterAll(() => t.stop());
  beforeEach(() => t.admin.clearRequests());

  const paths = async () =>
    (await t.admin.requests()).map((r) => `${r.path === LOGIN ? "login" : r.method} ${r.status}`);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  test("login once, then the token is used; login() reports the lifetime", async () => {
    const c = new SecretOpsClient({ baseUrl: t.url, universalAuth }, { rateLimit: false });
    expect(await c.login()).toMatchObject({ expiresIn: 2, tokenType: "Bearer" });
    await c.appConnections.list("postgres");
    await c.secretSyncs.list("vercel", t.emu.summary.projects[0]!.id);
    expect(await paths()).toEqual(["login 200", "GET 200", "GET 200"]);
  });

  test("renewed before expiry (80 % of expiresIn): no request is rejected", async () => {
    const c = new SecretOpsClient({ baseUrl: t.url, universalAuth }, { rateLimit: false });
    await c.appConnections.list("postgres");
    await sleep(1700); // past 1.6 s, before the 2 s expiry
    await c.appConnections.list("postgres");
    expect(await paths()).toEqual(["login 200", "GET 200", "login 200", "GET 200"]);
  });

  test("an expired token (403 TokenError) is renewed once and the request repeated", async () => {
    // Renewal pushed past expiry, so the service rejects the stale token.
    const c = new SecretOpsClient({ baseUrl: t.url, universalAuth }, { rateLimit: false, tokenRenewAtFraction: 10 });
    await c.appConnections.list("postgres");
    await sleep(2100);
    await c.appConnections.list("postgres");
    expect(await paths()).toEqual(["login 200", "GET 200", "GET 403", "login 200", "GET 200"]);
  });

  test("wrong credentials: 401 from the login route", async () => {
    const c = new SecretOpsClient(
      { baseUrl: t.url, universalAuth: { ...universalAuth, clientSecret: "wrong" } },
      { rateLimit: false },
    );
    await expect(c.appConnections.list("postgres")).rejects.toMatchObject({
      status: 401,
      path: LOGIN,
      message: "Invalid credentials",
    });
    expect(await paths()).toEqual(["login 401"]);
  });
});
