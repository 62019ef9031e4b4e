import { z } from "zod";
import {
  folderJoins,
  dateTime,
  description,
  environmentSlug,
  nonEmpty,
  queryBoolean,
  rotateAtUtc,
  secretName,
  trimmedNonEmpty,
  secretPath,
  slug,
  uuid,
} from "./common";
import type { AppConnectionApp } from "./app-connections";

/**
 * Secret rotations v2 (docs/api-spec.md §2.3, 4.3; docs/service-api.md §3). Every rotation type is one row of
 * `rotationTypes`: its real slug, the connection kind it needs, and the schemas of its
 * `parameters`, `secretsMapping` and generated credentials. Adding a type is adding a row.
 */

/**
 * `passwordRequirements` (docs/service-api.md §3, §9): ranges only, no whole-number rule. Optional in every type's
 * parameters; the service applies `defaultPasswordRequirements` only when it generates a password
 * and stores the parameters as sent, so the SDK never fills it in.
 */
export const passwordRequirements = z
  .object({
    /** Length of a generated password, 1 to 250. */
    length: z.number().min(1, { error: "must be 1 to 250" }).max(250, { error: "must be 1 to 250" }),
    /** How many characters of each class a password must have, at least one of them above 0. */
    required: z.object({
      /** At least this many digits. */
      digits: z.number().min(0, { error: "must be at least 0" }),
      /** At least this many lowercase letters. */
      lowercase: z.number().min(0, { error: "must be at least 0" }),
      /** At least this many uppercase letters. */
      uppercase: z.number().min(0, { error: "must be at least 0" }),
      /** At least this many symbols. */
      symbols: z.number().min(0, { error: "must be at least 0" }),
    }),
    /** The symbols a password may contain. */
    allowedSymbols: z.string().optional(),
  })
  .refine((p) => Object.values(p.required).some((n) => n > 0), {
    error: "at least one required character count must be above 0",
    path: ["required"],
  })
  .refine((p) => Object.values(p.required).reduce((a, b) => a + b, 0) <= p.length, {
    error: "the required character counts must not add up to more than length",
    path: ["required"],
  });
export type PasswordRequirements = z.infer<typeof passwordRequirements>;

/** What the service generates passwords with when a rotation has no `passwordRequirements`. */
export const defaultPasswordRequirements: PasswordRequirements = {
  length: 48,
  required: { lowercase: 1, uppercase: 1, digits: 1, symbols: 0 },
  allowedSymbols: "-_.~!*",
};

/** A SQL rotation statement: must use {{username}} and {{password}}, and no other variable but {{database}}. */
const rotationStatement = z
  .string()
  .refine((s) => s.includes("{{username}}") && s.includes("{{password}}"), {
    error: "must contain {{username}} and {{password}}",
  })
  .refine(
    (s) =>
      [...s.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].every((m) => ["username", "password", "database"].includes(m[1]!)),
    {
      error: "may only use the variables {{username}}, {{password}} and {{database}}",
    },
  );

const str = z.string().trim().min(1, { error: "must not be empty" });

const sqlParameters = z.object({
  /** The first of two existing database users the rotation uses alternately. */
  username1: str,
  /** The second user: while apps use one, the other's password is rotated. */
  username2: str,
  /** The statement that sets a password, using `{{username}}` and `{{password}}` (and optionally `{{database}}`). */
  rotationStatement: rotationStatement.optional(),
  /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
  passwordRequirements: passwordRequirements.optional(),
});
const usernamePasswordMapping = z.object({
  /** The secret the active username is written to. */
  username: secretName,
  /** The secret the active password is written to. */
  password: secretName,
});
const usernamePassword = z.object({ username: z.string(), password: z.string() });

export interface RotationType {
  /** The real slug: the `{rotation_slug}` path segment and the `type` field. */
  readonly type: string;
  readonly label: string;
  /** The spec's generic name for the type. */
  readonly family: string;
  /** The app-connection kind a rotation of this type needs. */
  readonly connectionApp: AppConnectionApp;
  readonly parameters: z.ZodType<Record<string, unknown>>;
  readonly secretsMapping: z.ZodObject;
  /** Shape of one generated credential set; `secretFields` are secret. */
  readonly generatedCredentials: z.ZodObject;
  readonly secretFields: readonly string[];
  /** Valid `parameters`: the emulator's tests and the SDK's per-kind tests are built from it. */
  readonly example: { readonly parameters: Record<string, unknown> };
}

/**
 * Declares a rotation type's row. Typed so that the connection kind is one of
 * `appConnectionKinds` and the example a valid input of the row's own `parameters` schema.
 */
function rotationRow<
  const P extends z.ZodType<Record<string, unknown>>,
  const M extends z.ZodObject,
  const G extends z.ZodObject,
>(
  row: Omit<RotationType, "parameters" | "secretsMapping" | "generatedCredentials" | "example"> & {
    parameters: P;
    secretsMapping: M;
    generatedCredentials: G;
    example: { parameters: z.input<P> };
  },
) {
  return row;
}

const sqlType = (
  type: string,
  label: string,
  connectionApp: AppConnectionApp,
  example: z.input<typeof sqlParameters>,
) =>
  rotationRow({
    type,
    label,
    family: "SQL database credentials",
    connectionApp,
    parameters: sqlParameters,
    secretsMapping: usernamePasswordMapping,
    generatedCredentials: usernamePassword,
    secretFields: ["password"],
    example: { parameters: example },
  });

export const rotationTypes = {
  "postgres-credentials": sqlType("postgres-credentials", "PostgreSQL Credentials", "postgres", {
    username1: "app_user_a",
    username2: "app_user_b",
  }),
  "mssql-credentials": sqlType("mssql-credentials", "Microsoft SQL Server Credentials", "mssql", {
    username1: "app_user_a",
    username2: "app_user_b",
    rotationStatement: "ALTER LOGIN [{{username}}] WITH PASSWORD = '{{password}}'",
  }),
  "mysql-credentials": sqlType("mysql-credentials", "MySQL Credentials", "mysql", {
    username1: "app_user_a",
    username2: "app_user_b",
    rotationStatement: "ALTER USER {{username}} IDENTIFIED BY '{{password}}'",
  }),
  "redis-credentials": rotationRow({
    type: "redis-credentials",
    label: "Redis Credentials",
    family: "Key-value store credentials",
    connectionApp: "redis",
    parameters: z.object({
      /** The ACL rules of the rotated user, e.g. `~cache:* +get +set`. */
      permissionScope: str,
      /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
      passwordRequirements: passwordRequirements.optional(),
    }),
    secretsMapping: usernamePasswordMapping,
    generatedCredentials: usernamePassword,
    secretFields: ["password"],
    example: { parameters: { permissionScope: "~* +@all" } },
  }),
  "azure-client-secret": rotationRow({
    type: "azure-client-secret",
    label: "Azure Client Secret",
    family: "Cloud app registration client secret",
    connectionApp: "azure-client-secrets",
    parameters: z.object({
      /** The app registration's object id. */
      objectId: str,
      /** The app registration's application (client) id. */
      clientId: str,
      /** The app registration's name, for display. */
      appName: z.string().optional(),
    }),
    secretsMapping: z.object({
      /** The secret the client id is written to. */
      clientId: secretName,
      /** The secret the client secret is written to. */
      clientSecret: secretName,
    }),
    generatedCredentials: z.object({ clientId: z.string(), clientSecret: z.string(), keyId: z.string() }),
    secretFields: ["clientSecret"],
    example: { parameters: { objectId: "obj-1", clientId: "client-1", appName: "my-app" } },
  }),
} satisfies Record<string, RotationType>;

export type RotationTypeSlug = keyof typeof rotationTypes;
export const rotationTypeSlugs = Object.keys(rotationTypes) as RotationTypeSlug[];

export function rotationType(type: string): RotationType | undefined {
  return (rotationTypes as Record<string, RotationType>)[type];
}

export const rotationName = slug("name", 64);
const rotationInterval = z.coerce.number().min(1, { error: "must be at least 1 (days)" });

/** POST /api/v2/secret-rotations/{type} body. */
export function secretRotationCreateSchema(type: RotationType) {
  return z.object({
    /** The rotation's name: 1 to 64 characters, lowercase letters, digits and single hyphens. Unique in its folder; renaming updates in place. */
    name: rotationName,
    /** The project. Changing it replaces the rotation. */
    projectId: nonEmpty,
    /** The app connection (UUID) of the type's kind the credentials are rotated through. Changing it replaces the rotation. */
    connectionId: uuid,
    /** Slug of the environment the secrets are written to, 1 to 64 characters. Changing it replaces the rotation. */
    environment: environmentSlug,
    /** The folder the secrets are written to. Changing it replaces the rotation. */
    secretPath,
    /** Days between rotations, at least 1. */
    rotationInterval,
    /** The type's parameters: which credential is rotated, and how. */
    parameters: type.parameters,
    /** The names of the secrets the credentials are written to (no `:` or `/`). */
    secretsMapping: type.secretsMapping,
    /** At most 256 characters. */
    description: description(256).optional(),
    /** Rotate on schedule. Default true. */
    isAutoRotationEnabled: z.boolean().default(true),
    /** The UTC time of day to rotate at: `hours` 0 to 23, `minutes` 0 to 59. Default 00:00. */
    rotateAtUtc: rotateAtUtc.default({ hours: 0, minutes: 0 }),
  });
}
export type SecretRotationCreate = z.input<ReturnType<typeof secretRotationCreateSchema>>;

/** PATCH body: connectionId, environment, secretPath, projectId and type are immutable. */
export function secretRotationUpdateSchema(type: RotationType) {
  return z.object({
    name: rotationName.optional(),
    description: description(256).optional(),
    isAutoRotationEnabled: z.boolean().optional(),
    rotationInterval: rotationInterval.optional(),
    rotateAtUtc: rotateAtUtc.optional(),
    parameters: type.parameters.optional(),
    secretsMapping: type.secretsMapping.optional(),
  });
}
export type SecretRotationUpdate = z.input<ReturnType<typeof secretRotationUpdateSchema>>;

/** `rotationStatus` values this package knows (there is no pending or running state). */
export const rotationStatuses = ["success", "failed"] as const;

/**
 * A secret rotation as returned. Read leniently: unknown fields are dropped, a status this
 * package does not know is passed through, and fields older servers may lack are optional.
 */
export const SecretRotationSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().nullish(),
  type: z.string(),
  projectId: z.string(),
  folderId: z.string().nullish(),
  connectionId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  rotationInterval: z.number(),
  rotateAtUtc: z.object({ hours: z.number(), minutes: z.number() }).nullish(),
  isAutoRotationEnabled: z.boolean(),
  parameters: z.record(z.string(), z.unknown()),
  secretsMapping: z.record(z.string(), z.string()),
  activeIndex: z.number().optional(),
  rotationStatus: z.string().nullish(),
  lastRotationAttemptedAt: dateTime.nullish(),
  lastRotatedAt: dateTime.nullish(),
  lastRotationMessage: z.string().nullish(),
  lastRotationJobId: z.string().nullish(),
  nextRotationAt: dateTime.nullish(),
  isLastRotationManual: z.boolean().optional(),
  ...folderJoins,
});
export type SecretRotation = z.infer<typeof SecretRotationSchema>;

export const SecretRotationEnvelope = z.object({ secretRotation: SecretRotationSchema });
export const SecretRotationListEnvelope = z.object({ secretRotations: z.array(SecretRotationSchema) });
export const SecretRotationListQuery = z.object({ projectId: nonEmpty });
/**
 * GET …/rotation-name/{name} query: three trimmed non-empty strings, no slug rule
 * (docs/service-api.md §9). A folder that does not exist is a 400 from the service, not a 404.
 */
export const SecretRotationByNameQuery = z.object({
  projectId: trimmedNonEmpty,
  // Sent without a trailing slash, as the rotation was created (never a reason to refuse).
  secretPath: trimmedNonEmpty.pipe(secretPath),
  environment: trimmedNonEmpty,
});
export const SecretRotationDeleteQuery = z.object({
  deleteSecrets: queryBoolean,
  revokeGeneratedCredentials: queryBoolean,
});

export const GeneratedCredentialsResponseSchema = z.object({
  generatedCredentials: z.array(z.record(z.string(), z.string())).min(1).max(2),
  activeIndex: z.number(),
  rotationId: z.string(),
  type: z.string(),
});
export type GeneratedCredentialsResponse = z.infer<typeof GeneratedCredentialsResponseSchema>;

/**
 * `nextRotationAt` (docs/service-api.md §3): the day of the last rotation at the `rotateAtUtc` time, plus
 * `rotationInterval` days, plus one more day if that rotation happened at or after that time of
 * its day. Null when auto-rotation is off. After a failure: the next UTC day at `rotateAtUtc`.
 */
export function computeNextRotationAt(
  lastRotationAt: Date,
  rotationIntervalDays: number,
  at: { hours: number; minutes: number },
  opts: { isAutoRotationEnabled: boolean; failed?: boolean },
): Date | null {
  if (!opts.isAutoRotationEnabled) return null;
  const dayAt = new Date(
    Date.UTC(
      lastRotationAt.getUTCFullYear(),
      lastRotationAt.getUTCMonth(),
      lastRotationAt.getUTCDate(),
      at.hours,
      at.minutes,
    ),
  );
  const DAY = 24 * 60 * 60 * 1000;
  if (opts.failed) return new Date(dayAt.getTime() + DAY);
  const extra = lastRotationAt.getTime() >= dayAt.getTime() ? 1 : 0;
  return new Date(dayAt.getTime() + (rotationIntervalDays + extra) * DAY);
}
