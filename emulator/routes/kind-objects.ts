import type { FastifyRequest } from "fastify";
import type { EventType } from "../../sdk/schemas";
import {
  actorOf,
  connectionForUse,
  projectPermission,
  recordEvent,
  requireProject,
  resolveFolder,
  type EmulatorContext,
} from "../context";
import type { ApiError } from "../errors";
import { throwUnlessCan, type ProjectAbility } from "../permissions";
import type { Store } from "../store";
import type { Actor, Folder } from "../types";
import { folderRefs } from "../views";

/**
 * What secret syncs and secret rotations share: objects of one kind (a sync destination, a rotation
 * type) that live in a project's folder and use a connection, served under the kind's path.
 */
export interface KindObject {
  id: string;
  name: string;
  projectId: string;
  folderId: string | null;
  connectionId: string;
}

/** The objects of one kind, as one route family (syncs of a destination, rotations of a type) sees them. */
export interface ObjectsOfKind<T extends KindObject> {
  objects: ReadonlyMap<string, T>;
  /** permission subject */
  subject: string;
  ofKind(object: T): boolean;
  notFound(id: string): ApiError;
  /** An object of another kind asked for under this kind's path. */
  wrongKind(id: string): ApiError;
  /** audit metadata of one object */
  meta(object: T): Record<string, unknown>;
  /** audit metadata of a list */
  listMeta(objects: readonly T[]): Record<string, unknown>;
  events: { list: EventType; get: EventType };
}

/** The audit metadata of an object: `head` (its kind and id), then its name, connection and place. */
export function objectMeta<H extends Record<string, unknown>>(store: Store, object: KindObject, head: H) {
  const { environment, folder } = folderRefs(store, object.folderId ?? "");
  return {
    ...head,
    name: object.name,
    connectionId: object.connectionId,
    environment: environment?.slug,
    secretPath: folder?.path,
  };
}

/**
 * The fields a sync's or rotation's permission checks name (`SecretSyncSubjectFields`,
 * `SecretRotationsSubjectFields`, ee/services/permission/project-permission.ts): its place and
 * connection.
 */
export function objectFields(store: Store, object: KindObject) {
  const { environment, folder } = folderRefs(store, object.folderId ?? "");
  return { environment: environment?.slug, secretPath: folder?.path, connectionId: object.connectionId };
}

/**
 * An object by id: it must exist (404), the caller must be allowed the action on it in its
 * project (403), and be of the kind (400).
 */
export function findOfKind<T extends KindObject>(
  ctx: EmulatorContext,
  kind: ObjectsOfKind<T>,
  actor: Actor,
  id: string,
  action: string,
): T {
  const object = kind.objects.get(id);
  if (!object) throw kind.notFound(id);
  requireProject(ctx, actor, object.projectId, action, kind.subject, objectFields(ctx.store, object));
  if (!kind.ofKind(object)) throw kind.wrongKind(object.id);
  return object;
}

/** The list route: the project's objects of the kind (or of every kind of the family), audited. */
export function listOfKind<T extends KindObject>(
  ctx: EmulatorContext,
  kind: Pick<ObjectsOfKind<T>, "objects" | "subject" | "ofKind" | "listMeta" | "events">,
  req: FastifyRequest,
  projectId: string,
): T[] {
  const actor = actorOf(req);
  requireProject(ctx, actor, projectId, "read", kind.subject);
  const list = [...kind.objects.values()].filter((r) => r.projectId === projectId && kind.ofKind(r));
  recordEvent(ctx, req, actor, kind.events.list, kind.listMeta(list), projectId);
  return list;
}

/** The read-by-id route: one object, audited. */
export function getOfKind<T extends KindObject>(
  ctx: EmulatorContext,
  kind: ObjectsOfKind<T>,
  req: FastifyRequest,
  id: string,
): T {
  const actor = actorOf(req);
  const object = findOfKind(ctx, kind, actor, id, "read");
  recordEvent(ctx, req, actor, kind.events.get, kind.meta(object), object.projectId);
  return object;
}

/**
 * Where a new object goes: the caller must be a member of the project, the folder must exist, and
 * the connection must be usable there and be of `connectionApp`.
 */
export function placeNewObject<T extends KindObject>(
  ctx: EmulatorContext,
  kind: ObjectsOfKind<T>,
  actor: Actor,
  body: { projectId: string; environment: string; secretPath: string; connectionId: string },
  connectionApp: string,
  /** A further check the operation makes after the create check (a sync's on the secrets it reads). */
  alsoCheck?: (ability: ProjectAbility) => void,
): Folder {
  const { environment, secretPath, connectionId } = body;
  const { ability } = projectPermission(ctx, actor, body.projectId, kind.subject);
  throwUnlessCan(ability, "create", kind.subject, { environment, secretPath, connectionId });
  alsoCheck?.(ability);
  const { folder } = resolveFolder(ctx, body.projectId, body.environment, body.secretPath);
  connectionForUse(ctx, actor, body.connectionId, body.projectId, connectionApp);
  return folder;
}
