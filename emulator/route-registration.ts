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
import { parseAsService } from "./service-schemas";

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

/** The handler of one operation of a family, given what the family's routes share (`scope`). */
export type ScopedHandler<S, O extends Operation> = (
  scope: S,
  req: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<z.input<O["response"]>>;

/** One named handler for each operation of a table: a table row without one fails `tsc`. */
export type ScopedHandlers<S, Ops extends Record<string, Operation>> = {
  readonly [K in keyof Ops]: ScopedHandler<S, Ops[K]>;
};

/** Registers every operation of a table (one family's, or one kind's) with its handler, given `scope`. */
export function routeOperations<S, Ops extends Record<string, Operation>>(
  app: FastifyInstance,
  operations: Ops,
  handlers: ScopedHandlers<S, Ops>,
  scope: S,
): void {
  for (const name of Object.keys(operations)) {
    // Each handler takes its own row's request, which is what `route` hands it for that row.
    const handler = handlers[name] as unknown as ScopedHandler<S, Operation>;
    route(app, operations[name]!, (req, reply) => handler(scope, req, reply));
  }
}

/**
 * Validates a request part as the service would (`parseAsService`, service-schemas.ts: unknown
 * keys dropped, as the service's plain `z.object`s drop them). The parsed value replaces the part
 * (Fastify assigns `value` back), and a failure is a `ValidationError`, which Fastify hands to the
 * error handler as is (a 422 `ValidationFailure`). Fastify validates params, then body, then
 * query, and stops at the first failure. It passes a missing body as `null`; it is given to zod
 * as `undefined`, as the request had it.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const r = parseAsService(schema, httpPart === "body" && data === null ? undefined : data);
    return r.success ? { value: r.data } : { error: new ValidationError(r.issues) };
  };

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
