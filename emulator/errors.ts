import { z } from "zod";
import { ruleOf } from "../sdk/schemas";

/**
 * The service's error classes. Each carries the status and the `error` value the service puts in
 * the body `{reqId, statusCode, message, error}`: the error's `name` property, which is not its
 * class name (`BadRequestError` sends "BadRequest"; docs/service-api.md §6). `server.ts` renders
 * them.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorName: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, "BadRequest", message);
export const notFound = (message: string) => new ApiError(404, "NotFound", message);
export const unauthorized = (message: string) => new ApiError(401, "UnauthorizedError", message);
/** ForbiddenRequestError: business rules the service answers with 403 (certificate profiles). */
export const forbidden = (message: string) => new ApiError(403, "ForbiddenError", message);
/**
 * `new ForbiddenRequestError({ name })` (lib/errors/index.ts): the words go in `error` and the
 * message is the class's default, as `getProjectPermission` refuses a non-member.
 */
export const forbiddenRequest = (name: string) =>
  new ApiError(403, name, "You are not allowed to access this resource");
/** Expired, malformed or unknown access token. */
export const tokenError = (message: string) => new ApiError(403, "TokenError", message);

/**
 * CASL's ForbiddenError as the service renders it: `error: "PermissionDenied"`,
 * `message: "You are not allowed to <action> on <subject>"` and the rules in `details`.
 */
export function permissionDenied(action: string, subject: string) {
  return new ApiError(403, "PermissionDenied", `You are not allowed to ${action} on ${subject}`, [
    { action, inverted: false, subject, conditions: null },
  ]);
}

export function rateLimited(retryAfterSeconds: number) {
  return new ApiError(
    429,
    "RateLimitExceeded",
    `Rate limit exceeded. Please try again in ${retryAfterSeconds} seconds`,
  );
}

/**
 * A zod failure of params, query or body: 422 `ValidationFailure` with the issues as the message.
 * The issues stay zod's, as the service sends them, each with the message the SDK shows for it
 * (`ruleOf`: "is required", "expected number", ...).
 */
export class ValidationError extends Error {
  readonly issues: readonly z.core.$ZodIssue[];
  constructor(issues: readonly z.core.$ZodIssue[]) {
    super("ValidationFailure");
    this.issues = issues.map((issue) => ({ ...issue, message: ruleOf(issue) }));
  }
}

/** Parses with a shared schema; a failure becomes a 422 exactly as the service sends it. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new ValidationError(r.error.issues);
  return r.data;
}

/** A 422 for a rule the emulator checks itself (needs state), shaped like a zod custom issue. */
export function validationIssue(path: PropertyKey[], message: string): ValidationError {
  return new ValidationError([{ code: "custom", path, message } as z.core.$ZodIssue]);
}

const statusNames: Record<number, string> = {
  400: "BadRequest",
  401: "UnauthorizedError",
  403: "ForbiddenError",
  404: "NotFound",
  409: "Conflict",
  // Fastify's own refusals (body too large, path too long, content type): the service has no
  // name for them (its handler answers 500), so these are the HTTP reason phrases.
  413: "PayloadTooLarge",
  414: "URITooLong",
  415: "UnsupportedMediaType",
  422: "ValidationFailure",
  429: "RateLimitExceeded",
  500: "InternalServerError",
  502: "BadGatewayError",
  503: "ServiceUnavailableError",
  504: "GatewayTimeoutError",
};

/** The `error` name for a status: injected faults (admin fault rules) and Fastify's own client errors. */
export function errorNameForStatus(status: number): string {
  return statusNames[status] ?? (status >= 500 ? "InternalServerError" : "Error");
}

export function messageForStatus(status: number): string {
  if (status === 500) return "Something went wrong";
  if (status === 503) return "Service unavailable";
  if (status === 502) return "Bad gateway";
  if (status === 504) return "Gateway timeout";
  return `Injected fault with status ${status}`;
}
