import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { SecretOpsClient, SecretSyncCreateInput } from "../sdk";
import { uuid } from "../sdk/schemas/common";
import { formatIssue, unknownKindRule } from "../sdk/schemas/issues";
import { secretSyncOperations } from "../sdk/schemas/operations/secret-syncs";
import {
  type SecretSync as RemoteSync,
  type SecretSyncCheckDestination,
  type SecretSyncCreate,
  type SecretSyncDestinationCheck,
  type SyncDestinationSlug,
  secretSyncCreateSchema,
  destinationKey,
  sameDestination,
  knownSyncDestinationRow,
  syncDestinationRow,
  syncDestinationSlugs,
  untypedSyncDestinationRow,
} from "../sdk/schemas/secret-syncs";
import { SettleFailure, defineResource, commonOptions } from "./definition";
import { isNotFound, orUndefinedOn404 } from "./not-found";
import { type ArgsOf } from "./inputs";
import { familyReads, lookAfterMs } from "./shared-reads";
import { containsUnknown, isPlainObject } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing sync with this name in the project instead of failing. With the TypeScript classes (dynamic providers), which `pulumi import` cannot import, this is how an object made elsewhere is taken over; through the native provider, `pulumi import` works too. Default false. */
  adoptExisting: z.boolean().default(false),
  /** On delete, also remove the synced secrets from the destination (and wait for that job). Default false: they are left in place. */
  removeSecrets: z.boolean().default(false),
  /** After create and update, wait for the sync job: a failed job fails the step (the sync stays in state). Default true. */
  waitForSync: z.boolean().default(true),
  /** How long to wait for a sync or remove job, in seconds. Default 300. */
  syncTimeoutSeconds: z.number().positive({ error: "must be a positive number of seconds" }).default(300),
  /**
   * Allow this sync to push to a destination another sync of the organization already pushes to.
   * Default false: a create or a `destinationConfig` change that would do so fails, naming the
   * other sync, because two syncs that overwrite one destination undo each other. What is the same
   * destination is the service's rule; through two connections the service decides at `up`.
   */
  allowDuplicateDestination: z.boolean().default(false),
  /**
   * Set by `GenericSecretSync`, never by a program: the destination may be one this package has no
   * row for, and its `destinationConfig` and extra `syncOptions` are passed through unchecked.
   */
  untypedDestination: z.boolean().default(false),
});

/** The options a program gives (`untypedDestination` is the class's to set). */
type OptionArgs = ArgsOf<Omit<z.input<typeof options>, "untypedDestination">>;

/** Fields every secret sync has, whatever its destination, and the provider options: from their schemas. */
export type SecretSyncCommonArgs = ArgsOf<Omit<SecretSyncCreate, "syncOptions" | "destinationConfig">> & OptionArgs;

/**
 * Args of a sync to the known destination `D` (by default any of them: the union of each one's
 * args, discriminated by `destination`, its real slug).
 */
export type SecretSyncArgs<D extends SyncDestinationSlug = SyncDestinationSlug> = D extends SyncDestinationSlug
  ? ArgsOf<SecretSyncCreateInput<D>> &
      OptionArgs & {
        /** The destination's real slug: selects the typed args. Changing it replaces the sync. */
        destination: D;
      }
  : never;

/** Args of a sync to a destination this package has no row for: its slug and config are passed through as given. */
export interface GenericSecretSyncArgs extends SecretSyncCommonArgs {
  /** The destination's real slug, e.g. `aws-secrets-manager`. */
  destination: pulumi.Input<string>;
  /** Where the secrets go, in the destination's terms: passed through unchecked. */
  destinationConfig: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  /** `initialSyncBehavior` is required; other options are passed through unchecked. */
  syncOptions: pulumi.Input<{ initialSyncBehavior: pulumi.Input<string> } & Record<string, pulumi.Input<unknown>>>;
}

/** A sync's args as `check` made them: the create body's schema's output, and its destination. */
type SyncArgs = z.output<ReturnType<typeof secretSyncCreateSchema>> & { destination: string };
type SyncOptions = z.output<typeof options>;

/**
 * The SDK's sync client with any destination slug. Its methods are typed for the destinations this
 * package has rows for; at run time they take any slug-shaped one through the generic row, as
 * `GenericSecretSync` needs, so this file calls them through this view (its one cast).
 */
interface AnyDestinationSyncs {
  list(destination: string, projectId: string): Promise<RemoteSync[]>;
  get(destination: string, id: string): Promise<RemoteSync>;
  getByName(destination: string, name: string, projectId: string): Promise<RemoteSync>;
  create(destination: string, body: Omit<SyncArgs, "destination">): Promise<RemoteSync>;
  update(destination: string, id: string, body: Partial<SyncArgs>): Promise<RemoteSync>;
  delete(destination: string, id: string, opts: { removeSecrets?: boolean }): Promise<RemoteSync>;
  checkDestination(destination: string, body: SecretSyncCheckDestination): Promise<SecretSyncDestinationCheck>;
  syncSecrets(destination: string, id: string): Promise<RemoteSync>;
}
const syncs = (client: SecretOpsClient, untyped = false) =>
  (untyped ? client.secretSyncs.untyped() : client.secretSyncs) as unknown as AnyDestinationSyncs;

/** The other sync of the organization pushing to this sync's destination, as `check-destination` answers. */
type Duplicate = { duplicateProjectId?: string | null };

/**
 * The service's `check-destination` for `sync` (`excludeSyncId`: not counting that one), through
 * the service's own rule (which may weigh the connection: `connectionId` is sent); `untyped`: a
 * destination this package may have no row for (`GenericSecretSync`). Undefined from a server too
 * old to have the check (404), or for a project id it cannot take (not a UUID).
 */
async function destinationCheck(
  client: SecretOpsClient,
  sync: Pick<SyncArgs, "destination" | "destinationConfig" | "connectionId" | "projectId">,
  excludeSyncId?: string,
  untyped = false,
): Promise<SecretSyncDestinationCheck | undefined> {
  if (!uuid.safeParse(sync.projectId).success) return undefined;
  return syncs(client, untyped)
    .checkDestination(sync.destination, {
      destinationConfig: sync.destinationConfig,
      connectionId: sync.connectionId,
      projectId: sync.projectId,
      ...(excludeSyncId && { excludeSyncId }),
    })
    .catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
}

/** Another sync of the organization already pushing to this destination, as `check-destination` finds it. */
async function duplicateOf(
  client: SecretOpsClient,
  sync: SyncArgs,
  excludeSyncId?: string,
): Promise<Duplicate | undefined> {
  const check = await destinationCheck(client, sync, excludeSyncId);
  return check?.hasDuplicate ? check : undefined;
}

/** The refusal, naming the other sync (or, when it cannot be read, its project). */
const duplicateError = (other: string) =>
  new Error(
    `destinationConfig: ${other} already syncs to this destination, and two syncs would overwrite each other's secrets; point this sync elsewhere or set allowDuplicateDestination: true`,
  );

const named = (s: RemoteSync) => `secret sync "${s.name}" (project ${s.projectId})`;

/** Is `s` another sync to `sync`'s destination, by the service's rule? */
const pushesToTheSamePlace = (s: RemoteSync, sync: Pick<SyncArgs, "destination" | "destinationConfig">) => {
  const row = syncDestinationRow(sync.destination);
  return (
    !!row && s.destination === sync.destination && sameDestination(row, s.destinationConfig, sync.destinationConfig)
  );
};

/**
 * The sync `check-destination` found, by name: the service answers with its project only, so its
 * project's syncs are listed (one read, on a refusal only) and the one pushing to this destination
 * picked (through the same connection first). Its project alone when that list cannot be read.
 */
async function otherSync(client: SecretOpsClient, sync: SyncArgs, duplicate: Duplicate, excludeSyncId?: string) {
  const projectId = duplicate.duplicateProjectId;
  if (!projectId) return "another secret sync in another project of your organization";
  const listed = await listSyncs(client, projectId).catch(() => []);
  const others = listed.filter((s) => s.id !== excludeSyncId && pushesToTheSamePlace(s, sync));
  const found = others.find((s) => s.connectionId === sync.connectionId) ?? others[0];
  return found ? named(found) : `another secret sync in project ${projectId}`;
}

/**
 * Refuses to point a sync at a destination another sync of the organization already pushes to,
 * unless `allowDuplicateDestination` is set: with overwrite semantics the two would keep undoing
 * each other. The service's own check (`check-destination`) decides.
 */
async function refuseDuplicateDestination(
  client: SecretOpsClient,
  sync: SyncArgs,
  options: SyncOptions,
  excludeSyncId?: string,
): Promise<void> {
  if (options.allowDuplicateDestination) return;
  let duplicate = await duplicateOf(client, sync, excludeSyncId);
  let excluded = excludeSyncId;
  if (duplicate && excludeSyncId === undefined) {
    // On create, the sync already holding this name may be the duplicate: one an interrupted run
    // made. It is not counted here; the create then meets it by name and takes it only if it is
    // what the program declares (provider/dynamic-provider.ts, createOnce).
    const sameName = await orUndefinedOn404(syncs(client).getByName(sync.destination, sync.name, sync.projectId));
    if (sameName) {
      excluded = sameName.id;
      duplicate = await duplicateOf(client, sync, sameName.id);
    }
  }
  if (duplicate) throw duplicateError(await otherSync(client, sync, duplicate, excluded));
}

/** A project's syncs of every destination, in one call. */
const listSyncs = (client: SecretOpsClient, projectId: string) => client.secretSyncs.listAll(projectId);

/** The project's syncs as list calls shared by reads, waits and checks answer them (provider/shared-reads.ts). */
const syncReads = familyReads(listSyncs);
const projectSyncs = (client: SecretOpsClient) => syncReads.at(client);

/**
 * After a create: another stack (another provider process) may have made a sync to the same
 * destination in this project between our check and our create, and is asking the same question
 * now. Both keep the older of the two (the earlier `createdAt`, then the smaller id), so exactly one
 * stays; the newer one is deleted again and its step fails. `listed`: the project's syncs as a
 * round of the shared list sent after the create has them (one call for many syncs and their
 * status waits, where reads are scarce). Without it, the service's `check-destination`, this sync
 * excluded, answers first (a short answer, where a list grows with the project), and the project
 * is listed only when it finds another sync or cannot say. A rival in another project is left to
 * the service's own duplicate check (docs/resources.md).
 */
async function giveWayToAnEarlierRival(
  client: SecretOpsClient,
  created: RemoteSync,
  listed: ReadonlyMap<string, RemoteSync> | undefined,
  untyped: boolean,
) {
  const destination = created.destination;
  const here = listed ? [...listed.values()] : await syncsBesideAnother(client, created, untyped);
  // Through the same connection, as the program's own rule (`exclusive`): through another one,
  // the service's check decides.
  const rival = here?.find(
    (r) => r.id !== created.id && r.connectionId === created.connectionId && pushesToTheSamePlace(r, created),
  );
  const older = (a: RemoteSync, b: RemoteSync) =>
    a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
  if (!rival || older(created, rival)) return;
  await syncs(client)
    .delete(destination, created.id, { removeSecrets: false })
    .catch(() => undefined);
  throw duplicateError(named(rival));
}

/**
 * The project's syncs when `check-destination` finds another sync of the organization pushing to
 * `created`'s destination, or cannot answer (a server without the check); none when it finds none.
 * Undefined when they cannot be listed. `untyped`: a destination this package may have no row for
 * (`GenericSecretSync`).
 */
async function syncsBesideAnother(
  client: SecretOpsClient,
  created: RemoteSync,
  untyped: boolean,
): Promise<RemoteSync[] | undefined> {
  const check = await destinationCheck(client, created, created.id, untyped).catch(() => undefined);
  if (check && !check.hasDuplicate) return [];
  return listSyncs(client, created.projectId).catch(() => undefined);
}

/**
 * Polls a sync until `done` says so or the timeout passes, in the project's shared rounds: one
 * list call per round for every sync that waits. `looked`: how many looks since the write were
 * made already (each next one is due `lookAfterMs` after the last).
 */
async function pollSync(
  client: SecretOpsClient,
  sync: RemoteSync,
  timeoutSeconds: number,
  done: (s: RemoteSync | undefined) => boolean,
  looked = 0,
): Promise<RemoteSync | undefined> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let current: RemoteSync | undefined = sync;
  for (let look = looked; !done(current); look++) {
    if (Date.now() > deadline) return current;
    const listed = await projectSyncs(client).nextRound(sync.projectId, { after: lookAfterMs(look) });
    // Missing from the list (or no list): gone, or hidden from it; its own read tells which.
    current = listed?.get(sync.id) ?? (await orUndefinedOn404(syncs(client).get(sync.destination, sync.id)));
  }
  return current;
}

/**
 * The rule an unknown destination breaks, with the nearest known slug: a typo fails at preview,
 * not at `up` with the service's "route not found".
 */
function unknownDestination(slug: unknown, untyped: boolean): string {
  if (untyped)
    return `must be a destination slug (lowercase letters, digits and single hyphens), not ${JSON.stringify(slug)}`;
  return (
    unknownKindRule("destination", slug, syncDestinationSlugs) +
    "; for a destination newer than this package, use GenericSecretSync, which passes its destinationConfig and syncOptions through unchecked"
  );
}

const inProgress = (status: string | null | undefined) => status === "pending" || status === "running";

/**
 * A secret sync: pushes the secrets of one environment folder to a destination through an app
 * connection. Replaced when `projectId` or `destination` changes (delete first: names are unique).
 */
export const secretSyncDefinition = defineResource<RemoteSync, SyncArgs, SyncOptions>()({
  type: "SecretSync",
  kindField: "destination",
  schemas(args, opts) {
    const slug = args.destination;
    const row =
      typeof slug !== "string"
        ? undefined
        : opts.untypedDestination === true
          ? untypedSyncDestinationRow(slug)
          : knownSyncDestinationRow(slug);
    if (!row) return unknownDestination(slug, opts.untypedDestination === true);
    const ops = secretSyncOperations(row);
    return { args: ops.create.body, update: ops.update.body };
  },
  options,
  deleteBeforeReplace: true,
  // The service keeps the sync's folder by id: renaming it (or its environment) moves the sync.
  inTree: { pathField: "secretPath" },
  // The service makes a sync without `isAutoSyncEnabled` with it on (its secret-sync-schemas.ts:
  // `isAutoSyncEnabled: z.boolean().default(true)`).
  absentMeans: { description: null, isAutoSyncEnabled: true },
  reported: {
    name: (s) => s.name,
    projectId: (s) => s.projectId,
    connectionId: (s) => s.connectionId,
    environment: (s) => s.environment?.slug,
    secretPath: (s) => s.folder?.path,
    destination: (s) => s.destination,
    destinationConfig: (s) => s.destinationConfig,
    syncOptions: (s) => s.syncOptions,
    description: (s) => s.description,
    isAutoSyncEnabled: (s) => s.isAutoSyncEnabled,
  },
  computed: {
    /** `pending`, `running`, `succeeded` or `failed`; absent (null at the service) before the first job. */
    syncStatus: (s) => s.syncStatus,
    lastSyncMessage: (s) => s.lastSyncMessage,
    lastSyncedAt: (s) => s.lastSyncedAt,
    lastSyncJobId: (s) => s.lastSyncJobId,
    version: (s) => s.version,
    folderId: (s) => s.folderId,
    createdAt: (s) => s.createdAt,
    updatedAt: (s) => s.updatedAt,
  },

  async create(client, args, opts) {
    await refuseDuplicateDestination(client, args, opts);
    // The destination is the route's; the body is the rest.
    const { destination, ...body } = args;
    const sync = await syncs(client, opts.untypedDestination)
      .create(destination, body)
      .catch((e: unknown) => {
        // Only GenericSecretSync reaches the service with a slug it may not have.
        if (opts.untypedDestination && isNotFound(e)) {
          throw new Error(
            `destination: the service has no destination "${destination}" (${e instanceof Error ? e.message : String(e)}); ` +
              `GenericSecretSync passes its slug through unchecked: check it against the service's destinations`,
          );
        }
        throw e;
      });
    // Another process may have made a sync to this destination meanwhile: settled in `settle`,
    // with the first round of the project's shared list (giveWayToAnEarlierRival).
    return sync;
  },
  find: (client, args) => orUndefinedOn404(syncs(client).getByName(args.destination, args.name, args.projectId)),
  read: (client, id, outs) => orUndefinedOn404(syncs(client).get(outs.destination, id)),
  listed: { scopeOf: (outs) => outs.projectId, reads: syncReads },
  async update(client, id, patch, outs, opts) {
    if (patch.destinationConfig !== undefined) {
      await refuseDuplicateDestination(client, { ...outs, destinationConfig: patch.destinationConfig }, opts, id);
    }
    return syncs(client, opts.untypedDestination).update(outs.destination, id, patch);
  },
  async delete(client, id, outs) {
    const removeSecrets = outs.removeSecrets === true;
    const sync = await syncs(client).delete(outs.destination, id, { removeSecrets });
    if (!removeSecrets) return;
    // With removeSecrets the service deletes the sync only once its remove job has succeeded.
    const last = await pollSync(client, sync, outs.syncTimeoutSeconds ?? 300, (s) => !s || !inProgress(s.removeStatus));
    if (last?.removeStatus === "failed") {
      throw new Error(
        `removing the secrets of sync "${sync.name}" failed: ${last.lastRemoveMessage ?? "no message"}; the sync was kept`,
      );
    }
    if (last)
      throw new Error(
        `removing the secrets of sync "${sync.name}" did not finish in time (status: ${last.removeStatus})`,
      );
  },

  // One sync per destination, also between the resources of one program (provider/definition.ts):
  // by the service's rule, through the same connection. Through two connections (two accounts, say)
  // the service decides at create: its newest rule weighs both connections, which only it can read.
  // Creates to one destination still run one at a time, so each asks the service knowing the other.
  exclusive: {
    key(args, opts) {
      const row = typeof args.destination === "string" ? syncDestinationRow(args.destination) : undefined;
      const config = args.destinationConfig;
      if (opts.allowDuplicateDestination === true || !row || !isPlainObject(config)) return undefined;
      if (containsUnknown(config)) return undefined;
      return destinationKey(row, config);
    },
    clash: (held, candidate) =>
      !containsUnknown(candidate.connectionId) &&
      held.connectionId === candidate.connectionId &&
      sameDestination(
        syncDestinationRow(String(candidate.destination))!,
        isPlainObject(held.destinationConfig) ? held.destinationConfig : {},
        isPlainObject(candidate.destinationConfig) ? candidate.destinationConfig : {},
      ),
    conflict: (resource, holder) => ({
      property: "",
      reason: formatIssue({
        path: "destinationConfig",
        message: `SecretSync "${resource}" and SecretSync "${holder}" of this program both sync to this destination through the same connection, and two syncs would overwrite each other's secrets; point one of them elsewhere or set allowDuplicateDestination: true on it`,
      }),
    }),
  },

  jobs: {
    // A sync whose last job failed is synced again by the next `pulumi up`.
    resume: {
      needed: (outs) => outs.syncStatus === "failed" && outs.isAutoSyncEnabled === true,
      run: (client, id, outs) => syncs(client).syncSecrets(outs.destination, id),
    },
    async settle(client, sync, opts, made) {
      const rivals = made && !opts.allowDuplicateDestination;
      const waits = opts.waitForSync && sync.isAutoSyncEnabled;
      if (!rivals && !waits) return sync;
      const reads = projectSyncs(client);
      if (!waits) {
        // A rival alone: where reads are scarce, looked for in the next round of the project's
        // list, shared by every create; where they are plentiful, rounds are not shared (each
        // create's goes at once) and each would list the whole project, so the service's own check
        // answers (at 1,000 syncs, 984 lists of up to 1,000 syncs each: docs/benchmarks.md).
        const listed = reads.readsArePlentiful() ? undefined : await reads.nextRound(sync.projectId);
        await giveWayToAnEarlierRival(client, sync, listed, opts.untypedDestination);
        return sync;
      }
      // One round of the project's shared list answers both: a rival made meanwhile, and the job's
      // status. The first look is due when the job could have settled (an earlier one would only
      // see it pending).
      const listed = await reads.nextRound(sync.projectId, { after: lookAfterMs(0) });
      if (rivals) await giveWayToAnEarlierRival(client, sync, listed, opts.untypedDestination);
      const first = listed?.get(sync.id) ?? sync;
      const timeout = opts.syncTimeoutSeconds;
      const last = (await pollSync(client, first, timeout, (s) => !s || !inProgress(s.syncStatus), 1)) ?? sync;
      if (last.syncStatus === "failed") {
        throw new SettleFailure(`secret sync "${last.name}" failed: ${last.lastSyncMessage ?? "no message"}`, last);
      }
      if (inProgress(last.syncStatus)) {
        throw new SettleFailure(
          `secret sync "${last.name}" did not finish within ${timeout} s (status: ${last.syncStatus})`,
          last,
        );
      }
      return last;
    },
  },
});
