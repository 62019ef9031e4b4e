import { z } from "zod";
import {
  ConnectionRefSchema,
  EnvironmentRefSchema,
  FolderRefSchema,
  dateTime,
  description,
  environmentSlug,
  nonEmpty,
  queryBoolean,
  secretPath,
  slug,
  uuid,
} from "./common";

/**
 * Secret syncs (spec 2.2, 4.2; reference §2). Every destination is one row of
 * `syncDestinations`: its real slug, the connection kind it needs, its `destinationConfig`
 * schema and any extra `syncOptions`. Adding a destination is adding a row.
 */

export const initialSyncBehaviors = [
  "overwrite-destination",
  "import-prioritize-source",
  "import-prioritize-destination",
] as const;

/** `keySchema`: a template that must contain `{{secretKey}}`, max 255 (reference §2). */
export const keySchema = z
  .string()
  .max(255, { error: "must be at most 255 characters" })
  .refine((v) => v.includes("{{secretKey}}"), { error: "must contain the {{secretKey}} placeholder" })
  .refine((v) => /^[a-zA-Z0-9_\-/]*$/.test(v.replace(/\{\{(secretKey|environment)\}\}/g, "")), {
    error: "may only contain {{secretKey}}, {{environment}} and the characters a-z A-Z 0-9 _ - /",
  });

export interface SyncDestination {
  /** The real slug: the `{destination_slug}` path segment and the `destination` field. */
  readonly destination: string;
  readonly label: string;
  /** The spec's generic name for the destination. */
  readonly family: string;
  /** The app-connection kind (slug) a sync to this destination needs. */
  readonly connectionApp: string;
  readonly destinationConfig: z.ZodObject;
  /** Destination-specific `syncOptions` beside the common ones. */
  readonly extraSyncOptions: z.ZodRawShape;
  /** Whether the destination can import (allows the `import-*` initial behaviours). */
  readonly canImport: boolean;
  /** Pass unknown `syncOptions` keys through (the generic row only). */
  readonly looseSyncOptions?: boolean;
}

export const syncDestinations = {
  vercel: {
    destination: "vercel",
    label: "Vercel",
    family: "Deployment platform",
    connectionApp: "vercel",
    destinationConfig: z.object({
      scope: z.string().optional(),
      app: nonEmpty,
      appName: nonEmpty,
      env: nonEmpty,
      teamId: z.string(),
      branch: z.string().optional(),
    }),
    extraSyncOptions: {},
    canImport: true,
  },
  "azure-app-configuration": {
    destination: "azure-app-configuration",
    label: "Azure App Configuration",
    family: "Configuration store",
    connectionApp: "azure-app-configuration",
    destinationConfig: z.object({ configurationUrl: z.url({ error: "must be a URL" }), label: z.string().optional() }),
    extraSyncOptions: {},
    canImport: true,
  },
  "azure-key-vault": {
    destination: "azure-key-vault",
    label: "Azure Key Vault",
    family: "Cloud key vault",
    connectionApp: "azure-key-vault",
    destinationConfig: z.object({ vaultBaseUrl: z.url({ error: "must be a URL" }) }),
    extraSyncOptions: { disableCertificateImport: z.boolean().optional() },
    canImport: true,
  },
} as const satisfies Record<string, SyncDestination>;

export type SyncDestinationSlug = keyof typeof syncDestinations;
export const syncDestinationSlugs = Object.keys(syncDestinations) as SyncDestinationSlug[];

export function syncDestination(slugValue: string): SyncDestination | undefined {
  return (syncDestinations as Record<string, SyncDestination>)[slugValue];
}

/**
 * A row for a destination this package does not know: its config and extra options are passed
 * through as given, and the common rules still apply. No connection-kind check is possible.
 */
export function genericSyncDestination(slugValue: string): SyncDestination {
  return {
    destination: slugValue,
    label: slugValue,
    family: "Other destination",
    connectionApp: slugValue,
    destinationConfig: z.looseObject({}),
    extraSyncOptions: {},
    canImport: true,
    looseSyncOptions: true,
  };
}

/** The `syncOptions` every destination has. */
export const commonSyncOptions = {
  initialSyncBehavior: z.enum(initialSyncBehaviors),
  keySchema: keySchema.optional(),
  disableSecretDeletion: z.boolean().optional(),
};
export type CommonSyncOptions = z.input<z.ZodObject<typeof commonSyncOptions>>;

/** `syncOptions` for a destination. `initialSyncBehavior` is required, on PATCH too. */
export function syncOptionsSchema(dest: SyncDestination) {
  const shape = { ...commonSyncOptions, ...dest.extraSyncOptions };
  return (dest.looseSyncOptions ? z.looseObject(shape) : z.object(shape)).refine(
    (o) => dest.canImport || o.initialSyncBehavior === "overwrite-destination",
    {
      error: `${dest.label} only supports the overwrite-destination initial sync behavior`,
      path: ["initialSyncBehavior"],
    },
  );
}

export const syncName = slug("name", 256);

/** POST /api/v1/secret-syncs/{destination} body. */
export function secretSyncCreateSchema(dest: SyncDestination) {
  return z.object({
    name: syncName,
    projectId: nonEmpty,
    connectionId: uuid,
    environment: environmentSlug,
    secretPath,
    syncOptions: syncOptionsSchema(dest),
    destinationConfig: dest.destinationConfig,
    description: description(256).optional(),
    isAutoSyncEnabled: z.boolean().default(true),
  });
}
export type SecretSyncCreate = z.input<ReturnType<typeof secretSyncCreateSchema>>;

/** PATCH /api/v1/secret-syncs/{destination}/{syncId} body: all optional; projectId and destination are immutable. */
export function secretSyncUpdateSchema(dest: SyncDestination) {
  return z.object({
    name: syncName.optional(),
    connectionId: uuid.optional(),
    description: description(256).optional(),
    environment: environmentSlug.optional(),
    secretPath: secretPath.optional(),
    isAutoSyncEnabled: z.boolean().optional(),
    syncOptions: syncOptionsSchema(dest).optional(),
    destinationConfig: dest.destinationConfig.optional(),
  });
}
export type SecretSyncUpdate = z.input<ReturnType<typeof secretSyncUpdateSchema>>;

/** The PATCH body fields; every other create field forces replacement. */
export const secretSyncUpdatableFields = [
  "name",
  "connectionId",
  "description",
  "environment",
  "secretPath",
  "isAutoSyncEnabled",
  "syncOptions",
  "destinationConfig",
] as const;

export const syncJobStatuses = ["pending", "running", "succeeded", "failed"] as const;
export const SyncJobStatusSchema = z.enum(syncJobStatuses);
export type SyncJobStatus = z.infer<typeof SyncJobStatusSchema>;

/** A secret sync as returned. */
export const SecretSyncSchema = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  destination: z.string(),
  isAutoSyncEnabled: z.boolean(),
  version: z.number().int(),
  destinationConfig: z.record(z.string(), z.unknown()),
  syncOptions: z.object({ initialSyncBehavior: z.string() }).catchall(z.unknown()),
  projectId: z.string(),
  folderId: z.string().nullable(),
  connectionId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  syncStatus: SyncJobStatusSchema.nullable(),
  lastSyncJobId: z.string().nullable(),
  lastSyncMessage: z.string().nullable(),
  lastSyncedAt: dateTime.nullable(),
  importStatus: SyncJobStatusSchema.nullable(),
  lastImportJobId: z.string().nullable(),
  lastImportMessage: z.string().nullable(),
  lastImportedAt: dateTime.nullable(),
  removeStatus: SyncJobStatusSchema.nullable(),
  lastRemoveJobId: z.string().nullable(),
  lastRemoveMessage: z.string().nullable(),
  lastRemovedAt: dateTime.nullable(),
  connection: ConnectionRefSchema,
  environment: EnvironmentRefSchema.nullable(),
  folder: FolderRefSchema.nullable(),
});
export type SecretSync = z.infer<typeof SecretSyncSchema>;

export const SecretSyncEnvelope = z.object({ secretSync: SecretSyncSchema });
export const SecretSyncListEnvelope = z.object({ secretSyncs: z.array(SecretSyncSchema) });

export const SecretSyncListQuery = z.object({ projectId: nonEmpty });
export const SecretSyncByNameQuery = z.object({ projectId: nonEmpty });
export const SecretSyncDeleteQuery = z.object({ removeSecrets: queryBoolean });
export const importBehaviors = ["prioritize-source", "prioritize-destination"] as const;
export const SecretSyncImportQuery = z.object({ importBehavior: z.enum(importBehaviors) });
