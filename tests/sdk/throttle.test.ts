import { SecretOpsClient, resetSharedLimiters } from "../../sdk";
import { EmulatorAdmin, type RunningEmulator, startEmulator } from "../../emulator";
import { SlidingWindowLimiter, safeWindowMs, sharedLimiter } from "../../sdk/throttle";
import { appConnection, ids } from "./helpers/fixtures";
import { type StubServer, startStub } from "./helpers/stub-server";

/** Client-side throttling: a sliding window per (baseUrl, bucket), shared by every client. */

describe("SlidingWindowLimiter (fake timers)", () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  async function settle() {
    // Let resolved acquisitions run their continuations.
    for (let i = 0; i < 100; i++) await Promise.resolve();
  }

  /** A request admitted and answered at once. */
  async function quick(limiter: SlidingWindowLimiter, limit: number, windowMs: number) {
    limiter.answered(undefined, await limiter.acquire(limit, windowMs));
  }

  test("a burst of `limit` passes, the rest waits for the window, first come first served", async () => {
    const limiter = new SlidingWindowLimiter(() => Date.now());
    const admitted: number[] = [];
    const all = [0, 1, 2, 3, 4].map((i) =>
      limiter.acquire(3, 1000).then((slot) => {
        limiter.answered(undefined, slot);
        admitted.push(i);
      }),
    );
    await settle();
    expect(admitted).toEqual([0, 1, 2]);
    await jest.advanceTimersByTimeAsync(999);
    expect(admitted).toEqual([0, 1, 2]);
    await jest.advanceTimersByTimeAsync(1);
    await Promise.all(all);
    expect(admitted).toEqual([0, 1, 2, 3, 4]);
    expect(Date.now()).toBe(1000);
  });

  test("the window slides: a slot frees when the oldest request in it turns windowMs old", async () => {
    const limiter = new SlidingWindowLimiter(() => Date.now());
    await quick(limiter, 3, 1000); // t=0
    await jest.advanceTimersByTimeAsync(500);
    await quick(limiter, 3, 1000); // t=500
    await jest.advanceTimersByTimeAsync(100);
    await quick(limiter, 3, 1000); // t=600
    await jest.advanceTimersByTimeAsync(100);
    const times: number[] = [];
    const fourth = quick(limiter, 3, 1000).then(() => times.push(Date.now()));
    const fifth = quick(limiter, 3, 1000).then(() => times.push(Date.now()));
    await jest.advanceTimersByTimeAsync(800); // t=1500
    await Promise.all([fourth, fifth]);
    expect(times).toEqual([1000, 1500]);
    expect(limiter.inWindow(1000)).toBe(3); // t=1500: the requests of 600, 1000 and 1500
  });

  test("callers with different limits share one history", async () => {
    const limiter = new SlidingWindowLimiter(() => Date.now());
    await quick(limiter, 5, 1000);
    await quick(limiter, 5, 1000);
    const done: string[] = [];
    const strict = quick(limiter, 2, 1000).then(() => done.push("strict"));
    // Admission is first come, first served: a lenient caller behind a waiting one waits too.
    const lenient = quick(limiter, 5, 1000).then(() => done.push("lenient"));
    await settle();
    expect(done).toEqual([]); // two already started in this window
    await jest.advanceTimersByTimeAsync(1000);
    await Promise.all([strict, lenient]);
    expect(done).toEqual(["strict", "lenient"]);
  });

  test("a request holds its slot until a window after its answer, however late the answer", async () => {
    // The service counts a request somewhere between its start and its answer: a slow answer
    // (a loaded machine, a slow network) must not let the next window's requests start early.
    const limiter = new SlidingWindowLimiter(() => Date.now());
    const first = await limiter.acquire(1, 1000); // t=0
    const times: number[] = [];
    const second = quick(limiter, 1, 1000).then(() => times.push(Date.now()));
    await jest.advanceTimersByTimeAsync(1500);
    expect(times).toEqual([]); // in flight for 1.5 s: its arrival may be as late as t=1500
    limiter.answered(undefined, first);
    await jest.advanceTimersByTimeAsync(999);
    expect(times).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await second;
    expect(times).toEqual([2500]);
  });

  test("an answer wakes a waiting request at once when its window has passed", async () => {
    const limiter = new SlidingWindowLimiter(() => Date.now());
    const first = await limiter.acquire(1, 100); // t=0
    const times: number[] = [];
    const second = quick(limiter, 1, 100).then(() => times.push(Date.now()));
    await jest.advanceTimersByTimeAsync(250);
    limiter.answered(undefined, first); // t=250: frees at 350, not at the next one-second look
    await jest.advanceTimersByTimeAsync(100);
    await second;
    expect(times).toEqual([350]);
  });

  test("the registry keys by base URL (ignoring a trailing slash) and bucket", () => {
    resetSharedLimiters();
    expect(sharedLimiter("http://a", "read")).toBe(sharedLimiter("http://a/", "read"));
    expect(sharedLimiter("http://a", "read")).not.toBe(sharedLimiter("http://a", "write"));
    expect(sharedLimiter("http://a", "read")).not.toBe(sharedLimiter("http://b", "read"));
  });
});

describe("throttling real requests (short window)", () => {
  let stub: StubServer;
  const windowMs = 300;
  const spaced = safeWindowMs(windowMs);

  beforeEach(async () => {
    resetSharedLimiters();
    stub = await startStub();
    stub.fallback({ status: 200, body: { appConnection: appConnection() } });
  });
  afterEach(() => stub.close());

  const make = (
    rateLimit: ConstructorParameters<typeof SecretOpsClient>[1] extends infer O
      ? O extends { rateLimit?: infer R }
        ? R
        : never
      : never,
  ) => new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit, retry: false });

  test("concurrent calls never exceed `limit` starts per window", async () => {
    const c = make({ readsPerMinute: 3, windowMs });
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 7 }, () => c.appConnections.get("postgres", ids.connection)));
    // What the service sees: never more than 3 arrivals in any window.
    const at = stub.requests.map((r) => r.at);
    for (let i = 0; i + 3 < at.length; i++) expect(at[i + 3]! - at[i]!).toBeGreaterThanOrEqual(windowMs);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2 * spaced - 5);
  });

  test("a slow answer holds its slot: the next request starts a window after the answer", async () => {
    stub.queue({ status: 200, body: { appConnection: appConnection() }, delayMs: 400 });
    const c = make({ readsPerMinute: 1, windowMs });
    await Promise.all([0, 1].map(() => c.appConnections.get("postgres", ids.connection)));
    const at = stub.requests.map((r) => r.at);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(400 + windowMs);
  });

  test("two clients for the same service share one budget", async () => {
    const a = make({ readsPerMinute: 2, windowMs });
    const b = make({ readsPerMinute: 2, windowMs });
    await a.appConnections.get("postgres", ids.connection);
    await a.appConnections.get("postgres", ids.connection);
    await b.appConnections.get("postgres", ids.connection);
    expect(stub.requests[2]!.at - stub.requests[0]!.at).toBeGreaterThanOrEqual(windowMs);
  });

  test("reads and writes have separate budgets", async () => {
    const c = make({ readsPerMinute: 1, writesPerMinute: 1, windowMs: 5000 });
    const t0 = Date.now();
    await c.appConnections.get("postgres", ids.connection);
    await c.appConnections.delete("postgres", ids.connection);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  test("the secrets routes have a budget of their own: a secrets call waits for its window, a read does not", async () => {
    const c = make({ readsPerMinute: 10, writesPerMinute: 10, secretsPerMinute: 1, windowMs });
    const place = { projectId: ids.project, environment: "dev" };
    stub.fallback({ status: 200, body: { secrets: [] } });
    await c.secrets.list(place);
    const t0 = Date.now();
    stub.fallback({ status: 200, body: { appConnection: appConnection() } });
    await c.appConnections.get("postgres", ids.connection);
    expect(Date.now() - t0).toBeLessThan(windowMs);
    stub.fallback({ status: 200, body: { secrets: [] } });
    await c.secrets.list(place);
    expect(stub.requests.at(-1)!.at - stub.requests[0]!.at).toBeGreaterThanOrEqual(windowMs);
  });

  const advertising = (limit: number, resetSeconds: number) => ({
    status: 200,
    body: { appConnection: appConnection() },
    headers: {
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(limit - 1),
      "x-ratelimit-reset": String(resetSeconds),
    },
  });

  test("learns a larger budget from x-ratelimit-* and uses it at once", async () => {
    // 150 reads: over the default 60 a minute, within the 1000 a second the service advertises.
    stub.fallback(advertising(1000, 1));
    const c = make({});
    const t0 = Date.now();
    await c.appConnections.get("postgres", ids.connection);
    await Promise.all(Array.from({ length: 149 }, () => c.appConnections.get("postgres", ids.connection)));
    expect(stub.requests).toHaveLength(150);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  test("learns a smaller budget and keeps to it; the client's cap still applies under a larger one", async () => {
    stub.fallback(advertising(3, 1));
    const c = make({});
    await c.appConnections.get("postgres", ids.connection); // teaches 3 a second
    await Promise.all(Array.from({ length: 6 }, () => c.appConnections.get("postgres", ids.connection)));
    let at = stub.requests.map((r) => r.at);
    for (let i = 0; i + 3 < at.length; i++) expect(at[i + 3]! - at[i]!).toBeGreaterThanOrEqual(1000);

    resetSharedLimiters();
    stub.requests.length = 0;
    stub.fallback(advertising(1000, 1));
    const capped = make({ readsPerMinute: 2, windowMs: 1000 });
    await Promise.all(Array.from({ length: 5 }, () => capped.appConnections.get("postgres", ids.connection)));
    at = stub.requests.map((r) => r.at);
    for (let i = 0; i + 2 < at.length; i++) expect(at[i + 2]! - at[i]!).toBeGreaterThanOrEqual(1000);
  });

  test("a fresh process sends one request and waits for its answer before the rest", async () => {
    stub.queue({ status: 200, body: { appConnection: appConnection() }, delayMs: 200 });
    const c = make({});
    await Promise.all(Array.from({ length: 5 }, () => c.appConnections.get("postgres", ids.connection)));
    const at = stub.requests.map((r) => r.at);
    expect(at).toHaveLength(5);
    // The other four left after the first one's answer, 200 ms after it arrived.
    for (const t of at.slice(1)) expect(t - at[0]!).toBeGreaterThanOrEqual(195);
  });

  test("budget others spent in the service's window (x-ratelimit-remaining) is waited out", async () => {
    // The service allows 5 a second and says 4 are already spent when our first read arrives:
    // one more may go now, the rest in its next window. Without x-ratelimit-remaining all five would go at once.
    stub.fallback({
      status: 200,
      body: { appConnection: appConnection() },
      headers: { "x-ratelimit-limit": "5", "x-ratelimit-remaining": "1", "x-ratelimit-reset": "1" },
    });
    const c = make({});
    await Promise.all(Array.from({ length: 5 }, () => c.appConnections.get("postgres", ids.connection)));
    const at = stub.requests.map((r) => r.at);
    expect(at).toHaveLength(5);
    expect(at[1]! - at[0]!).toBeLessThan(500);
    expect(at[2]! - at[0]!).toBeGreaterThanOrEqual(1000);
  });

  test("rateLimit: false does not wait", async () => {
    // 70 reads: over the default budget of 60 a minute, so a throttled client would wait ~a minute.
    const c = make(false);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 70 }, () => c.appConnections.get("postgres", ids.connection)));
    expect(stub.requests).toHaveLength(70);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });
});

describe("against the emulator's limiter (fixed windows, counted on arrival)", () => {
  // The service counts a request when it reaches its rate limiter, which on a loaded machine or a
  // slow network can be long after the client let it go: here every read of one connection
  // reaches the emulator's limiter 700 ms late (a latency fault runs before it). The service
  // allows 5 reads in a fixed window of 1 s that starts with the first request it counts.
  let emu: RunningEmulator;
  afterEach(() => emu.stop());

  test("a late arrival never makes the service refuse a request", async () => {
    resetSharedLimiters();
    emu = await startEmulator({ admin: true, rateLimits: { read: 5, write: 5, timeFactor: 1 / 60 } });
    const [a, late] = emu.summary.connections;
    await new EmulatorAdmin(emu.url).addFault({ kind: "latency", latencyMs: 700, method: "GET", path: late!.id });
    const client = new SecretOpsClient({ baseUrl: emu.url, token: emu.token }, { retry: false });
    const read = (c: typeof a) => client.appConnections.get(c!.app as never, c!.id);
    // 0 s: four reads, counted in the window they open. 0.5 s: the late one, counted at 1.2 s: it
    // opens the next window. 1.4 s: four reads, counted with it. 1.9 s: one more, which a client
    // that counts a request from its start only (its slot free 1.3 s after 0.5 s) lets go into
    // that same window, the sixth. It must wait until a window after the late one's answer.
    const at = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const calls = [
      ...[0, 0, 0, 0].map(() => read(a)),
      at(500).then(() => read(late)),
      ...[0, 0, 0, 0].map(() => at(1400).then(() => read(a))),
      at(1900).then(() => read(a)),
    ];
    const outcomes = await Promise.allSettled(calls);
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => String(o.reason));
    expect(refused).toEqual([]);
  });
});
