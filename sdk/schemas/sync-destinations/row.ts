import type { z } from "zod";
import type { AppConnectionApp } from "../app-connections";
import type { KindOrigin } from "../common";

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
  /**
   * Where the destination comes from: the service's enum of destinations, or a folder beyond it;
   * none for the generic row of a destination this package does not know.
   */
  readonly origin?: KindOrigin;
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
  /**
   * The service's own rule for two configs equal but for `duplicateCheckIgnores`, where it has one
   * (its `DESTINATION_DUPLICATE_CHECK_MAP`, services/secret-sync/secret-sync-maps.ts): they are
   * duplicates only when this says so. Without it, they always are.
   */
  readonly sameDestination?: (existing: Record<string, unknown>, candidate: Record<string, unknown>) => boolean;
  /**
   * Rules of the create and update bodies that span `destinationConfig` and `syncOptions` (the
   * service's `superRefine` on its `Create…SyncSchema` and `Update…SyncSchema`), applied by
   * `secretSyncCreateSchema` and `secretSyncUpdateSchema`. On update either part may be absent.
   */
  readonly bodyRules?: readonly SyncBodyRule[];
  /** A valid `destinationConfig`: the emulator's tests and the SDK's per-kind tests are built from it. */
  readonly example: { readonly destinationConfig: Record<string, unknown> };
  /**
   * Bodies the service refuses, at least one for each rule of the row beyond a plain type: the
   * SDK's and the emulator's kind-rule tests send each one (tests/sdk/kind-rules.test.ts,
   * tests/kinds/kind-rules.test.ts) and expect the issue named.
   */
  readonly invalidExamples?: readonly InvalidSyncExample[];
}

/** The parts of a sync's create or update body that a body rule reads, as the body schema parsed them. */
export interface SyncBodyParts {
  readonly destinationConfig?: Record<string, unknown>;
  readonly syncOptions?: Record<string, unknown>;
}

/** A rule spanning a sync body's parts: broken when `breaks` holds, reported at `path` ([] for the body itself). */
export interface SyncBodyRule {
  readonly breaks: (body: SyncBodyParts) => boolean;
  readonly message: string;
  readonly path: readonly PropertyKey[];
}

/**
 * A body the service refuses: the row's example with `destinationConfig` replaced and
 * `syncOptions` added to `{ initialSyncBehavior: "overwrite-destination" }`, sent as a create (and,
 * with `update`, also as a PATCH of those two parts); refused with `message` at `path` (dotted,
 * "" for the body itself).
 */
export interface InvalidSyncExample {
  readonly destinationConfig?: Record<string, unknown>;
  readonly syncOptions?: Record<string, unknown>;
  readonly update?: boolean;
  readonly path: string;
  readonly message: string;
}

/**
 * Declares a destination's row. Typed so that the connection kind is one of `appConnectionKinds`
 * and the example a valid input of the row's own `destinationConfig` schema: a row with a part
 * missing or wrong does not compile.
 */
export function destinationRow<const C extends z.ZodObject, const X extends z.ZodRawShape>(
  row: Omit<SyncDestination, "origin" | "connectionApp" | "destinationConfig" | "extraSyncOptions" | "example"> & {
    origin: KindOrigin;
    connectionApp: AppConnectionApp;
    destinationConfig: C;
    extraSyncOptions: X;
    example: { destinationConfig: z.input<C> };
  },
): KnownDestinationRow<C, X> {
  return row;
}

/** A destination's row, typed by its `destinationConfig` and extra `syncOptions` (what `sdk/types.ts` reads). */
export interface KnownDestinationRow<C extends z.ZodObject, X extends z.ZodRawShape> extends SyncDestination {
  readonly origin: KindOrigin;
  readonly connectionApp: AppConnectionApp;
  readonly destinationConfig: C;
  readonly extraSyncOptions: X;
}

/**
 * The body rule of a destination that refuses some characters a key schema may hold: the service
 * replaces the placeholders with a valid `A` and tests the rest against the destination's name
 * pattern, so a key schema that would make every synced name invalid is refused up front (its
 * Daytona and Cloudflare Secrets Store schemas). Applies whenever `syncOptions` has a key schema.
 */
export function keySchemaNamesRule(name: RegExp, message: string): SyncBodyRule {
  return {
    breaks: ({ syncOptions }) => {
      const keySchema = syncOptions?.keySchema;
      return (
        typeof keySchema === "string" &&
        keySchema !== "" &&
        !name.test(keySchema.replace(/\{\{secretKey\}\}|\{\{environment\}\}/g, "A"))
      );
    },
    message,
    path: ["syncOptions", "keySchema"],
  };
}
