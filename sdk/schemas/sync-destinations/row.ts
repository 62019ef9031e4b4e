import type { z } from "zod";
import type { AppConnectionApp } from "../app-connections";

/**
 * The parts of a sync destination's row. One file per destination, as the service keeps one folder
 * per destination (`services/secret-sync/<destination>/`); the table is `index.ts`.
 */

export interface SyncDestination {
  /** The real slug: the `{destination_slug}` path segment and the `destination` field. */
  readonly destination: string;
  readonly label: string;
  /** The spec's generic name for the destination. */
  readonly family: string;
  /** The app-connection kind a sync to this destination needs; none for a destination this package does not know. */
  readonly connectionApp: AppConnectionApp | undefined;
  readonly destinationConfig: z.ZodObject;
  /** Destination-specific `syncOptions` beside the common ones. */
  readonly extraSyncOptions: z.ZodRawShape;
  /** Whether the destination can import (allows the `import-*` initial behaviours). */
  readonly canImport: boolean;
  /**
   * Needs the enterprise plan on the real service: its list option says `enterprise: true`
   * (ee/services/secret-sync/chef/chef-sync-constants.ts, oci-vault/oci-vault-sync-constants.ts).
   */
  readonly enterprise?: boolean;
  /**
   * Whether a delete can remove the synced secrets first (the list option's
   * `canRemoveSecretsOnDeletion`); true unless false here.
   */
  readonly canRemoveSecretsOnDeletion?: boolean;
  /** Whether `syncOptions.keySchema` applies (the list option's `supportsKeySchema`); true unless false here. */
  readonly supportsKeySchema?: boolean;
  /**
   * Whether `syncOptions.disableSecretDeletion` applies (the list option's
   * `supportsDisableSecretDeletion`); true unless false here.
   */
  readonly supportsDisableSecretDeletion?: boolean;
  /** Pass unknown `syncOptions` keys through (the generic row only). */
  readonly looseSyncOptions?: boolean;
  /**
   * `destinationConfig` fields the duplicate-destination check ignores: labels that do not change
   * where the secrets land (docs/service-api.md §9).
   */
  readonly duplicateCheckIgnores: readonly string[];
  /** A valid `destinationConfig`: the emulator's tests and the SDK's per-kind tests are built from it. */
  readonly example: { readonly destinationConfig: Record<string, unknown> };
}

/**
 * Declares a destination's row. Typed so that the connection kind is one of `appConnectionKinds`
 * and the example a valid input of the row's own `destinationConfig` schema: a row with a part
 * missing or wrong does not compile.
 */
export function destinationRow<const C extends z.ZodObject, const X extends z.ZodRawShape>(
  row: Omit<SyncDestination, "connectionApp" | "destinationConfig" | "extraSyncOptions" | "example"> & {
    connectionApp: AppConnectionApp;
    destinationConfig: C;
    extraSyncOptions: X;
    example: { destinationConfig: z.input<C> };
  },
) {
  return row;
}
