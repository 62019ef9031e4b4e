/**
 * Retry policy, modelled on the service's Terraform provider (docs/service-api.md, top): 429 waits
 * `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset`, else a jittered backoff of
 * 1 s to 60 s; at most 5 tries. We extend it to 5xx, timeouts and connection resets, but only
 * for requests that are safe to repeat. The functions here are pure so they can be unit-tested;
 * http.ts plugs them into axios-retry.
 */

export interface RetryOptions {
  /** Total tries including the first (default 5, like the Terraform provider). */
  maxAttempts?: number;
  /** First backoff delay (default 1000 ms); it doubles per retry. */
  baseDelayMs?: number;
  /** Backoff ceiling (default 60 000 ms). Server-given waits (Retry-After) are not capped by it. */
  maxDelayMs?: number;
}

export const defaultRetryOptions: Required<RetryOptions> = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * What a failure means for repeating the request.
 * - `refused`: the service refused it before processing (429): safe to repeat, any method.
 * - `not-sent`: no connection was made (refused, DNS): safe to repeat, any method.
 * - `maybe-applied`: 5xx, timeout, reset: the request may have been processed. Only idempotent
 *   requests are repeated; a create or trigger gets `ambiguous: true` instead.
 * - `final`: any other answer (4xx) or a cancellation: never repeated.
 */
export type FailureKind = "refused" | "not-sent" | "maybe-applied" | "final";

const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

export function classifyFailure(status: number | undefined, code: string | undefined): FailureKind {
  if (status !== undefined) {
    if (status === 429) return "refused";
    if (status >= 500) return "maybe-applied";
    return "final";
  }
  if (code === "ERR_CANCELED") return "final";
  if (code !== undefined && NOT_SENT.has(code)) return "not-sent";
  // Timeouts (ETIMEDOUT/ECONNABORTED), resets, broken pipes and anything unknown without a response.
  return "maybe-applied";
}

export function shouldRetry(kind: FailureKind, idempotent: boolean): boolean {
  return kind === "refused" || kind === "not-sent" || (kind === "maybe-applied" && idempotent);
}

/** A non-idempotent request failed in a way that leaves its effect unknown. */
export function isAmbiguousFailure(kind: FailureKind, idempotent: boolean): boolean {
  return kind === "maybe-applied" && !idempotent;
}

type Headers = Record<string, unknown> | undefined;

function header(headers: Headers, name: string): string | undefined {
  if (!headers) return undefined;
  // axios normalises names to lower case (AxiosHeaders); plain objects in tests may not.
  const v =
    headers[name] ??
    headers[name.toLowerCase()] ??
    Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  if (Array.isArray(v)) return v.length ? String(v[0]) : undefined;
  return v === undefined || v === null ? undefined : String(v).trim();
}

/**
 * The wait the service asked for, in ms, or undefined if it did not say.
 * `retry-after`: delay-seconds or an HTTP date. `x-ratelimit-reset`: seconds until the window
 * resets (@fastify/rate-limit); a value that looks like a Unix timestamp is treated as one.
 */
export function serverDelayMs(
  headers: Headers,
  now = Date.now(),
  opts: { useReset?: boolean } = {},
): number | undefined {
  const retryAfter = header(headers, "retry-after");
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = opts.useReset === false ? undefined : header(headers, "x-ratelimit-reset");
  if (reset && /^\d+(\.\d+)?$/.test(reset)) {
    const n = Number(reset);
    return n > 1e9 ? Math.max(0, Math.round(n * 1000 - now)) : Math.round(n * 1000);
  }
  return undefined;
}

/**
 * Exponential backoff with ±25 % jitter, kept within [baseDelayMs, maxDelayMs]. Jitter spreads out
 * clients that failed together (e.g. after a 503), so they do not retry in lockstep.
 */
export function backoffDelayMs(
  retryNumber: number,
  opts: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const exp = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.max(0, retryNumber - 1));
  const jittered = exp * (0.75 + random() * 0.5);
  return Math.round(Math.min(opts.maxDelayMs, Math.max(opts.baseDelayMs, jittered)));
}

/** The delay before retry number `retryNumber` (1-based): the server's wait if it gave one, else backoff. */
export function retryDelayMs(
  retryNumber: number,
  response: { status: number; headers: Headers } | undefined,
  opts: Required<RetryOptions>,
  random: () => number = Math.random,
  now = Date.now(),
): number {
  // Retry-After is also meaningful on a 503. X-RateLimit-Reset is only read on a 429: the rate
  // limiter sends it on every response, and a 5xx should not wait for the window to roll over.
  const asked = response ? serverDelayMs(response.headers, now, { useReset: response.status === 429 }) : undefined;
  return asked ?? backoffDelayMs(retryNumber, opts, random);
}
