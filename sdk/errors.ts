import { type Issue, formatIssueList } from "./schemas/issues";

/**
 * The SDK's errors. Every one of them is built from plain strings and numbers that we chose to
 * keep: never from an axios error (whose `config.headers` carry the bearer token), never with a
 * `cause`, and never with a value the caller sent or the service returned (those may be secrets).
 * Messages name field paths and rules only.
 */

import type { HttpMethod } from "./schemas/operations";
export type { HttpMethod };

/** Base class, so callers can catch everything the SDK throws with one `instanceof`. */
export class SecretOpsError extends Error {
  constructor(message: string) {
    super(message);
    // Non-enumerable like Error's own name, so JSON/inspect output stays small and predictable.
    Object.defineProperty(this, "name", {
      value: new.target.name,
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }
}

/** The request was rejected before anything was sent: a schema rule or a client-side rule failed. */
export class SecretOpsValidationError extends SecretOpsError {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    super(formatIssueList(issues));
    this.issues = issues;
  }
}

/** The service answered 2xx with a body that does not match the shared response schema. */
export class SecretOpsResponseError extends SecretOpsError {
  readonly issues: Issue[];
  readonly method: HttpMethod;
  readonly path: string;
  constructor(method: HttpMethod, path: string, issues: Issue[]) {
    super(`Unexpected response from ${method} ${path}: ${formatIssueList(issues)}`);
    this.issues = issues;
    this.method = method;
    this.path = path;
  }
}

export interface ApiErrorFields {
  status: number;
  /** The service's `error` (e.g. "NotFound", "ValidationFailure", "TokenError"). */
  error: string;
  /** The service's message; on a 422, its zod issues joined as `path: message`. */
  message: string;
  reqId?: string;
  method: HttpMethod;
  /** The route path, without the query string. */
  path: string;
  /** On a 422: the service's zod issues. */
  issues?: Issue[];
  /**
   * True when a non-idempotent request (a create or a trigger) may or may not have been applied
   * (5xx). The SDK does not repeat it; resolve it with the find-by-name reads.
   */
  ambiguous?: boolean;
}

/** The service answered with an error status (after any retries). `message` is the service's. */
export class SecretOpsApiError extends SecretOpsError {
  readonly status: number;
  readonly error: string;
  readonly reqId: string | undefined;
  readonly method: HttpMethod;
  readonly path: string;
  readonly issues: Issue[] | undefined;
  readonly ambiguous: boolean;
  constructor(f: ApiErrorFields) {
    super(f.message);
    this.status = f.status;
    this.error = f.error;
    this.reqId = f.reqId;
    this.method = f.method;
    this.path = f.path;
    this.issues = f.issues;
    this.ambiguous = f.ambiguous ?? false;
  }
  override toString(): string {
    return `${this.name}: ${this.method} ${this.path} failed with ${this.status} ${this.error}: ${this.message}`;
  }
}

/** No response: timeout, connection reset or refused, DNS failure (after any retries). */
export class SecretOpsNetworkError extends SecretOpsError {
  /** Node/axios error code, e.g. ECONNRESET, ETIMEDOUT, ECONNREFUSED. */
  readonly code: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** True when a non-idempotent request may have reached the service (see SecretOpsApiError). */
  readonly ambiguous: boolean;
  constructor(f: { code: string; method: HttpMethod; path: string; ambiguous: boolean }) {
    const what = f.ambiguous ? " (the request may or may not have been applied)" : "";
    super(`${f.method} ${f.path} failed: ${describeCode(f.code)}${what}`);
    this.code = f.code;
    this.method = f.method;
    this.path = f.path;
    this.ambiguous = f.ambiguous;
  }
}

/** Whether a failed create/trigger may have been applied; resolve it with getByName/getBySlug. */
export function isAmbiguous(err: unknown): boolean {
  return (err instanceof SecretOpsApiError || err instanceof SecretOpsNetworkError) && err.ambiguous;
}

/**
 * The service refused a create because the name or slug is taken: a 400 for syncs, rotations and
 * connections, a 403 for certificate profiles, each saying "already exists" (docs/service-api.md
 * §1 to §4).
 */
export function isAlreadyExists(err: unknown): boolean {
  return (
    err instanceof SecretOpsApiError &&
    (err.status === 400 || err.status === 403 || err.status === 409) &&
    /already exists?/i.test(err.message)
  );
}

function describeCode(code: string): string {
  const known: Record<string, string> = {
    ECONNRESET: "connection reset",
    ECONNREFUSED: "connection refused",
    ETIMEDOUT: "timed out",
    ECONNABORTED: "timed out",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "DNS lookup failed",
    EPIPE: "connection closed",
  };
  return known[code] ? `${known[code]} (${code})` : code;
}

export { type Issue, formatIssueList, issuesFromZod } from "./schemas/issues";
