import { z } from "zod";
import { nonEmpty, perRow, uuid } from "../common";
import { apiPaths } from "../paths";
import {
  SecretSyncByNameQuery,
  SecretSyncCheckDestinationBody,
  SecretSyncCheckDestinationResult,
  SecretSyncDeleteQuery,
  SecretSyncEnvelope,
  SecretSyncImportQuery,
  SecretSyncListEnvelope,
  SecretSyncListQuery,
  type SyncDestination,
  secretSyncCreateSchema,
  secretSyncUpdateSchema,
} from "../secret-syncs";
import { op } from "./operation";

const syncId = z.object({ syncId: uuid });

/**
 * One destination as `GET /api/v1/secret-syncs/options` lists it (each destination's
 * `*SyncListItemSchema`, services/secret-sync/<destination>/<destination>-sync-schemas.ts). Read
 * leniently: the flags newer servers add are optional, unknown fields are dropped.
 */
export const SecretSyncOptionSchema = z.object({
  /** The destination's display name. */
  name: z.string(),
  /** The destination's slug. */
  destination: z.string(),
  /** The connection kind a sync to it needs. */
  connection: z.string(),
  /** Whether it can import secrets (allows the `import-*` initial sync behaviours). */
  canImportSecrets: z.boolean(),
  /** Whether a delete can remove the synced secrets first (newer servers). */
  canRemoveSecretsOnDeletion: z.boolean().optional(),
  /** Whether `syncOptions.keySchema` applies; absent means it does. */
  supportsKeySchema: z.boolean().optional(),
  /** Whether `syncOptions.disableSecretDeletion` applies; absent means it does. */
  supportsDisableSecretDeletion: z.boolean().optional(),
  /** Needs the enterprise plan. */
  enterprise: z.boolean().optional(),
});
export type SecretSyncOption = z.infer<typeof SecretSyncOptionSchema>;
export const SecretSyncOptionsEnvelope = z.object({ secretSyncOptions: z.array(SecretSyncOptionSchema) });

/**
 * The destinations the service offers: `GET /api/v1/secret-syncs/options` (`listSecretSyncOptions`,
 * server/routes/v1/secret-sync-routers/secret-sync-router.ts and
 * services/secret-sync/secret-sync-fns.ts), sorted by name.
 */
export const secretSyncOptionOperations = {
  list: op({ method: "GET", path: `${apiPaths.allSecretSyncs}/options`, response: SecretSyncOptionsEnvelope }),
};

/** Secret syncs to one destination: `/api/v1/secret-syncs/{destination}`. */
export const secretSyncOperations = perRow((dest: SyncDestination) => {
  const base = apiPaths.secretSyncs(dest.destination);
  /** The job triggers take no body and answer with the sync, its status already `pending`. */
  const trigger = (action: string) =>
    op({ method: "POST", path: `${base}/:syncId/${action}`, params: syncId, response: SecretSyncEnvelope });
  return {
    list: op({ method: "GET", path: base, query: SecretSyncListQuery, response: SecretSyncListEnvelope }),
    get: op({ method: "GET", path: `${base}/:syncId`, params: syncId, response: SecretSyncEnvelope }),
    getByName: op({
      method: "GET",
      path: `${base}/sync-name/:syncName`,
      params: z.object({ syncName: nonEmpty }),
      query: SecretSyncByNameQuery,
      response: SecretSyncEnvelope,
    }),
    create: op({ method: "POST", path: base, body: secretSyncCreateSchema(dest), response: SecretSyncEnvelope }),
    update: op({
      method: "PATCH",
      path: `${base}/:syncId`,
      params: syncId,
      body: secretSyncUpdateSchema(dest),
      response: SecretSyncEnvelope,
    }),
    delete: op({
      method: "DELETE",
      path: `${base}/:syncId`,
      params: syncId,
      query: SecretSyncDeleteQuery,
      response: SecretSyncEnvelope,
    }),
    // A POST that only reads: the read bucket, and safe to repeat.
    checkDestination: op({
      method: "POST",
      path: `${base}/check-destination`,
      body: SecretSyncCheckDestinationBody,
      response: SecretSyncCheckDestinationResult,
      bucket: "read",
      idempotent: true,
    }),
    syncSecrets: trigger("sync-secrets"),
    importSecrets: op({
      method: "POST",
      path: `${base}/:syncId/import-secrets`,
      params: syncId,
      query: SecretSyncImportQuery,
      response: SecretSyncEnvelope,
    }),
    removeSecrets: trigger("remove-secrets"),
  };
});

/**
 * A project's syncs of every destination in one call: `GET /api/v1/secret-syncs?projectId=`
 * (the service's `listSecretSyncs`, server/routes/v1/secret-sync-routers/secret-sync-router.ts).
 * What a refresh and the sync-status waits share (provider/shared-reads.ts).
 */
export const allSecretSyncOperations = {
  list: op({
    method: "GET",
    path: apiPaths.allSecretSyncs,
    query: SecretSyncListQuery,
    response: SecretSyncListEnvelope,
  }),
};
