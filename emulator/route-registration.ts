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
 * The emulator's routes come from the shared operations table (sdk/schemas/operations/): each
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

/** Whether the 200 bodies of an app's kind routes are checked (`responseSerializerCompiler`'s `check`), set by server.ts. */
const responseChecks = new WeakMap<FastifyInstance, boolean>();
export function checkKindResponses(app: FastifyInstance, check: boolean): void {
  responseChecks.set(app, check);
}

/** A kind table (sync destinations, rotation types, connection kinds) whose rows share one set of operations. */
export interface KindFamily<Row, S, Ops extends Record<string, Operation>> {
  readonly rows: readonly Row[];
  /** The row's slug, the path segment `base` puts it in. */
  readonly slug: (row: Row) => string;
  /** The common prefix of a kind's operation paths, given its slug (`apiPaths`). */
  readonly base: (slug: string) => string;
  readonly operations: (row: Row) => Ops;
  readonly scope: (row: Row) => S;
}

const KIND_PARAM = "kindSlug";

/**
 * Registers a kind table's operations as one parametric route per operation (`/api/v1/secret-syncs/:kindSlug/:syncId`)
 * instead of one route per kind and operation: over a thousand Fastify routes, each compiled at
 * start, were most of the emulator's start cost. A request is dispatched to its kind's row, whose
 * schemas (built on first use, `perRow`) validate it as Fastify's `schema` option would (params,
 * then body, then query; `zodValidatorCompiler`) and check its 200 body (`responseSerializerCompiler`).
 * An unknown slug goes to the not-found handler, as an unregistered path does; static routes
 * (`/options`) keep priority in Fastify's router. Every row must have the first row's operations
 * (tests/emulator/kind-routes.test.ts).
 */
export function routeKindOperations<Row, S, Ops extends Record<string, Operation>>(
  app: FastifyInstance,
  family: KindFamily<Row, S, Ops>,
  handlers: ScopedHandlers<S, Ops>,
): void {
  const bySlug = new Map(family.rows.map((row) => [family.slug(row), row]));
  const scopes = new Map<Row, S>();
  const scopeOf = (row: Row) => scopes.get(row) ?? scopes.set(row, family.scope(row)).get(row)!;
  // A request's row, looked up once: validation replaces `req.params` without the slug, and the
  // request log asks for the bucket (`appliesTo`) after the handler.
  const rows = new WeakMap<FastifyRequest, Row | undefined>();
  const rowOf = (req: FastifyRequest) => {
    if (!rows.has(req)) rows.set(req, bySlug.get((req.params as Record<string, string>)[KIND_PARAM]!));
    return rows.get(req);
  };
  const first = family.rows[0]!;
  const template = family.operations(first);
  const sampleBase = family.base(family.slug(first));
  const base = family.base(`:${KIND_PARAM}`);
  for (const name of Object.keys(template)) {
    const sample = template[name]!;
    const handler = handlers[name] as unknown as ScopedHandler<S, Operation>;
    const config: RouteBucket | undefined = sample.bucket && {
      bucket: sample.bucket,
      appliesTo: (req) => rowOf(req) !== undefined,
    };
    app.route({
      method: sample.method,
      url: base + sample.path.slice(sampleBase.length),
      ...(config && { config }),
      handler: async (req, reply) => {
        const row = rowOf(req);
        if (row === undefined) return reply.callNotFound();
        const operation = family.operations(row)[name]!;
        validateParts(operation, req);
        const payload = await handler(scopeOf(row), req as OperationRequest<Operation>, reply);
        if (reply.statusCode === 200 && responseChecks.get(app)) checkResponse(operation, payload);
        return payload;
      },
    });
  }
}

/** Validates and replaces the parts an operation declares, as Fastify's `schema` option does with `zodValidatorCompiler`. */
function validateParts(operation: Operation, req: FastifyRequest): void {
  const { [KIND_PARAM]: _slug, ...params } = req.params as Record<string, string>;
  req.params = operation.params ? validPart(operation.params, "params", params) : params;
  if (operation.body) req.body = validPart(operation.body, "body", req.body);
  if (operation.query) req.query = validPart(operation.query, "querystring", req.query);
}

function validPart(schema: z.ZodType, httpPart: string, data: unknown): unknown {
  const r = zodValidatorCompiler({ schema, httpPart, method: "", url: "" })(data) as { value?: unknown; error?: Error };
  if (r.error) throw r.error;
  return r.value;
}

/** `responseSerializerCompiler`'s check of a 200 body. */
function checkResponse(operation: Operation, payload: unknown): void {
  const r = operation.response.safeParse(payload);
  if (!r.success) {
    throw new ApiError(
      500,
      "InternalServerError",
      `The response of ${operation.method} ${operation.path} does not match its schema: ${formatIssueList(issuesFromZod(r.error.issues))}`,
    );
  }
}
