import { type Transport, segment } from "./http";
import { perRow, requireRow } from "./rows";
import {
  type SecretSync,
  type SecretSyncCheckDestination,
  type SecretSyncDestinationCheck,
  type SyncDestination,
  type SyncDestinationSlug,
  SecretSyncByNameQuery,
  SecretSyncCheckDestinationBody,
  SecretSyncCheckDestinationResult,
  SecretSyncDeleteQuery,
  SecretSyncEnvelope,
  SecretSyncImportQuery,
  SecretSyncListEnvelope,
  SecretSyncListQuery,
  apiPaths,
  genericSyncDestination,
  importBehaviors,
  isSlug,
  nonEmpty,
  secretSyncCreateSchema,
  secretSyncUpdateSchema,
  syncDestination,
  syncDestinationSlugs,
  uuid,
} from "./schemas";
import type { SecretSyncCreateInput, SecretSyncUpdateInput } from "./types";

/** Secret syncs (spec 4.2; reference §2 for reads, delete and the three job triggers). */

const createSchema = perRow((d: SyncDestination) => secretSyncCreateSchema(d));
const updateSchema = perRow((d: SyncDestination) => secretSyncUpdateSchema(d));

/**
 * A known destination's row, or, for any other slug, the generic row (`GenericSecretSync`):
 * its config is passed through and the common rules still apply.
 */
function destinationRow(destination: string): SyncDestination | undefined {
  return syncDestination(destination) ?? (isSlug(destination) ? genericSyncDestination(destination) : undefined);
}

export type ImportBehavior = (typeof importBehaviors)[number];

export class SecretSyncsApi {
  constructor(private readonly t: Transport) {}

  private base(destination: string): string {
    requireRow(destinationRow, destination, "destination", syncDestinationSlugs);
    return apiPaths.secretSyncs(destination);
  }

  async list<D extends SyncDestinationSlug>(destination: D, projectId: string): Promise<SecretSync[]> {
    const res = await this.t.request({
      method: "GET",
      path: this.base(destination),
      query: { projectId },
      querySchema: SecretSyncListQuery,
      responseSchema: SecretSyncListEnvelope,
    });
    return res.secretSyncs;
  }

  async get<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    const res = await this.t.request({
      method: "GET",
      path: `${this.base(destination)}/${segment(id)}`,
      params: { syncId: [id, uuid] },
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }

  /** Find by name within a project (adoption, and resolving an ambiguous create). */
  async getByName<D extends SyncDestinationSlug>(destination: D, name: string, projectId: string): Promise<SecretSync> {
    const res = await this.t.request({
      method: "GET",
      path: `${this.base(destination)}/sync-name/${segment(name)}`,
      params: { syncName: [name, nonEmpty] },
      query: { projectId },
      querySchema: SecretSyncByNameQuery,
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }

  async create<D extends SyncDestinationSlug>(destination: D, body: SecretSyncCreateInput<D>): Promise<SecretSync> {
    const path = this.base(destination);
    const res = await this.t.request({
      method: "POST",
      path,
      body,
      bodySchema: createSchema(destinationRow(destination)!),
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }

  async update<D extends SyncDestinationSlug>(
    destination: D,
    id: string,
    body: SecretSyncUpdateInput<D>,
  ): Promise<SecretSync> {
    const path = `${this.base(destination)}/${segment(id)}`;
    const res = await this.t.request({
      method: "PATCH",
      path,
      params: { syncId: [id, uuid] },
      body,
      bodySchema: updateSchema(destinationRow(destination)!),
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }

  /**
   * With `removeSecrets: true` the service only queues a remove job and deletes the sync when it
   * succeeds (the returned sync has `removeStatus: "pending"`); without it the sync is gone at once.
   */
  async delete<D extends SyncDestinationSlug>(
    destination: D,
    id: string,
    opts: { removeSecrets?: boolean } = {},
  ): Promise<SecretSync> {
    const res = await this.t.request({
      method: "DELETE",
      path: `${this.base(destination)}/${segment(id)}`,
      params: { syncId: [id, uuid] },
      query: opts,
      querySchema: SecretSyncDeleteQuery,
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }

  /**
   * Is another sync of the organization already pushing to this destination? `excludeSyncId`
   * leaves a sync out (the one being changed). A POST in the read rate-limit bucket, safe to
   * repeat: it changes nothing.
   */
  async checkDestination<D extends SyncDestinationSlug>(
    destination: D,
    body: SecretSyncCheckDestination,
  ): Promise<SecretSyncDestinationCheck> {
    return this.t.request({
      method: "POST",
      path: `${this.base(destination)}/check-destination`,
      body,
      bodySchema: SecretSyncCheckDestinationBody,
      responseSchema: SecretSyncCheckDestinationResult,
      bucket: "read",
      idempotent: true,
    });
  }

  /** Queue a sync job; the returned sync has `syncStatus: "pending"`. */
  syncSecrets<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    return this.trigger(destination, id, "sync-secrets");
  }

  /** Queue an import job; the returned sync has `importStatus: "pending"`. */
  importSecrets<D extends SyncDestinationSlug>(
    destination: D,
    id: string,
    importBehavior: ImportBehavior,
  ): Promise<SecretSync> {
    return this.trigger(destination, id, "import-secrets", { importBehavior });
  }

  /** Queue a remove job; the returned sync has `removeStatus: "pending"`. */
  removeSecrets<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    return this.trigger(destination, id, "remove-secrets");
  }

  /**
   * The triggers are POSTs without a body. They are not repeated after a 5xx or timeout (a second
   * job could run): such a failure is `ambiguous`; read the sync's status to find out.
   */
  private async trigger(
    destination: string,
    id: string,
    action: string,
    query?: { importBehavior: ImportBehavior },
  ): Promise<SecretSync> {
    const res = await this.t.request({
      method: "POST",
      path: `${this.base(destination)}/${segment(id)}/${action}`,
      params: { syncId: [id, uuid] },
      ...(query ? { query, querySchema: SecretSyncImportQuery } : {}),
      responseSchema: SecretSyncEnvelope,
    });
    return res.secretSync;
  }
}
