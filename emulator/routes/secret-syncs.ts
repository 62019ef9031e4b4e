import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  apiPaths,
  allSecretSyncOperations,
  sameDestination,
  knownSyncDestinations,
  noSyncJobsYet,
  secretSyncOperations,
  type EventType,
  type KnownSyncDestination,
} from "../../sdk/schemas";
import {
  actorOf,
  connectionForUse,
  recordEvent,
  requireProject,
  resolveFolder,
  subjects,
  type EmulatorContext,
} from "../context";
import { badRequest, notFound } from "../errors";
import { throwIfMissingSecretRead } from "../permissions";
import {
  routeKindOperations,
  routeOperations,
  type OperationRequest,
  type ScopedHandlers,
} from "../route-registration";
import type { StoredSync, SyncJobKind } from "../types";
import { syncView } from "../views";
import {
  findOfKind,
  getOfKind,
  listOfKind,
  objectFields,
  objectMeta,
  placeNewObject,
  type ObjectsOfKind,
} from "./kind-objects";

const LOCKED = "A job for this sync is already in progress. Please try again shortly.";

/**
 * Secret syncs (docs/api-spec.md §4.2, docs/service-api.md §2), one set of routes per row of
 * `syncDestinations`, from its rows of the operations table: list, read by id and by name, create,
 * update, delete (optionally removing the synced secrets first) and the three job triggers. Jobs
 * run in the background (`jobs.ts`).
 */
export function registerSecretSyncRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, allSecretSyncOperations, { list: listAllSyncs }, ctx);
  const family = {
    rows: knownSyncDestinations,
    slug: (dest: KnownSyncDestination) => dest.destination,
    base: apiPaths.secretSyncs,
    operations: secretSyncOperations,
    scope: (dest: KnownSyncDestination) => destinationScope(ctx, dest),
  };
  routeKindOperations(app, family, destinationHandlers);
}

type SyncOperations = ReturnType<typeof secretSyncOperations>;
type SyncRequest<K extends keyof SyncOperations> = OperationRequest<SyncOperations[K]>;

/** What the routes of one destination share. */
interface DestinationScope {
  readonly ctx: EmulatorContext;
  readonly dest: KnownSyncDestination;
  /** The destination's syncs, as the routes every kind of object shares see them. */
  readonly syncs: ObjectsOfKind<StoredSync>;
}

const destinationHandlers: ScopedHandlers<DestinationScope, SyncOperations> = {
  list: listSyncs,
  get: getSync,
  getByName: getSyncByName,
  create: createSync,
  update: updateSync,
  delete: deleteSync,
  checkDestination,
  syncSecrets: (scope, req) => trigger(scope, req, "sync", "secret-sync-sync-secrets", "sync-secrets"),
  importSecrets: (scope, req) =>
    trigger(scope, req, "import", "secret-sync-import-secrets", "import-secrets", req.query.importBehavior),
  removeSecrets: (scope, req) => trigger(scope, req, "remove", "secret-sync-remove-secrets", "remove-secrets"),
};

const syncMeta = (ctx: EmulatorContext, s: StoredSync) =>
  objectMeta(ctx.store, s, { destination: s.destination, syncId: s.id });

const wrongDestination = (dest: KnownSyncDestination, id: string) =>
  badRequest(`Secret sync with ID "${id}" is not configured for ${dest.label}`);

function destinationScope(ctx: EmulatorContext, dest: KnownSyncDestination): DestinationScope {
  const syncs: ObjectsOfKind<StoredSync> = {
    objects: ctx.store.syncs,
    subject: subjects.secretSyncs,
    ofKind: (s) => s.destination === dest.destination,
    notFound: (id) => notFound(`Could not find ${dest.label} Sync with ID "${id}"`),
    wrongKind: (id) => wrongDestination(dest, id),
    meta: (s) => syncMeta(ctx, s),
    listMeta: (list) => ({ destination: dest.destination, count: list.length, syncIds: list.map((s) => s.id) }),
    events: { list: "get-secret-syncs", get: "get-secret-sync" },
  };
  return { ctx, dest, syncs };
}

function nameTaken(ctx: EmulatorContext, projectId: string, name: string, exceptId?: string): boolean {
  for (const s of ctx.store.syncs.values())
    if (s.projectId === projectId && s.name === name && s.id !== exceptId) return true;
  return false;
}

const nameTakenError = (name: string, projectId: string) =>
  badRequest(`A Secret Sync with the name "${name}" already exists for the project with ID "${projectId}"`);

/** Every destination's syncs of a project in one call (the service's `listSecretSyncs`). */
async function listAllSyncs(ctx: EmulatorContext, req: OperationRequest<typeof allSecretSyncOperations.list>) {
  const syncs = listOfKind(
    ctx,
    {
      objects: ctx.store.syncs,
      subject: subjects.secretSyncs,
      ofKind: () => true,
      listMeta: (list) => ({ count: list.length, syncIds: list.map((s) => s.id) }),
      events: { list: "get-secret-syncs", get: "get-secret-sync" },
    },
    req,
    req.query.projectId,
  );
  return { secretSyncs: syncs.map((s) => syncView(ctx.store, s)) };
}

async function listSyncs({ ctx, syncs }: DestinationScope, req: SyncRequest<"list">) {
  return { secretSyncs: listOfKind(ctx, syncs, req, req.query.projectId).map((s) => syncView(ctx.store, s)) };
}

async function getSync({ ctx, syncs }: DestinationScope, req: SyncRequest<"get">) {
  return { secretSync: syncView(ctx.store, getOfKind(ctx, syncs, req, req.params.syncId)) };
}

async function getSyncByName({ ctx, dest, syncs }: DestinationScope, req: SyncRequest<"getByName">) {
  const actor = actorOf(req);
  const { syncName } = req.params;
  const { projectId } = req.query;
  const s = [...ctx.store.syncs.values()].find((x) => x.projectId === projectId && x.name === syncName);
  if (!s) throw notFound(`Could not find ${dest.label} Sync with name "${syncName}"`);
  requireProject(ctx, actor, s.projectId, "read", subjects.secretSyncs, objectFields(ctx.store, s));
  if (s.destination !== dest.destination) throw wrongDestination(dest, s.id);
  recordEvent(ctx, req, actor, syncs.events.get, syncMeta(ctx, s), s.projectId);
  return { secretSync: syncView(ctx.store, s) };
}

async function createSync({ ctx, dest, syncs }: DestinationScope, req: SyncRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  // A sync reads its folder's secrets: the caller must be allowed to read their values
  // (secret-sync-service.ts `createSecretSync`: `throwIfMissingSecretReadValueOrDescribePermission`).
  const folder = placeNewObject(ctx, syncs, actor, body, dest.connectionApp, (ability) =>
    throwIfMissingSecretRead(ability, "readValue", { environment: body.environment, secretPath: body.secretPath }),
  );
  if (nameTaken(ctx, body.projectId, body.name)) throw nameTakenError(body.name, body.projectId);
  const now = new Date().toISOString();
  const s: StoredSync = {
    id: randomUUID(),
    name: body.name,
    description: body.description ?? null,
    destination: dest.destination,
    isAutoSyncEnabled: body.isAutoSyncEnabled,
    version: 1,
    destinationConfig: body.destinationConfig,
    syncOptions: body.syncOptions,
    projectId: body.projectId,
    folderId: folder.id,
    connectionId: body.connectionId,
    createdAt: now,
    updatedAt: now,
    ...noSyncJobsYet,
    deleteOnRemove: false,
    importBehavior: null,
  };
  ctx.store.syncs.set(s.id, s);
  if (s.isAutoSyncEnabled) ctx.jobs.enqueue(s, "sync");
  recordEvent(ctx, req, actor, "create-secret-sync", syncMeta(ctx, s), s.projectId);
  return { secretSync: syncView(ctx.store, s) };
}

async function updateSync({ ctx, dest, syncs }: DestinationScope, req: SyncRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const s = findOfKind(ctx, syncs, actor, req.params.syncId, "edit");
  if (body.connectionId !== undefined) connectionForUse(ctx, actor, body.connectionId, s.projectId, dest.connectionApp);
  let folderId = s.folderId;
  if (body.environment !== undefined || body.secretPath !== undefined) {
    const current = syncMeta(ctx, s);
    const env = body.environment ?? current.environment ?? "";
    const path = body.secretPath ?? current.secretPath ?? "";
    folderId = resolveFolder(ctx, s.projectId, env, path).folder.id;
  }
  if (body.name !== undefined && nameTaken(ctx, s.projectId, body.name, s.id))
    throw nameTakenError(body.name, s.projectId);
  if (body.name !== undefined) s.name = body.name;
  if (body.description !== undefined) s.description = body.description;
  if (body.connectionId !== undefined) s.connectionId = body.connectionId;
  if (body.isAutoSyncEnabled !== undefined) s.isAutoSyncEnabled = body.isAutoSyncEnabled;
  if (body.syncOptions !== undefined) s.syncOptions = body.syncOptions;
  if (body.destinationConfig !== undefined) s.destinationConfig = body.destinationConfig;
  s.folderId = folderId;
  s.version += 1;
  s.updatedAt = ctx.store.writeTime(s);
  // Any PATCH queues a sync when auto-sync is on after the update (docs/service-api.md §2).
  if (s.isAutoSyncEnabled) ctx.jobs.enqueue(s, "sync");
  recordEvent(ctx, req, actor, "update-secret-sync", syncMeta(ctx, s), s.projectId);
  return { secretSync: syncView(ctx.store, s) };
}

async function deleteSync({ ctx, syncs }: DestinationScope, req: SyncRequest<"delete">) {
  const actor = actorOf(req);
  const { removeSecrets } = req.query;
  const s = findOfKind(ctx, syncs, actor, req.params.syncId, "delete");
  if (removeSecrets) {
    // Not deleted yet: a remove job deletes the sync if it succeeds (docs/service-api.md §2).
    if (ctx.jobs.busy(s.id)) throw badRequest(LOCKED);
    s.deleteOnRemove = true;
    ctx.jobs.enqueue(s, "remove");
  }
  recordEvent(ctx, req, actor, "delete-secret-sync", { ...syncMeta(ctx, s), removeSecrets }, s.projectId);
  const view = syncView(ctx.store, s);
  if (!removeSecrets) ctx.store.syncs.delete(s.id);
  return { secretSync: view };
}

/**
 * Is another sync of the organization already pushing to this destination? The service compares
 * the configs field by field, skipping the row's fields, then asks the destination's own rule, and
 * answers without a resource key (docs/service-api.md §2, §9). Its newest rule hands both
 * connections to that function, which compares them for some destinations (a map not in the
 * sources read here): the emulator takes `connectionId` and, as the readable version of that map
 * does, decides by the configs alone. Read bucket.
 */
async function checkDestination({ ctx, dest }: DestinationScope, req: SyncRequest<"checkDestination">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "read", subjects.secretSyncs);
  const config = body.destinationConfig;
  if (Object.keys(config).length === 0) return { hasDuplicate: false };
  const duplicate = [...ctx.store.syncs.values()].find(
    (s) =>
      s.destination === dest.destination &&
      s.id !== body.excludeSyncId &&
      ctx.store.projects.get(s.projectId)?.orgId === actor.orgId &&
      sameDestination(dest, s.destinationConfig, config),
  );
  return duplicate ? { hasDuplicate: true, duplicateProjectId: duplicate.projectId } : { hasDuplicate: false };
}

/** A job trigger: the job is queued (one at a time per sync) and the sync answered, `pending`. */
async function trigger(
  { ctx, dest, syncs }: DestinationScope,
  req: FastifyRequest<{ Params: { syncId: string } }>,
  kind: SyncJobKind,
  event: EventType,
  action: string,
  importBehavior?: string,
) {
  // Refused before the sync is even looked up (docs/service-api.md §2, trigger errors).
  if (kind === "import" && !dest.canImport) throw badRequest(`${dest.label} does not support importing secrets.`);
  const actor = actorOf(req);
  const s = findOfKind(ctx, syncs, actor, req.params.syncId, action);
  if (ctx.jobs.busy(s.id)) throw badRequest(LOCKED);
  if (importBehavior) s.importBehavior = importBehavior;
  ctx.jobs.enqueue(s, kind);
  recordEvent(ctx, req, actor, event, { ...syncMeta(ctx, s), ...(importBehavior && { importBehavior }) }, s.projectId);
  return { secretSync: syncView(ctx.store, s) };
}
