import { z } from "zod";
import {
  dateTime,
  description,
  environmentSlug,
  folderJoins,
  nonEmpty,
  queryBoolean,
  rotateAtUtc,
  secretPath,
  slug,
  strictObject,
  trimmedNonEmpty,
  uuid,
} from "./common";
import { type RotationCreateParts, type RotationType, rotationTypes } from "./rotation-types";

export * from "./rotation-types";

/**
 * Secret rotations v2 (docs/api-spec.md §2.3, 4.3; docs/service-api.md §3). Every rotation type is one row of
 * `rotationTypes`: its real slug, the connection kind it needs, and the schemas of its
 * `parameters`, `secretsMapping` and generated credentials. Adding a type is adding a row.
 */

export type RotationTypeSlug = keyof typeof rotationTypes;
export const rotationTypeSlugs = Object.keys(rotationTypes) as RotationTypeSlug[];

export function rotationType(type: string): RotationType | undefined {
  return Object.hasOwn(rotationTypes, type) ? (rotationTypes as Record<string, RotationType>)[type] : undefined;
}

export const rotationName = slug("name", 64);
const rotationInterval = z.coerce.number().min(1, { error: "must be at least 1 (days)" });

/**
 * A create body with the type's create rules (`createRules`): the service's `superRefine` on its
 * per-type create schema. Like the service's, they run once the parts are valid.
 */
function withCreateRules<S extends z.ZodObject>(type: RotationType, schema: S): S {
  const rules = type.createRules ?? [];
  if (rules.length === 0) return schema;
  return schema.superRefine((body, ctx) => {
    for (const rule of rules) {
      if (rule.breaks(body as RotationCreateParts))
        ctx.addIssue({ code: "custom", message: rule.message, path: [...rule.path] });
    }
  });
}

/** POST /api/v2/secret-rotations/{type} body. */
export function secretRotationCreateSchema(type: RotationType) {
  return withCreateRules(
    type,
    strictObject({
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
    }),
  );
}
export type SecretRotationCreate = z.input<ReturnType<typeof secretRotationCreateSchema>>;

/** PATCH body: connectionId, environment, secretPath, projectId and type are immutable. */
export function secretRotationUpdateSchema(type: RotationType) {
  return strictObject({
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
