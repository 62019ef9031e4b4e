import { z } from "zod";
import { missingIsRequired, unknownFieldsRule } from "./issues";

/**
 * Field rules shared by every resource family (docs/api-spec.md §8, docs/service-api.md §0).
 * Each schema's error text names the rule, and zod adds the path, so a failure reads
 * like `name: must be at most 64 characters`.
 */

/**
 * An object of a request: a key outside its shape is refused, naming it (and the field it most
 * likely meant), instead of being dropped as the service drops it. Every object a request sends
 * is one of these; responses use plain `z.object` (read leniently).
 */
export function strictObject<const S extends z.ZodRawShape>(shape: S) {
  const fields = Object.keys(shape);
  return z.strictObject(requiredFieldsSayRequired(shape), {
    error: (issue) => (issue.code === "unrecognized_keys" ? unknownFieldsRule(issue.keys, fields) : undefined),
  });
}

/** The shape with each required field's error map reading `is required` for a missing value (`missingIsRequired`). */
function requiredFieldsSayRequired<S extends z.ZodRawShape>(shape: S): S {
  return Object.fromEntries(
    Object.entries(shape).map(([k, field]) => [k, field._zod.optin !== undefined ? field : sayRequired(field)]),
  ) as S;
}

/**
 * A copy of a required field's schema whose error map reads `is required` for a missing value,
 * and so the schema a missing value reaches first: a nullable's inner schema, a pipe's input.
 */
function sayRequired<T extends z.core.$ZodType>(schema: T): T {
  const def = schema._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType };
  const inner =
    def.type === "nullable" && def.innerType
      ? { innerType: sayRequired(def.innerType) }
      : def.type === "pipe" && def.in
        ? { in: sayRequired(def.in) }
        : {};
  // The def's own descriptors, getters kept: a default's `defaultValue` is a getter that clones the
  // value on each parse (a spread would freeze one object shared by every parse).
  const next = Object.defineProperties({}, Object.getOwnPropertyDescriptors(def));
  for (const [key, value] of Object.entries({ ...inner, error: missingIsRequired(def.error) }))
    Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true });
  return (schema as unknown as z.ZodType).clone(next as never) as unknown as T;
}

/**
 * Where a kind's row comes from in the service's source (Infisical/infisical, `backend/src/`):
 * `service-enum` for a kind its table's enum lists (the enum versions quoted in
 * tests/sdk/service-kinds.test.ts), or, for a kind beyond them, the folder of the service's
 * source it was read from (`services/secret-sync/cloud66/`).
 */
export type KindOrigin = "service-enum" | { readonly folder: string };

/** A uuid as the service accepts it (8-4-4-4-12 hex; the service does not check the version nibble). */
export const uuid = z.guid({ error: "must be a UUID" });

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Lowercase letters, digits and single hyphens: the shape of every kind slug. */
export function isSlug(v: string): boolean {
  return SLUG.test(v);
}

/**
 * The service's `slugSchema` (backend/src/server/lib/schemas.ts: a value `slugify` leaves as it is):
 * trimmed, 1..max characters, lowercase letters, digits and single hyphens, no hyphen at either
 * end. The error text starts with the service's own and says what its words leave out.
 */
export function slug(field: string, max = 64) {
  return z
    .string()
    .trim()
    .min(1, { error: `must be at least 1 character` })
    .max(max, { error: `must be at most ${max} characters` })
    .regex(SLUG, {
      error: `${field} field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")`,
    });
}

export function description(max: number) {
  return z
    .string()
    .max(max, { error: `must be at most ${max} characters` })
    .nullable();
}

export const nonEmpty = z.string().min(1, { error: "must not be empty" });

/** environment slug of a sync or rotation: 1 to 64 characters. */
export const environmentSlug = slug("environment", 64);

/** Folder path; the service removes a trailing slash (but keeps the root "/"). */
export const secretPath = z
  .string()
  .min(1, { error: "must not be empty" })
  .transform((p) => (p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p));

/** `SecretNameSchema`: trimmed, at least 1 character, no `:` or `/`. */
export const secretName = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .refine((v) => !v.includes(":") && !v.includes("/"), { error: "must not contain ':' or '/'" });

export const dateTime = z.string();

/** Query-string booleans the service declares as `z.enum(["true", "false"])`; a missing flag means false. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(["true", "false"])])
  .optional()
  .transform((v) => v === true || v === "true");

/**
 * The service's `booleanSchema` (server/routes/sanitizedSchemas.ts @0031d94e), for the query flags
 * it declares with it (a folder list's `recursive`): any string, false only when empty, `0` or
 * `false` in any case (Python clients send `False`); a missing flag is false where the route says
 * `.default(false)`.
 */
export const serviceBoolean = z
  .union([z.boolean(), z.string().trim()])
  .optional()
  .transform((v) =>
    typeof v === "string" ? Boolean(v) && Number(v) !== 0 && v.toLowerCase() !== "false" : v === true,
  );

/** A non-empty string after trimming, as the service's by-name query parameters are. */
export const trimmedNonEmpty = z.string().trim().min(1, { error: "must not be empty" });

/** The body of every error response (docs/service-api.md §6). */
export const ErrorBodySchema = z.object({
  reqId: z.string(),
  statusCode: z.number(),
  message: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]),
  error: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Objects joined into responses; read leniently, like every response (only the key used is required). */
export const ProjectRefSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  type: z.string().optional(),
  slug: z.string().optional(),
});
export const ConnectionRefSchema = z.object({
  id: z.string(),
  app: z.string().optional(),
  name: z.string().optional(),
});
export const EnvironmentRefSchema = z.object({
  slug: z.string(),
  name: z.string().optional(),
  id: z.string().optional(),
});
export const FolderRefSchema = z.object({ path: z.string(), id: z.string().optional() });

/** The objects a sync or a rotation comes back with: its connection, environment and folder. */
export const folderJoins = {
  connection: ConnectionRefSchema.nullish(),
  environment: EnvironmentRefSchema.nullish(),
  folder: FolderRefSchema.nullish(),
};

/**
 * `rotateAtUtc`. The service checks only the ranges, not that the numbers are whole
 * (docs/service-api.md §9).
 */
export const rotateAtUtc = strictObject({
  /** The hour, 0 to 23 (UTC). */
  hours: z.number().min(0, { error: "must be 0 to 23" }).max(23, { error: "must be 0 to 23" }),
  /** The minute, 0 to 59. */
  minutes: z.number().min(0, { error: "must be 0 to 59" }).max(59, { error: "must be 0 to 59" }),
});
export type RotateAtUtc = z.infer<typeof rotateAtUtc>;

/**
 * One value per kind row (its schemas, its operations), built on first use: the factories build
 * fresh schemas on every call.
 */
export function perRow<R extends object, S>(build: (row: R) => S): (row: R) => S {
  const cache = new WeakMap<R, S>();
  return (row) => {
    let s = cache.get(row);
    if (s === undefined) {
      s = build(row);
      cache.set(row, s);
    }
    return s;
  };
}
