import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  SecretSyncByNameQuery,
  SecretSyncCheckDestinationBody,
  SecretSyncDeleteQuery,
  SecretSyncImportQuery,
  SecretSyncListQuery,
  apiPaths,
  secretSyncCreateSchema,
  secretSyncUpdateSchema,
  syncDestinations,
  uuid,
  type EventType,
  type SyncDestination,
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
import { badRequest, notFound, parseOr422 } from "../errors";
import type { Actor, StoredSync, SyncJobKind } from "../types";
import { folderRefs, syncView } from "../views";

const IdParams = z.object({ syncId: uuid });
const NameParams = z.object({ syncName: z.string().min(1) });

const LOCKED = "A job for this sync is already in progress. Please try again shortly.";

/** Two destination configs point at the same place: equal in every field but the ignored ones. */
function sameDestination(a: Record<string, unknown>, b: Record<string, unknown>, ignore: readonly string[]): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !ignore.includes(k)));
  return [...keys].every((k) => isDeepStrictEqual(a[k], b[k]));
}

/**
 * Secret syncs (spec 4.2, reference §2), one set of routes per row of `syncDestinations`: list,
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
  const meta = (s: StoredSync) => {
    const { environment, folder } = folderRefs(store, s.folderId ?? "");
    return {
      destination: s.destination,
      syncId: s.id,
      name: s.name,
      connectionId: s.connectionId,
      environment: environment?.slug,
      secretPath: folder?.path,
    };
  };

  for (const dest of Object.values(syncDestinations) as SyncDestination[]) {
    const base = apiPaths.secretSyncs(dest.destination);
    const createSchema = secretSyncCreateSchema(dest);
    const updateSchema = secretSyncUpdateSchema(dest);
    const wrongDestination = (id: string) =>
      badRequest(`Secret sync with ID "${id}" is not configured for ${dest.label}`);

    const find = (actor: Actor, syncId: string, action: string) => {
      const s = store.syncs.get(syncId);
      if (!s) throw notFound(`Could not find ${dest.label} Sync with ID "${syncId}"`);
      requireProject(ctx, actor, s.projectId, action, subjects.secretSyncs);
      if (s.destination !== dest.destination) throw wrongDestination(s.id);
      return s;
    };

    app.get(base, async (req) => {
      const actor = actorOf(req);
      const { projectId } = parseOr422(SecretSyncListQuery, req.query);
      requireProject(ctx, actor, projectId, "read", subjects.secretSyncs);
      const list = [...store.syncs.values()].filter(
        (s) => s.projectId === projectId && s.destination === dest.destination,
      );
      recordEvent(
        ctx,
        req,
        actor,
        "get-secret-syncs",
        { destination: dest.destination, count: list.length, syncIds: list.map((s) => s.id) },
        projectId,
      );
      return { secretSyncs: list.map((s) => syncView(store, s)) };
    });

    app.get(`${base}/:syncId`, async (req) => {
      const actor = actorOf(req);
      const { syncId } = parseOr422(IdParams, req.params);
      const s = find(actor, syncId, "read");
      recordEvent(ctx, req, actor, "get-secret-sync", meta(s), s.projectId);
      return { secretSync: syncView(store, s) };
    });

    app.get(`${base}/sync-name/:syncName`, async (req) => {
      const actor = actorOf(req);
      const { syncName } = parseOr422(NameParams, req.params);
      const { projectId } = parseOr422(SecretSyncByNameQuery, req.query);
      const s = [...store.syncs.values()].find((x) => x.projectId === projectId && x.name === syncName);
      if (!s) throw notFound(`Could not find ${dest.label} Sync with name "${syncName}"`);
      requireProject(ctx, actor, s.projectId, "read", subjects.secretSyncs);
      if (s.destination !== dest.destination) throw wrongDestination(s.id);
      recordEvent(ctx, req, actor, "get-secret-sync", meta(s), s.projectId);
      return { secretSync: syncView(store, s) };
    });

    app.post(base, async (req) => {
      const actor = actorOf(req);
      const body = parseOr422(createSchema, req.body);
      requireProject(ctx, actor, body.projectId, "create", subjects.secretSyncs);
      const { folder } = resolveFolder(ctx, body.projectId, body.environment, body.secretPath);
      connectionForUse(ctx, actor, body.connectionId, body.projectId, dest.connectionApp);
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
        deleteOnRemove: false,
        importBehavior: null,
      };
      store.syncs.set(s.id, s);
      if (s.isAutoSyncEnabled) jobs.enqueue(s, "sync");
      recordEvent(ctx, req, actor, "create-secret-sync", meta(s), s.projectId);
      return { secretSync: syncView(store, s) };
    });

    app.patch(`${base}/:syncId`, async (req) => {
      const actor = actorOf(req);
      const { syncId } = parseOr422(IdParams, req.params);
      const body = parseOr422(updateSchema, req.body);
      const s = find(actor, syncId, "edit");
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
      s.updatedAt = new Date().toISOString();
      // Any PATCH queues a sync when auto-sync is on after the update (reference §2).
      if (s.isAutoSyncEnabled) jobs.enqueue(s, "sync");
      recordEvent(ctx, req, actor, "update-secret-sync", meta(s), s.projectId);
      return { secretSync: syncView(store, s) };
    });

    app.delete(`${base}/:syncId`, async (req) => {
      const actor = actorOf(req);
      const { syncId } = parseOr422(IdParams, req.params);
      const { removeSecrets } = parseOr422(SecretSyncDeleteQuery, req.query);
      const s = find(actor, syncId, "delete");
      if (removeSecrets) {
        // Not deleted yet: a remove job deletes the row if it succeeds (reference §2).
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
    // compares the configs field by field, skipping the row's labels, and answers without a
    // resource key (secret-sync-service.ts `checkDuplicateDestination`). Read bucket.
    app.post(`${base}/check-destination`, { config: { bucket: "read" } }, async (req) => {
      const actor = actorOf(req);
      const body = parseOr422(SecretSyncCheckDestinationBody, req.body);
      requireProject(ctx, actor, body.projectId, "read", subjects.secretSyncs);
      const config = body.destinationConfig;
      if (Object.keys(config).length === 0) return { hasDuplicate: false };
      const duplicate = [...store.syncs.values()].find(
        (s) =>
          s.destination === dest.destination &&
          s.id !== body.excludeSyncId &&
          store.projects.get(s.projectId)?.orgId === actor.orgId &&
          sameDestination(s.destinationConfig, config, dest.duplicateCheckIgnores),
      );
      return duplicate ? { hasDuplicate: true, duplicateProjectId: duplicate.projectId } : { hasDuplicate: false };
    });

    const trigger = (path: string, kind: SyncJobKind, event: EventType, action: string) =>
      app.post(`${base}/:syncId/${path}`, async (req: FastifyRequest) => {
        const actor = actorOf(req);
        const { syncId } = parseOr422(IdParams, req.params);
        const importBehavior =
          kind === "import" ? parseOr422(SecretSyncImportQuery, req.query).importBehavior : undefined;
        const s = find(actor, syncId, action);
        if (kind === "import" && !dest.canImport) throw badRequest(`${dest.label} does not support importing secrets`);
        if (jobs.busy(s.id)) throw badRequest(LOCKED);
        if (importBehavior) s.importBehavior = importBehavior;
        jobs.enqueue(s, kind);
        recordEvent(ctx, req, actor, event, { ...meta(s), ...(importBehavior && { importBehavior }) }, s.projectId);
        return { secretSync: syncView(store, s) };
      });
    trigger("sync-secrets", "sync", "secret-sync-sync-secrets", "sync-secrets");
    trigger("import-secrets", "import", "secret-sync-import-secrets", "import-secrets");
    trigger("remove-secrets", "remove", "secret-sync-remove-secrets", "remove-secrets");
  }
}
