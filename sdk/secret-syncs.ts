import type { Transport } from "./http";
import { requireRow } from "./rows";
import {
  type SecretSyncOption,
  allSecretSyncOperations,
  secretSyncOperations,
  secretSyncOptionOperations,
} from "./schemas/operations/secret-syncs";
import {
  type SecretSync,
  type SecretSyncCheckDestination,
  type SecretSyncDestinationCheck,
  type SyncDestinationSlug,
  importBehaviors,
  type SyncDestination,
  syncDestinationRow,
  syncDestinationSlugs,
  untypedSyncDestinationRow,
} from "./schemas/secret-syncs";
import type { SecretSyncCreateInput, SecretSyncUpdateInput } from "./types";

export type ImportBehavior = (typeof importBehaviors)[number];

/** Secret syncs: one client for every destination, each call one row of `secretSyncOperations`. */
export class SecretSyncsApi {
  constructor(
    private readonly t: Transport,
    private readonly rowOf: (slug: string) => SyncDestination | undefined = syncDestinationRow,
  ) {}

  private ops(destination: string) {
    return secretSyncOperations(requireRow(this.rowOf, destination, "destination", syncDestinationSlugs));
  }

  /**
   * The same client sending `destinationConfig` and extra `syncOptions` as given, for any
   * slug-shaped destination, also one this package types: a field newer than the package reaches
   * the service, which is the judge (`GenericSecretSync`). The fields every sync has are checked.
   */
  untyped(): SecretSyncsApi {
    return new SecretSyncsApi(this.t, untypedSyncDestinationRow);
  }

  async list<D extends SyncDestinationSlug>(destination: D, projectId: string): Promise<SecretSync[]> {
    return (await this.t.call(this.ops(destination).list, { query: { projectId } })).secretSyncs;
  }

  /**
   * The project's syncs of every destination, in one call (one read of the rate limit, where
   * `list` costs one per destination). A sync of a destination this package has no row for is
   * listed too.
   */
  async listAll(projectId: string): Promise<SecretSync[]> {
    return (await this.t.call(allSecretSyncOperations.list, { query: { projectId } })).secretSyncs;
  }

  /**
   * The destinations the server offers, sorted by name: each one's slug, name, connection kind and
   * whether it can import (`GET /api/v1/secret-syncs/options`). One read; it takes no project. A
   * destination newer than this package is listed too.
   */
  async listOptions(): Promise<SecretSyncOption[]> {
    return (await this.t.call(secretSyncOptionOperations.list, {})).secretSyncOptions;
  }

  async get<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).get, { params: { syncId: id } })).secretSync;
  }

  /** Find by name within a project (adoption, and resolving an ambiguous create). */
  async getByName<D extends SyncDestinationSlug>(destination: D, name: string, projectId: string): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).getByName, { params: { syncName: name }, query: { projectId } }))
      .secretSync;
  }

  async create<D extends SyncDestinationSlug>(destination: D, body: SecretSyncCreateInput<D>): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).create, { body })).secretSync;
  }

  async update<D extends SyncDestinationSlug>(
    destination: D,
    id: string,
    body: SecretSyncUpdateInput<D>,
  ): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).update, { params: { syncId: id }, body })).secretSync;
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
    return (await this.t.call(this.ops(destination).delete, { params: { syncId: id }, query: opts })).secretSync;
  }

  /**
   * Is another sync of the organization already pushing to this destination? `excludeSyncId`
   * leaves a sync out (the one being changed).
   */
  async checkDestination<D extends SyncDestinationSlug>(
    destination: D,
    body: SecretSyncCheckDestination,
  ): Promise<SecretSyncDestinationCheck> {
    return this.t.call(this.ops(destination).checkDestination, { body });
  }

  /**
   * The job triggers queue a job; the returned sync has the job's status `pending`. They are not
   * repeated after a 5xx or timeout (a second job could run): such a failure is `ambiguous`; read
   * the sync's status to find out.
   */
  async syncSecrets<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).syncSecrets, { params: { syncId: id } })).secretSync;
  }

  async importSecrets<D extends SyncDestinationSlug>(
    destination: D,
    id: string,
    importBehavior: ImportBehavior,
  ): Promise<SecretSync> {
    return (
      await this.t.call(this.ops(destination).importSecrets, { params: { syncId: id }, query: { importBehavior } })
    ).secretSync;
  }

  async removeSecrets<D extends SyncDestinationSlug>(destination: D, id: string): Promise<SecretSync> {
    return (await this.t.call(this.ops(destination).removeSecrets, { params: { syncId: id } })).secretSync;
  }
}
