import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
} from "fastify";
import type { z } from "zod";
import { formatIssueList, issuesFromZod, type Operation } from "../sdk/schemas";
import { ApiError, ValidationError } from "./errors";
import type { RouteBucket } from "./rate-limit";

/**
 * The emulator's routes come from the shared operations table (sdk/schemas/operations.ts): each
 * row gives the method, the path and the zod schemas of params, query, body and the 200 response,
 * which Fastify's own `schema` option checks with the compilers below (set once in server.ts).
 */

/** The parsed value of a part (`params`, `query`, `body`) an operation declares; `undefined` for a part it does not. */
type Parsed<O, K extends "params" | "query" | "body"> = O extends { readonly [P in K]?: infer S }
  ? [Exclude<S, undefined>] extends [never]
    ? undefined
    : Exclude<S, undefined> extends z.ZodType
      ? z.output<Exclude<S, undefined>>
      : undefined
  : undefined;

interface OperationRoute<O extends Operation> {
  Params: Parsed<O, "params">;
  Querystring: Parsed<O, "query">;
  Body: Parsed<O, "body">;
}

/** A request of an operation: params, query and body already parsed by the operation's schemas. */
export type OperationRequest<O extends Operation> = FastifyRequest<OperationRoute<O>>;

/** Answers an operation with the 200 body (its response schema's input: the wire shape). */
export type OperationHandler<O extends Operation> = (
  req: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<z.input<O["response"]>>;

/**
 * Registers one operation: its method and path, its schemas as Fastify's route `schema` (a part
 * without a schema is not validated; a body-less route gets no body schema) and its rate-limit
 * bucket as the route's `config.bucket` (rate-limit.ts).
 */
export function route<O extends Operation>(
  app: FastifyInstance,
  operation: O,
  handler: OperationHandler<NoInfer<O>>,
): void {
  const config: RouteBucket | undefined = operation.bucket && { bucket: operation.bucket };
  app.route<OperationRoute<O>, RouteBucket>({
    method: operation.method,
    url: operation.path,
    schema: {
      ...(operation.params && { params: operation.params }),
      ...(operation.query && { querystring: operation.query }),
      ...(operation.body && { body: operation.body }),
      response: { 200: operation.response },
    },
    ...(config && { config }),
    handler,
  });
}

/**
 * Validates a request part with its zod schema. The parsed value replaces the part (Fastify
 * assigns `value` back), and a failure is a `ValidationError`, which Fastify hands to the error
 * handler as is (a 422 `ValidationFailure`). Fastify validates params, then body, then query, and
 * stops at the first failure. It passes a missing body as `null`; it is given to zod as
 * `undefined`, as the request had it.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    let input = httpPart === "body" && data === null ? undefined : data;
    let r = schema.safeParse(input);
    // The request schemas refuse a field outside an object's shape (the SDK never sends one);
    // the service's own schemas drop it, and so does the emulator: it answers other clients as
    // the service would.
    for (let i = 0; !r.success && i < 8 && r.error.issues.every((x) => x.code === "unrecognized_keys"); i++) {
      input = withoutKeys(input, r.error.issues);
      r = schema.safeParse(input);
    }
    return r.success ? { value: r.data } : { error: new ValidationError(r.error.issues) };
  };

/**
 * `value` without the keys the issues name at their paths: the objects on those paths are copied
 * (shallowly, so a deeply nested value costs nothing), the rest is shared.
 */
function withoutKeys(value: unknown, issues: readonly z.core.$ZodIssue[]): unknown {
  let out = value;
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") out = dropAt(out, issue.path, issue.keys);
  }
  return out;
}

function dropAt(value: unknown, path: readonly PropertyKey[], keys: readonly string[]): unknown {
  if (value === null || typeof value !== "object") return value;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<PropertyKey, unknown>;
  if (path.length === 0) for (const k of keys) delete copy[k];
  else copy[path[0]!] = dropAt(copy[path[0]!], path.slice(1), keys);
  return copy;
}

/**
 * Serializes 200 bodies (the only status with a schema; errors keep Fastify's default). With
 * `check`, a body that does not match the operation's response schema is a 500 naming the route
 * and the issues; a matching body is sent as the handler gave it, not as zod's output (which
 * would drop the fields the lenient response schemas do not list).
 */
export function responseSerializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (payload: unknown) => {
      if (check) {
        const r = schema.safeParse(payload);
        if (!r.success) {
          throw new ApiError(
            500,
            "InternalServerError",
            `The response of ${method} ${url} does not match its schema: ${formatIssueList(issuesFromZod(r.error.issues))}`,
          );
        }
      }
      return JSON.stringify(payload);
    };
}
