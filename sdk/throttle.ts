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
 * the unlicensed plan's 60 reads, 200 writes and 40 secrets calls per minute). Until a response
 * has said so, those defaults apply. A client's `readsPerMinute`/`writesPerMinute`/`secretsPerMinute`, when set,
 * are a cap on top.
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
import type { RateLimitBucket } from "./schemas/operations/operation";

/** A rate-limit bucket of the service, as the operations table names them. */
export type Bucket = RateLimitBucket;

export interface RateLimitOptions {
  /** A cap on reads per window, on top of what the service advertises. Unset: the service's (60 until it says). */
  readsPerMinute?: number;
  /** A cap on writes per window, on top of what the service advertises. Unset: the service's (200 until it says). */
  writesPerMinute?: number;
  /** A cap on the secrets routes per window, on top of what the service advertises. Unset: the service's (40 until it says). */
  secretsPerMinute?: number;
  /** The window the caps count in, default 60 000 ms. Tests shrink it together with the emulator's timeFactor. */
  windowMs?: number;
}

/**
 * What an authenticated request counts against on an instance that has not advertised its limits:
 * the unlicensed plan's `rateLimits` (60 reads, 200 writes, 40 secrets calls a minute), which the
 * service applies to every request of an organization in place of its instance-wide 60 secrets
 * calls (docs/service-api.md §8).
 */
export const defaultRateLimit = {
  readsPerMinute: 60,
  writesPerMinute: 200,
  secretsPerMinute: 40,
  windowMs: 60_000,
} as const;

/** The option (and default) of each bucket's budget. */
const PER_MINUTE = {
  read: "readsPerMinute",
  write: "writesPerMinute",
  secrets: "secretsPerMinute",
} as const satisfies Record<Bucket, keyof RateLimitOptions>;

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
 * The service counts a request when it arrives, which is some time after we admit it and before
 * its answer reaches us: on a loaded machine or network that gap is seconds, not milliseconds. So
 * a request holds its slot from its admission until one window after its answer (see `Slot`);
 * whatever the gap, no window of the service's then holds more than `limit` of ours. This margin
 * covers only timers firing a little late and the whole seconds of `x-ratelimit-reset`.
 */
export function safeWindowMs(windowMs: number): number {
  return Math.ceil(windowMs * 1.01);
}

/**
 * One admitted request. It counts against every window its arrival at the service may fall in:
 * from its admission (`start`) until `windowMs` after its answer (`end`; `Infinity` while it is
 * in flight).
 */
export interface Slot {
  readonly start: number;
  end: number;
}

/**
 * A request every caller answers (sdk/http.ts releases the slot of every attempt, failed ones
 * included); this bound only keeps a lost answer from holding a slot forever.
 */
const IN_FLIGHT_BOUND_MS = 5 * 60_000;

export class SlidingWindowLimiter {
  /** The slots that may still count: ours, and others' the service reported (each read by its `end`, in no order). */
  private slots: Slot[] = [];
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
  /** Wakes a waiting admission when an answer frees a slot or teaches a budget. */
  private wake: () => void = () => undefined;

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
   * Resolves with the request's slot when it may start. `budget` may be a function: it is asked
   * again each time the caller looks, so a budget learned meanwhile applies at once. Hand the slot
   * back to `answered` when the request ends, however it ends.
   */
  acquire(limit: number, windowMs: number): Promise<Slot>;
  acquire(budget: () => { limit: number; windowMs: number }): Promise<Slot>;
  acquire(a: number | (() => { limit: number; windowMs: number }), b?: number): Promise<Slot> {
    const budget = typeof a === "function" ? a : () => ({ limit: a, windowMs: b! });
    const turn = this.tail.then(() => this.waitForSlot(budget));
    this.tail = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** A request ended (with a response or without): its slot, and what the response advertised. */
  answered(a: AdvertisedLimit | undefined, slot?: Slot): void {
    if (slot && slot.end === Infinity) slot.end = this.now();
    this.probed = true;
    this.probeAnswered();
    if (a) this.learn(a);
    this.wake();
  }

  /** Takes in what a response advertised; a waiting caller sees it at its next look. */
  learn(a: AdvertisedLimit): void {
    const windowMs = Math.max(this.advertised?.windowMs ?? 0, a.resetSeconds * 1000);
    if (windowMs <= 0) return;
    this.advertised = { limit: a.limit, windowMs };
    if (a.remaining === undefined) return;
    // The service's window ends within `resetSeconds` (rounded up), so it started no later than
    // `start` and no earlier than a second before. Ours since then that it may have counted:
    // what it counted beyond them, others spent; they hold slots until that window ends.
    const now = this.now();
    const start = now + a.resetSeconds * 1000 - windowMs;
    const ours = this.slots.filter((s) => s.end >= start - 1000).length;
    const others = a.limit - a.remaining - ours;
    for (let i = 0; i < others; i++) this.slots.push({ start, end: start });
  }

  /** Slots that count in a window of `windowMs` ending now: ours, and others' the service reported. */
  inWindow(windowMs: number): number {
    const now = this.now();
    return this.slots.filter((s) => this.endOf(s, now) > now - windowMs).length;
  }

  private endOf(slot: Slot, now: number): number {
    return slot.end === Infinity && now - slot.start > IN_FLIGHT_BOUND_MS ? slot.start + IN_FLIGHT_BOUND_MS : slot.end;
  }

  private async waitForSlot(budget: () => { limit: number; windowMs: number }): Promise<Slot> {
    if (!this.probed && this.slots.length > 0) {
      await Promise.race([this.probeAnswer, sleep(this.opts.probeWaitMs ?? 1000)]);
      this.probed = true;
    }
    for (;;) {
      const { limit, windowMs } = budget();
      this.longestWindowMs = Math.max(this.longestWindowMs, windowMs);
      const now = this.now();
      this.slots = this.slots.filter((s) => this.endOf(s, now) > now - this.longestWindowMs);
      const ends = this.slots.map((s) => this.endOf(s, now)).filter((end) => end > now - windowMs);
      if (ends.length < limit) {
        const slot: Slot = { start: now, end: Infinity };
        this.slots.push(slot);
        return slot;
      }
      // A slot frees `windowMs` after the answer `limit` places back from the latest. Look again
      // when an answer comes, and at least every second: a response may teach a larger budget.
      ends.sort((x, y) => x - y);
      const freesAt = ends[ends.length - limit]! + windowMs;
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      await Promise.race([woken, sleep(Math.min(1000, Math.max(1, freesAt - now)))]);
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

  acquire(bucket: Bucket): Promise<Slot> {
    const limiter = sharedLimiter(this.baseUrl, bucket);
    return limiter.acquire(() => this.budget(bucket, limiter.advertised));
  }

  /** The budget requests of `bucket` are paced by now, and how much of it the window holds spent. */
  budgetOf(bucket: Bucket): { limit: number; windowMs: number; spent: number } {
    const limiter = sharedLimiter(this.baseUrl, bucket);
    const budget = this.budget(bucket, limiter.advertised);
    return { ...budget, spent: limiter.inWindow(budget.windowMs) };
  }

  /** An attempt in `bucket` ended: its slot, and its response's `x-ratelimit-*` headers if it had a response. */
  answered(bucket: Bucket, headers: Record<string, unknown> | undefined, slot: Slot | undefined): void {
    sharedLimiter(this.baseUrl, bucket).answered(headers ? advertisedLimit(headers) : undefined, slot);
  }

  /**
   * The budget: what the service advertised, under this client's cap; before the service has
   * said anything, the cap, else the default. Then the safety margin.
   */
  private budget(bucket: Bucket, advertised: { limit: number; windowMs: number } | undefined) {
    const option = PER_MINUTE[bucket];
    const cap = this.opts[option];
    if (!advertised) return { limit: cap ?? defaultRateLimit[option], windowMs: safeWindowMs(this.windowMs) };
    // A cap counts in the client's window; scaled to the advertised one.
    const scaledCap =
      cap === undefined ? Infinity : Math.max(1, Math.floor((cap * advertised.windowMs) / this.windowMs));
    return { limit: Math.min(advertised.limit, scaledCap), windowMs: safeWindowMs(advertised.windowMs) };
  }
}
