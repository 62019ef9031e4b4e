/**
 * Client-side throttling: stay under the service's per-minute limits (docs/service-api.md §8: 60 reads,
 * 200 writes per IP per 60 s; GET reads, POST/PATCH/DELETE write) instead of running into 429s.
 *
 * A sliding-window log per (baseUrl, bucket): a request may start when fewer than `limit`
 * requests started in the last `windowMs`. The log lives in a module-level registry, so every
 * client instance and every concurrent call in this process that talks to the same service
 * shares one budget, as the service counts per IP, not per client object. Each caller passes its
 * own limit, so two clients with different settings still share the history and each respects
 * its own ceiling.
 *
 * Written here rather than taken from npm: it is a few dozen lines, nothing new can be installed
 * in this package, and the part that matters (one budget shared process-wide per service) is the
 * registry below, which a generic limiter would not provide anyway.
 */

import { SecretOpsValidationError } from "./errors";

export type Bucket = "read" | "write";

export interface RateLimitOptions {
  /** Default 60 (the service's read limit). */
  readsPerMinute?: number;
  /** Default 200 (the service's write limit). */
  writesPerMinute?: number;
  /** Length of the window, default 60 000 ms. Tests shrink it together with the emulator's timeFactor. */
  windowMs?: number;
}

export const defaultRateLimit: Required<RateLimitOptions> = {
  readsPerMinute: 60,
  writesPerMinute: 200,
  windowMs: 60_000,
};

/**
 * The service counts in fixed windows that start with the first request it sees, and requests
 * reach it a little later than we send them, by a varying amount (the first one on a connection
 * is slower). Spacing our window 2 % + 100 ms wider than the service's absorbs that jitter, so a
 * burst of exactly `limit` never straddles its window edge.
 */
export function safeWindowMs(windowMs: number): number {
  return Math.ceil(windowMs * 1.02) + 100;
}

export class SlidingWindowLimiter {
  /** Start times (ms) of the requests admitted within the longest window seen, oldest first. */
  private starts: number[] = [];
  private longestWindowMs = 0;
  /** Admissions are serialised, so waiting callers are served first come, first served. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly now: () => number = Date.now) {}

  /** Resolves when a request may start; records that it did. */
  acquire(limit: number, windowMs: number): Promise<void> {
    const turn = this.tail.then(() => this.waitForSlot(limit, windowMs));
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /** Requests started within the last `windowMs` (for tests and diagnostics). */
  inWindow(windowMs: number): number {
    const since = this.now() - windowMs;
    return this.starts.filter((t) => t > since).length;
  }

  private async waitForSlot(limit: number, windowMs: number): Promise<void> {
    this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
    for (;;) {
      const now = this.now();
      while (this.starts.length > 0 && this.starts[0]! <= now - this.longestWindowMs) this.starts.shift();
      const recent = this.starts.filter((t) => t > now - windowMs);
      if (recent.length < limit) {
        this.starts.push(now);
        return;
      }
      // The slot frees when the request `limit` places back leaves the window.
      const freesAt = recent[recent.length - limit]! + windowMs;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, freesAt - now)));
    }
  }
}

const registry = new Map<string, SlidingWindowLimiter>();

/** The shared limiter for one service and bucket. The key ignores a trailing slash. */
export function sharedLimiter(baseUrl: string, bucket: Bucket): SlidingWindowLimiter {
  const key = `${baseUrl.replace(/\/+$/, "")} ${bucket}`;
  let limiter = registry.get(key);
  if (!limiter) {
    limiter = new SlidingWindowLimiter();
    registry.set(key, limiter);
  }
  return limiter;
}

/** Forget all shared budgets (tests). */
export function resetSharedLimiters(): void {
  registry.clear();
}

/** A client's view of the shared limiters: its own limits, the process-wide history. */
export class Throttle {
  private readonly opts: Required<RateLimitOptions>;
  constructor(
    private readonly baseUrl: string,
    opts: RateLimitOptions = {},
  ) {
    this.opts = { ...defaultRateLimit, ...opts };
    const bad = Object.entries(this.opts).filter(([, v]) => !(typeof v === "number" && Number.isFinite(v) && v > 0));
    if (bad.length)
      throw new SecretOpsValidationError(
        bad.map(([k]) => ({ path: `rateLimit.${k}`, message: "must be a positive number" })),
      );
  }

  acquire(bucket: Bucket): Promise<void> {
    const limit = bucket === "read" ? this.opts.readsPerMinute : this.opts.writesPerMinute;
    return sharedLimiter(this.baseUrl, bucket).acquire(limit, safeWindowMs(this.opts.windowMs));
  }
}
