import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  allSecretSyncOperations,
  sameDestination,
  knownSyncDestinations,
  noSyncJobsYet,
  secretSyncOperations,
  type EventType,
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
import { route } from "../route-registration";
import type { StoredSync, SyncJobKind } from "../types";
import { syncView } from "../views";
import { findOfKind, getOfKind, listOfKind, objectMeta, placeNewObject, type ObjectsOfKind } from "./kind-objects";

const LOCKED = "A job for this sync is already in progress. Please try again shortly.";

/**
 * Secret syncs (docs/api-spec.md §4.2, docs/service-api.md §2), one set of routes per row of `syncDestinations`: list,
 * read by id and by name, create, update, delete (optionally removing the synced secrets first)
 * and the three job triggers. Jobs run in the background (`jobs.ts`).
 */
export function registerSecretSyncRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, jobs } = ctx;

  const nameTaken = (projectId: string, name: string, exceptId?: string) => {
    for (const s of store.syncs.values())
      if (s.projectId === projectId && s.name === name && s.id !== exceptId) return true;
    return false;
  };
  const meta = (s: StoredSync) => objectMeta(store, s, { destination: s.destination, syncId: s.id });
  const view = (s: StoredSync) => syncView(store, s);

  // Every destination's syncs of a project in one call (the service's `listSecretSyncs`).
  route(app, allSecretSyncOperations.list, async (req) => ({
    secretSyncs: listOfKind(
      ctx,
      {
        objects: store.syncs,
        subject: subjects.secretSyncs,
        ofKind: () => true,
        listMeta: (list) => ({ count: list.length, syncIds: list.map((s) => s.id) }),
        events: { list: "get-secret-syncs", get: "get-secret-sync" },
      },
      req,
      req.query.projectId,
    ).map(view),
  }));

  for (const dest of knownSyncDestinations) {
    const ops = secretSyncOperations(dest);
    const wrongDestination = (id: string) =>
      badRequest(`Secret sync with ID "${id}" is not configured for ${dest.label}`);
    const syncs: ObjectsOfKind<StoredSync> = {
      objects: store.syncs,
      subject: subjects.secretSyncs,
      ofKind: (s) => s.destination === dest.destination,
      notFound: (id) => notFound(`Could not find ${dest.label} Sync with ID "${id}"`),
      wrongKind: wrongDestination,
      meta,
      listMeta: (list) => ({ destination: dest.destination, count: list.length, syncIds: list.map((s) => s.id) }),
      events: { list: "get-secret-syncs", get: "get-secret-sync" },
    };
    const find = (req: FastifyRequest, syncId: string, action: string) =>
      findOfKind(ctx, syncs, actorOf(req), syncId, action);

    route(app, ops.list, async (req) => ({
      secretSyncs: listOfKind(ctx, syncs, req, req.query.projectId).map(view),
    }));

    route(app, ops.get, async (req) => ({ secretSync: view(getOfKind(ctx, syncs, req, req.params.syncId)) }));

    route(app, ops.getByName, async (req) => {
      const actor = actorOf(req);
      const { syncName } = req.params;
      const { projectId } = req.query;
      const s = [...store.syncs.values()].find((x) => x.projectId === projectId && x.name === syncName);
      if (!s) throw notFound(`Could not find ${dest.label} Sync with name "${syncName}"`);
      requireProject(ctx, actor, s.projectId, "read", subjects.secretSyncs);
      if (s.destination !== dest.destination) throw wrongDestination(s.id);
      recordEvent(ctx, req, actor, syncs.events.get, meta(s), s.projectId);
      return { secretSync: view(s) };
    });

    route(app, ops.create, async (req) => {
      const actor = actorOf(req);
      const { body } = req;
      const folder = placeNewObject(ctx, syncs, actor, body, dest.connectionApp);
      if (nameTaken(body.projectId, body.name)) {
        throw badRequest(
          `A Secret Sync with the name "${body.name}" already exists for the project with ID "${body.projectId}"`,
        );
      }
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
      store.syncs.set(s.id, s);
      if (s.isAutoSyncEnabled) jobs.enqueue(s, "sync");
      recordEvent(ctx, req, actor, "create-secret-sync", meta(s), s.projectId);
      return { secretSync: view(s) };
    });

    route(app, ops.update, async (req) => {
      const actor = actorOf(req);
      const { body } = req;
      const s = find(req, req.params.syncId, "edit");
      if (body.connectionId !== undefined)
        connectionForUse(ctx, actor, body.connectionId, s.projectId, dest.connectionApp);
      let folderId = s.folderId;
      if (body.environment !== undefined || body.secretPath !== undefined) {
        const current = meta(s);
        const env = body.environment ?? current.environment ?? "";
        const path = body.secretPath ?? current.secretPath ?? "";
        folderId = resolveFolder(ctx, s.projectId, env, path).folder.id;
      }
      if (body.name !== undefined && nameTaken(s.projectId, body.name, s.id)) {
        throw badRequest(
          `A Secret Sync with the name "${body.name}" already exists for the project with ID "${s.projectId}"`,
        );
      }
      if (body.name !== undefined) s.name = body.name;
      if (body.description !== undefined) s.description = body.description;
      if (body.connectionId !== undefined) s.connectionId = body.connectionId;
      if (body.isAutoSyncEnabled !== undefined) s.isAutoSyncEnabled = body.isAutoSyncEnabled;
      if (body.syncOptions !== undefined) s.syncOptions = body.syncOptions;
      if (body.destinationConfig !== undefined) s.destinationConfig = body.destinationConfig;
      s.folderId = folderId;
      s.version += 1;
      s.updatedAt = store.writeTime(s);
      // Any PATCH queues a sync when auto-sync is on after the update (docs/service-api.md §2).
      if (s.isAutoSyncEnabled) jobs.enqueue(s, "sync");
      recordEvent(ctx, req, actor, "update-secret-sync", meta(s), s.projectId);
      return { secretSync: view(s) };
    });

    route(app, ops.delete, async (req) => {
      const actor = actorOf(req);
      const { removeSecrets } = req.query;
      const s = find(req, req.params.syncId, "delete");
      if (removeSecrets) {
        // Not deleted yet: a remove job deletes the sync if it succeeds (docs/service-api.md §2).
        if (jobs.busy(s.id)) throw badRequest(LOCKED);
        s.deleteOnRemove = true;
        jobs.enqueue(s, "remove");
      }
      recordEvent(ctx, req, actor, "delete-secret-sync", { ...meta(s), removeSecrets }, s.projectId);
      const view = syncView(store, s);
      if (!removeSecrets) store.syncs.delete(s.id);
      return { secretSync: view };
    });

    // Is another sync of the organization already pushing to this destination? The service
    // compares the configs field by field, skipping the row's fields, then asks the destination's
    // own rule, and answers without a resource key (docs/service-api.md §2, §9). Its newest rule
    // hands both connections to that function, which compares them for some destinations (a map
    // not in the sources read here): the emulator takes `connectionId` and, as the readable
    // version of that map does, decides by the configs alone. Read bucket.
    route(app, ops.checkDestination, async (req) => {
      const actor = actorOf(req);
      const { body } = req;
      requireProject(ctx, actor, body.projectId, "read", subjects.secretSyncs);
      const config = body.destinationConfig;
      if (Object.keys(config).length === 0) return { hasDuplicate: false };
      const duplicate = [...store.syncs.values()].find(
        (s) =>
          s.destination === dest.destination &&
          s.id !== body.excludeSyncId &&
          store.projects.get(s.projectId)?.orgId === actor.orgId &&
          sameDestination(dest, s.destinationConfig, config),
      );
      return duplicate ? { hasDuplicate: true, duplicateProjectId: duplicate.projectId } : { hasDuplicate: false };
    });

    /** A job trigger: the job is queued (one at a time per sync) and the sync answered, `pending`. */
    const trigger = async (
      req: FastifyRequest,
      syncId: string,
      kind: SyncJobKind,
      event: EventType,
      action: string,
      importBehavior?: string,
    ) => {
      const actor = actorOf(req);
      const s = find(req, syncId, action);
      if (kind === "import" && !dest.canImport) throw badRequest(`${dest.label} does not support importing secrets`);
      if (jobs.busy(s.id)) throw badRequest(LOCKED);
      if (importBehavior) s.importBehavior = importBehavior;
      jobs.enqueue(s, kind);
      recordEvent(ctx, req, actor, event, { ...meta(s), ...(importBehavior && { importBehavior }) }, s.projectId);
      return { secretSync: view(s) };
    };
    route(app, ops.syncSecrets, (req) =>
      trigger(req, req.params.syncId, "sync", "secret-sync-sync-secrets", "sync-secrets"),
    );
    route(app, ops.importSecrets, (req) =>
      trigger(
        req,
        req.params.syncId,
        "import",
        "secret-sync-import-secrets",
        "import-secrets",
        req.query.importBehavior,
      ),
    );
    route(app, ops.removeSecrets, (req) =>
      trigger(req, req.params.syncId, "remove", "secret-sync-remove-secrets", "remove-secrets"),
    );
  }
}
