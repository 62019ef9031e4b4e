import { z } from "zod";
import {
  dateTime,
  description,
  environmentSlug,
  folderJoins,
  isSlug,
  nonEmpty,
  queryBoolean,
  secretPath,
  slug,
  strictObject,
  uuid,
} from "./common";
import type { AppConnectionApp } from "./app-connections";
import { type SyncBodyParts, type SyncDestination, syncDestinations } from "./sync-destinations";

export * from "./sync-destinations";

/**
 * Secret syncs (docs/api-spec.md §2.2, 4.2; docs/service-api.md §2). Every destination is one row of
 * `syncDestinations`: its real slug, the connection kind it needs, its `destinationConfig`
 * schema and any extra `syncOptions`. Adding a destination is adding a row.
 */

export const initialSyncBehaviors = [
  "overwrite-destination",
  "import-prioritize-source",
  "import-prioritize-destination",
] as const;

/**
 * `keySchema`: a template, max 255. An empty string means "no schema" and is accepted as the
 * service does (its refine returns true for any falsy value, and its own Terraform provider sends
 * `""` by default); only a non-empty template must contain `{{secretKey}}` and use the allowed
 * characters (docs/service-api.md §2, §9).
 */
export const keySchema = z
  .string()
  .max(255, { error: "must be at most 255 characters" })
  .refine((v) => v === "" || v.includes("{{secretKey}}"), { error: "must contain the {{secretKey}} placeholder" })
  .refine((v) => /^[a-zA-Z0-9_\-/]*$/.test(v.replace(/\{\{(secretKey|environment)\}\}/g, "")), {
    error: "may only contain {{secretKey}}, {{environment}} and the characters a-z A-Z 0-9 _ - /",
  });

export type SyncDestinationSlug = keyof typeof syncDestinations;
/** A row of `syncDestinations`: one this package knows, with its connection kind. */
export type KnownSyncDestination = SyncDestination & { readonly connectionApp: AppConnectionApp };
/** The rows of `syncDestinations`, for code that serves or tests every destination. */
export const knownSyncDestinations: readonly KnownSyncDestination[] = Object.values(syncDestinations);
export const syncDestinationSlugs = Object.keys(syncDestinations) as SyncDestinationSlug[];

/** The row of a destination this package types, if it is one. */
export function knownSyncDestinationRow(slugValue: string): SyncDestination | undefined {
  return Object.hasOwn(syncDestinations, slugValue) ? syncDestination(slugValue) : undefined;
}

function syncDestination(slugValue: string): SyncDestination | undefined {
  return (syncDestinations as Record<string, SyncDestination>)[slugValue];
}

const genericRows = new Map<string, SyncDestination>();

/**
 * A row for a destination this package does not know: its config and extra options are passed
 * through as given, and the common rules still apply. No connection-kind check is possible. One
 * row per slug, so the per-row caches of schemas and operations hold for it too.
 */
function genericSyncDestination(slugValue: string): SyncDestination {
  let row = genericRows.get(slugValue);
  if (!row) {
    row = {
      destination: slugValue,
      label: slugValue,
      family: "Other destination",
      connectionApp: undefined,
      destinationConfig: z.looseObject({}),
      extraSyncOptions: {},
      canImport: true,
      looseSyncOptions: true,
      duplicateCheckIgnores: [],
      example: { destinationConfig: {} },
    };
    genericRows.set(slugValue, row);
  }
  return row;
}

/**
 * The row `GenericSecretSync` sends with, for any slug-shaped destination, a known one too: the
 * generic row, which passes `destinationConfig` and extra `syncOptions` through as given (a field
 * or a value newer than the package); undefined for what is no slug.
 */
export function untypedSyncDestinationRow(slugValue: string): SyncDestination | undefined {
  return isSlug(slugValue) ? genericSyncDestination(slugValue) : undefined;
}

/**
 * The row for a destination slug: a known destination's, or the generic row for any other
 * slug-shaped one (`GenericSecretSync`); undefined for what is no slug.
 */
export function syncDestinationRow(slugValue: string): SyncDestination | undefined {
  return syncDestination(slugValue) ?? (isSlug(slugValue) ? genericSyncDestination(slugValue) : undefined);
}

/** The `syncOptions` every destination has. */
export const commonSyncOptions = {
  /**
   * What the first sync does with what the destination already holds: `overwrite-destination`,
   * `import-prioritize-source` or `import-prioritize-destination` (import, and on a conflict keep
   * the source's or the destination's value).
   */
  initialSyncBehavior: z.enum(initialSyncBehaviors),
  /** A template for the destination's key names, at most 255 characters, containing `{{secretKey}}` (and optionally `{{environment}}`); `""` for none. */
  keySchema: keySchema.optional(),
  /** Never delete secrets from the destination, even when they are deleted at the source. */
  disableSecretDeletion: z.boolean().optional(),
  /** Also sync the subfolders of `secretPath` (newest servers; older ones ignore it). */
  recursive: z.boolean().optional(),
};
export type CommonSyncOptions = z.input<z.ZodObject<typeof commonSyncOptions>>;

/** `syncOptions` for a destination. `initialSyncBehavior` is required, on PATCH too. */
export function syncOptionsSchema(dest: SyncDestination) {
  const shape = { ...commonSyncOptions, ...dest.extraSyncOptions };
  return (dest.looseSyncOptions ? z.looseObject(shape) : strictObject(shape))
    .refine((o) => dest.canImport || o.initialSyncBehavior === "overwrite-destination", {
      error: `${dest.label} only supports the overwrite-destination initial sync behavior`,
      path: ["initialSyncBehavior"],
    })
    .refine((o) => !o.recursive || o.initialSyncBehavior === "overwrite-destination", {
      // The service's words (docs/service-api.md §9).
      error:
        "A sync that includes subfolders cannot also import existing secrets from the destination, because there is no single folder to import them into. Turn off subfolders, or set the first sync to overwrite the destination.",
      path: ["recursive"],
    });
}

export const syncName = slug("name", 256);

/**
 * A create or update body with the destination's body rules (`bodyRules`): what the service's
 * `superRefine` on its per-destination create and update schemas checks across
 * `destinationConfig` and `syncOptions`. Like the service's, they run once the parts are valid.
 */
function withBodyRules<S extends z.ZodObject>(dest: SyncDestination, schema: S): S {
  const rules = dest.bodyRules ?? [];
  if (rules.length === 0) return schema;
  return schema.superRefine((body, ctx) => {
    for (const rule of rules) {
      if (rule.breaks(body as SyncBodyParts))
        ctx.addIssue({ code: "custom", message: rule.message, path: [...rule.path] });
    }
  });
}

/** POST /api/v1/secret-syncs/{destination} body. */
export function secretSyncCreateSchema(dest: SyncDestination) {
  return withBodyRules(
    dest,
    strictObject({
      /** The sync's name: 1 to 256 characters, lowercase letters, digits and single hyphens. Unique in its project; renaming updates in place. */
      name: syncName,
      /** The project the sync belongs to. Changing it replaces the sync. */
      projectId: nonEmpty,
      /** The app connection (UUID) the sync writes through; it must be of the destination's kind. */
      connectionId: uuid,
      /** Slug of the source environment, 1 to 64 characters. */
      environment: environmentSlug,
      /** The source folder's path (a trailing slash is removed). */
      secretPath,
      /** How the sync behaves: `initialSyncBehavior` is required. */
      syncOptions: syncOptionsSchema(dest),
      /** Where the secrets go, in the destination's terms. */
      destinationConfig: dest.destinationConfig,
      /** At most 256 characters. */
      description: description(256).optional(),
      /** Sync whenever the source changes. Default true. */
      isAutoSyncEnabled: z.boolean().default(true),
    }),
  );
}
export type SecretSyncCreate = z.input<ReturnType<typeof secretSyncCreateSchema>>;

/** PATCH /api/v1/secret-syncs/{destination}/{syncId} body: all optional; projectId and destination are immutable. */
export function secretSyncUpdateSchema(dest: SyncDestination) {
  return withBodyRules(
    dest,
    strictObject({
      name: syncName.optional(),
      connectionId: uuid.optional(),
      description: description(256).optional(),
      environment: environmentSlug.optional(),
      secretPath: secretPath.optional(),
      isAutoSyncEnabled: z.boolean().optional(),
      syncOptions: syncOptionsSchema(dest).optional(),
      destinationConfig: dest.destinationConfig.optional(),
    }),
  );
}
export type SecretSyncUpdate = z.input<ReturnType<typeof secretSyncUpdateSchema>>;

export const syncJobStatuses = ["pending", "running", "succeeded", "failed"] as const;
/** The job statuses this package knows; see `jobStatus` for how responses are read. */
export const SyncJobStatusSchema = z.enum(syncJobStatuses);
export type SyncJobStatus = z.infer<typeof SyncJobStatusSchema>;

/**
 * A job status as read from a response: a value this package does not know (a newer server's, or
 * an old server's `success`) is passed through, never an error. Null before the first job; absent
 * on servers that spell the remove job `erase*`.
 */
const jobStatus = z.string().nullish();

/**
 * The job fields of a sync no job has run for yet, as a create returns it: every status, job id,
 * message and time null. The emulator makes new syncs with it, and the SDK's tests their responses.
 */
export const noSyncJobsYet = {
  syncStatus: null,
  lastSyncJobId: null,
  lastSyncMessage: null,
  lastSyncedAt: null,
  importStatus: null,
  lastImportJobId: null,
  lastImportMessage: null,
  lastImportedAt: null,
  removeStatus: null,
  lastRemoveJobId: null,
  lastRemoveMessage: null,
  lastRemovedAt: null,
} as const;

/**
 * A secret sync as returned. Read leniently: unknown fields are dropped, fields older servers do
 * not return are optional, statuses are passed through. Only what an operation cannot do without
 * (the id, the name, the destination, the project) is required.
 */
export const SecretSyncSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string().nullish(),
  destination: z.string(),
  isAutoSyncEnabled: z.boolean(),
  version: z.number().optional(),
  destinationConfig: z.record(z.string(), z.unknown()),
  syncOptions: z.looseObject({ initialSyncBehavior: z.string().optional() }),
  projectId: z.string(),
  folderId: z.string().nullish(),
  connectionId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  syncStatus: jobStatus,
  lastSyncJobId: z.string().nullish(),
  lastSyncMessage: z.string().nullish(),
  lastSyncedAt: dateTime.nullish(),
  importStatus: jobStatus,
  lastImportJobId: z.string().nullish(),
  lastImportMessage: z.string().nullish(),
  lastImportedAt: dateTime.nullish(),
  removeStatus: jobStatus,
  lastRemoveJobId: z.string().nullish(),
  lastRemoveMessage: z.string().nullish(),
  lastRemovedAt: dateTime.nullish(),
  ...folderJoins,
});
export type SecretSync = z.infer<typeof SecretSyncSchema>;

export const SecretSyncEnvelope = z.object({ secretSync: SecretSyncSchema });
export const SecretSyncListEnvelope = z.object({ secretSyncs: z.array(SecretSyncSchema) });

/** A value as one string whatever its objects' key order, without undefined members. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A sync's destination as one comparable string: the destination and its config without the
 * fields the service's duplicate check skips (`duplicateCheckIgnores`). Syncs with different keys
 * never push to the same place; syncs with one key do when `sameDestination` says so.
 */
export function destinationKey(dest: SyncDestination, destinationConfig: Record<string, unknown>): string {
  const place = Object.fromEntries(
    Object.entries(destinationConfig).filter(([k]) => !dest.duplicateCheckIgnores.includes(k)),
  );
  return `${dest.destination} ${canonicalJson(place)}`;
}

/**
 * The service's duplicate rule for two syncs of one destination (its `checkDuplicateDestination`,
 * services/secret-sync/secret-sync-service.ts): their configs are deeply equal but for the fields
 * it skips, and the destination's own rule, if any, agrees (docs/service-api.md §2). The
 * connection is not part of it here: the service's newest rule hands both syncs' connections to
 * the destination's function, which only the service can run (it decrypts them).
 */
export function sameDestination(
  dest: SyncDestination,
  existing: Record<string, unknown>,
  candidate: Record<string, unknown>,
): boolean {
  // A top-level string or boolean that differs (in a field the check does not skip) decides it
  // without the canonical forms: a create compares itself with every sync of its project's list.
  for (const [k, v] of Object.entries(candidate)) {
    if (
      (typeof v === "string" || typeof v === "boolean") &&
      existing[k] !== v &&
      !dest.duplicateCheckIgnores.includes(k)
    )
      return false;
  }
  return (
    destinationKey(dest, existing) === destinationKey(dest, candidate) &&
    (dest.sameDestination?.(existing, candidate) ?? true)
  );
}

export const SecretSyncListQuery = z.object({ projectId: nonEmpty });
export const SecretSyncByNameQuery = z.object({ projectId: nonEmpty });
export const SecretSyncDeleteQuery = z.object({ removeSecrets: queryBoolean });
export const importBehaviors = ["prioritize-source", "prioritize-destination"] as const;
export const SecretSyncImportQuery = z.object({ importBehavior: z.enum(importBehaviors) });

/**
 * POST /api/v1/secret-syncs/{destination}/check-destination body: is another sync of the
 * organization already pushing to this destination? (docs/service-api.md §2; the service reads
 * `destinationConfig` as unknown.)
 */
export const SecretSyncCheckDestinationBody = strictObject({
  destinationConfig: z.record(z.string(), z.unknown()),
  /**
   * The connection the sync writes through: the service's newest rule hands it to the
   * destination's own duplicate function (routes/v1/secret-sync-routers/secret-sync-endpoints.ts);
   * older servers drop the key.
   */
  connectionId: uuid.optional(),
  projectId: uuid,
  excludeSyncId: uuid.optional(),
});
export type SecretSyncCheckDestination = z.input<typeof SecretSyncCheckDestinationBody>;
/** Its answer (no resource key). */
export const SecretSyncCheckDestinationResult = z.object({
  hasDuplicate: z.boolean(),
  duplicateProjectId: z.string().nullish(),
});
export type SecretSyncDestinationCheck = z.infer<typeof SecretSyncCheckDestinationResult>;
