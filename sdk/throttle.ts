/**
 * Client-side throttling: stay under the service's rate limits instead of running into 429s.
 *
 * A sliding-window log per (baseUrl, bucket): a request may start when fewer than `limit`
 * requests started in the last `windowMs`. The log lives in a module-level registry, so every
 * client instance and every concurrent call in this process that talks to the same service
 * shares one budget, as the service counts per IP, not per client object.
 *
 * The budget is learned: the service advertises its limit and window in `x-ratelimit-limit` and
 * `x-ratelimit-reset` on every response (docs/service-api.md §8; paid plans allow far more than
 * the self-hosted default of 60 reads and 200 writes per minute). Until a response has said so,
 * the defaults apply. A client's `readsPerMinute`/`writesPerMinute`, when set, are a cap on top.
 *
 * The budget is shared with whatever else uses the same credentials or address (another pipeline,
 * the service's own UI, an earlier process). So a fresh process sends one request first and waits
 * for its answer; and whenever `x-ratelimit-remaining` says the service counted more in its
 * current window than this process started, the difference joins the log until that window ends.
 *
 * Written here rather than taken from npm: the part that matters (one budget shared process-wide
 * per service, learned from its answers) is the registry below, which a generic limiter would
 * not provide.
 */

import { SecretOpsValidationError } from "./errors";

export type Bucket = "read" | "write";

export interface RateLimitOptions {
  /** A cap on reads per window, on top of what the service advertises. Unset: the service's (60 until it says). */
  readsPerMinute?: number;
  /** A cap on writes per window, on top of what the service advertises. Unset: the service's (200 until it says). */
  writesPerMinute?: number;
  /** The window the caps count in, default 60 000 ms. Tests shrink it together with the emulator's timeFactor. */
  windowMs?: number;
}

export const defaultRateLimit = {
  readsPerMinute: 60,
  writesPerMinute: 200,
  windowMs: 60_000,
} as const;

/** What a response's `x-ratelimit-*` headers say about its bucket. */
export interface AdvertisedLimit {
  /** Requests per window. */
  limit: number;
  /** Requests left in the current window, counting everyone's. */
  remaining?: number;
  /** Seconds until the current window resets (whole seconds, rounded up). */
  resetSeconds: number;
}

/** Reads the `x-ratelimit-*` headers of a response, if it has them. */
export function advertisedLimit(headers: Record<string, unknown>): AdvertisedLimit | undefined {
  const limit = Number(headers["x-ratelimit-limit"]);
  const resetSeconds = Number(headers["x-ratelimit-reset"]);
  if (!Number.isFinite(limit) || limit <= 0 || !Number.isFinite(resetSeconds) || resetSeconds < 0) return undefined;
  const remaining = Number(headers["x-ratelimit-remaining"] ?? NaN);
  return Number.isInteger(remaining) && remaining >= 0 && remaining <= limit
    ? { limit, remaining, resetSeconds }
    : { limit, resetSeconds };
}

/**
 * The service counts in fixed windows that start with the first request it sees, and requests
 * reach it a little later than we send them, by a varying amount (the first one on a connection
 * is slower, and a busy machine or network adds a few hundred ms). Spacing our window 2 % + 300 ms
 * wider than the service's absorbs that jitter, so a burst of exactly `limit` never straddles its
 * window edge. (100 ms was too little: a loaded CI machine still met a 429 now and then.) At the
 * service's 60 s window this costs half a percent of the budget.
 */
export function safeWindowMs(windowMs: number): number {
  return Math.ceil(windowMs * 1.02) + 300;
}

export class SlidingWindowLimiter {
  /** Start times (ms) of the requests admitted within the longest window seen, oldest first. */
  private starts: number[] = [];
  private longestWindowMs = 0;
  /**
   * The service's limit and window, as its responses advertise them. The window is the longest
   * `x-ratelimit-reset` seen: a response at the start of a window says the whole window.
   */
  advertised: { limit: number; windowMs: number } | undefined;
  /** Admissions are serialised, so waiting callers are served first come, first served. */
  private tail: Promise<void> = Promise.resolve();
  /** With `probe`: whether the first request's answer came back (or took too long to wait for). */
  private probed = false;
  private probeAnswered: () => void = () => undefined;
  private readonly probeAnswer = new Promise<void>((resolve) => (this.probeAnswered = resolve));

  /**
   * `probe`: admit one request, then wait (up to `probeWaitMs`) for `answered` before the rest, so
   * a burst does not spend a budget others may already have used up.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly opts: { probe?: boolean; probeWaitMs?: number } = {},
  ) {
    if (!opts.probe) this.probed = true;
  }

  /**
   * Resolves when a request may start; records that it did. `budget` may be a function: it is
   * asked again each time the caller looks, so a budget learned meanwhile applies at once.
   */
  acquire(limit: number, windowMs: number): Promise<void>;
  acquire(budget: () => { limit: number; windowMs: number }): Promise<void>;
  acquire(a: number | (() => { limit: number; windowMs: number }), b?: number): Promise<void> {
    const budget = typeof a === "function" ? a : () => ({ limit: a, windowMs: b! });
    const turn = this.tail.then(() => this.waitForSlot(budget));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /** A response (or a failure without one) came back; what it advertised, if anything. */
  answered(a: AdvertisedLimit | undefined): void {
    this.probed = true;
    this.probeAnswered();
    if (a) this.learn(a);
  }

  /** Takes in what a response advertised; a waiting caller sees it at its next look. */
  learn(a: AdvertisedLimit): void {
    const windowMs = Math.max(this.advertised?.windowMs ?? 0, a.resetSeconds * 1000);
    if (windowMs <= 0) return;
    this.advertised = { limit: a.limit, windowMs };
    if (a.remaining === undefined) return;
    // The service's window ends within `resetSeconds` (rounded up), so it started no later than
    // `start` and no earlier than a second before. Ours since then that it may have counted:
    // what it counted beyond them, others spent; keep that in the log until the window ends.
    const now = this.now();
    const start = now + a.resetSeconds * 1000 - windowMs;
    const ours = this.starts.filter((t) => t >= start - 1000).length;
    const others = a.limit - a.remaining - ours;
    if (others <= 0) return;
    const at = this.starts.findIndex((t) => t > start);
    this.starts.splice(at < 0 ? this.starts.length : at, 0, ...Array<number>(others).fill(start));
  }

  /** Requests started within the last `windowMs` (for tests and diagnostics). */
  inWindow(windowMs: number): number {
    const since = this.now() - windowMs;
    return this.starts.filter((t) => t > since).length;
  }

  private async waitForSlot(budget: () => { limit: number; windowMs: number }): Promise<void> {
    if (!this.probed && this.starts.length > 0) {
      await Promise.race([this.probeAnswer, sleep(this.opts.probeWaitMs ?? 1000)]);
      this.probed = true;
    }
    for (;;) {
      const { limit, windowMs } = budget();
      this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
      const now = this.now();
      while (this.starts.length > 0 && this.starts[0]! <= now - this.longestWindowMs) this.starts.shift();
      const recent = this.starts.filter((t) => t > now - windowMs);
      if (recent.length < limit) {
        this.starts.push(now);
        return;
      }
      // The slot frees when the request `limit` places back leaves the window. Look again at
      // least every second: a response may meanwhile have taught a larger budget.
      const freesAt = recent[recent.length - limit]! + windowMs;
      await sleep(Math.min(1000, Math.max(1, freesAt - now)));
    }
  }
}

/** The global timer, not node:timers/promises: the limiter's tests drive it with jest's fake timers. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const registry = new Map<string, SlidingWindowLimiter>();

/** The shared limiter for one service and bucket. The key ignores a trailing slash. */
export function sharedLimiter(baseUrl: string, bucket: Bucket): SlidingWindowLimiter {
  const key = `${baseUrl.replace(/\/+$/, "")} ${bucket}`;
  let limiter = registry.get(key);
  if (!limiter) {
    limiter = new SlidingWindowLimiter(Date.now, { probe: true });
    registry.set(key, limiter);
  }
  return limiter;
}

/** Forget all shared budgets (tests). */
export function resetSharedLimiters(): void {
  registry.clear();
}

/**
 * A client's view of the shared limiters: the budget the service advertised (or the defaults),
 * under the client's own caps, and the process-wide history.
 */
export class Throttle {
  private readonly windowMs: number;
  constructor(
    private readonly baseUrl: string,
    private readonly opts: RateLimitOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? defaultRateLimit.windowMs;
    const bad = Object.entries(opts).filter(
      ([, v]) => v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v > 0),
    );
    if (bad.length)
      throw new SecretOpsValidationError(
        bad.map(([k]) => ({ path: `rateLimit.${k}`, message: "must be a positive number" })),
      );
  }

  acquire(bucket: Bucket): Promise<void> {
    const limiter = sharedLimiter(this.baseUrl, bucket);
    return limiter.acquire(() => this.budget(bucket, limiter.advertised));
  }

  /** An attempt in `bucket` ended: its response's `x-ratelimit-*` headers, if it had a response. */
  answered(bucket: Bucket, headers: Record<string, unknown> | undefined): void {
    sharedLimiter(this.baseUrl, bucket).answered(headers ? advertisedLimit(headers) : undefined);
  }

  /**
   * The budget: what the service advertised, under this client's cap; before the service has
   * said anything, the cap, else the default. Then the safety margin.
   */
  private budget(bucket: Bucket, advertised: { limit: number; windowMs: number } | undefined) {
    const cap = bucket === "read" ? this.opts.readsPerMinute : this.opts.writesPerMinute;
    if (!advertised) {
      const fallback = bucket === "read" ? defaultRateLimit.readsPerMinute : defaultRateLimit.writesPerMinute;
      return { limit: cap ?? fallback, windowMs: safeWindowMs(this.windowMs) };
    }
    // A cap counts in the client's window; scaled to the advertised one.
    const scaledCap =
      cap === undefined ? Infinity : Math.max(1, Math.floor((cap * advertised.windowMs) / this.windowMs));
    return { limit: Math.min(advertised.limit, scaledCap), windowMs: safeWindowMs(advertised.windowMs) };
  }
}
