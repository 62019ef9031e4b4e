import type { z } from "zod";
import type { Issue } from "../issues";

/**
 * A row of the one table of the API's operations (./index.ts, a file per family). Each row says
 * everything about a route: its method, its path (Fastify's `:param` syntax), the schemas of its
 * path params, query, body and response, and how it is sent. The SDK's clients call these rows (`Transport.call`), and the emulator registers
 * its routes from the same rows with Fastify's `schema` option, so a path or a shape is written
 * once. Operations of a kind (connection kind, sync destination, rotation type) come from one
 * factory per resource, called once per row of the kind table.
 */

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";
/**
 * The service's rate-limit buckets: GET reads, other writes, and the secrets routes (secrets, and
 * folder writes) in one of their own (docs/service-api.md §8).
 */
export type RateLimitBucket = "read" | "write" | "secrets";

export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: HttpMethod;
  /** `/api/v1/secret-syncs/vercel/:syncId`: each `:name` segment is a key of `params`. */
  readonly path: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** The 200 response. Read leniently by the SDK; the emulator's responses are checked against it in tests. */
  readonly response: R;
  /** Rate-limit bucket; default: GET reads, everything else writes. */
  readonly bucket?: RateLimitBucket;
  /**
   * Safe to repeat after a 5xx, timeout or reset. Default: every method but POST. A POST that
   * creates or triggers something is not repeated blindly; its failure is `ambiguous`.
   */
  readonly idempotent?: boolean;
  /** Sends the bearer token (default true; false for the login itself). */
  readonly auth?: boolean;
  /**
   * Service rules beyond the body schema: the service answers them with a 400 or 403 after its
   * schema passed, so they are not zod rules. The SDK and the providers' `check` run them on the
   * parsed body; the emulator answers them as the service does.
   */
  readonly rules?: (body: never) => Issue[];
  /**
   * Service rules beyond the query's schema: a field the service's schema leaves optional and its
   * handler then requires (a 400). Run as `rules` are, on the parsed query.
   */
  readonly queryRules?: (query: never) => Issue[];
}

/** Declares an operation, keeping its schemas' types. */
export function op<const O extends Operation>(o: O): O {
  return o;
}

/** The input type of the schema an operation declares for a part. */
type InputOf<O, K extends "params" | "query" | "body"> = K extends keyof O
  ? O[K] extends z.ZodType
    ? z.input<O[K]>
    : never
  : never;

/** What a call of an operation takes: its params, query and body, each as its schema's input. */
export type OperationInput<O extends Operation> = ("params" extends keyof O
  ? { params: InputOf<O, "params"> }
  : { params?: undefined }) &
  ("query" extends keyof O ? { query?: InputOf<O, "query"> } : { query?: undefined }) &
  ("body" extends keyof O ? { body: InputOf<O, "body"> } : { body?: undefined });

/** What a call of an operation returns: its response schema's output. */
export type OperationResult<O extends Operation> = z.output<O["response"]>;

/** The path of an operation with its params filled in, each encoded so it cannot change the route. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? "")));
}
