import type { FastifyRequest } from "fastify";
import type { EventType } from "../../sdk/schemas";
import {
  actorOf,
  connectionForUse,
  recordEvent,
  requireProject,
  resolveFolder,
  type EmulatorContext,
} from "../context";
import type { ApiError } from "../errors";
import type { Store } from "../store";
import type { Actor, Folder } from "../types";
import { folderRefs } from "../views";

/**
 * What secret syncs and secret rotations share: rows of one kind (a sync destination, a rotation
 * type) that live in a project's folder and use a connection, served under the kind's path.
 */
export interface KindRow {
  id: string;
  name: string;
  projectId: string;
  folderId: string | null;
  connectionId: string;
}

/** The rows of one kind, as one route family (syncs of a destination, rotations of a type) sees them. */
export interface RowsOfKind<T extends KindRow> {
  rows: ReadonlyMap<string, T>;
  /** permission subject */
  subject: string;
  ofKind(row: T): boolean;
  notFound(id: string): ApiError;
  /** A row of another kind asked for under this kind's path. */
  wrongKind(id: string): ApiError;
  /** audit metadata of one row */
  meta(row: T): Record<string, unknown>;
  /** audit metadata of a list */
  listMeta(rows: readonly T[]): Record<string, unknown>;
  events: { list: EventType; get: EventType };
}

/** The audit metadata of a row: `head` (its kind and id), then its name, connection and place. */
export function rowMeta<H extends Record<string, unknown>>(store: Store, row: KindRow, head: H) {
  const { environment, folder } = folderRefs(store, row.folderId ?? "");
  return {
    ...head,
    name: row.name,
    connectionId: row.connectionId,
    environment: environment?.slug,
    secretPath: folder?.path,
  };
}

/** A row by id: it must exist (404), the caller must be a member of its project (403), and be of the kind (400). */
export function findOfKind<T extends KindRow>(
  ctx: EmulatorContext,
  kind: RowsOfKind<T>,
  actor: Actor,
  id: string,
  action: string,
): T {
  const row = kind.rows.get(id);
  if (!row) throw kind.notFound(id);
  requireProject(ctx, actor, row.projectId, action, kind.subject);
  if (!kind.ofKind(row)) throw kind.wrongKind(row.id);
  return row;
}

/** The list route: the project's rows of the kind, audited. */
export function listOfKind<T extends KindRow>(
  ctx: EmulatorContext,
  kind: RowsOfKind<T>,
  req: FastifyRequest,
  projectId: string,
): T[] {
  const actor = actorOf(req);
  requireProject(ctx, actor, projectId, "read", kind.subject);
  const list = [...kind.rows.values()].filter((r) => r.projectId === projectId && kind.ofKind(r));
  recordEvent(ctx, req, actor, kind.events.list, kind.listMeta(list), projectId);
  return list;
}

/** The read-by-id route: one row, audited. */
export function getOfKind<T extends KindRow>(
  ctx: EmulatorContext,
  kind: RowsOfKind<T>,
  req: FastifyRequest,
  id: string,
): T {
  const actor = actorOf(req);
  const row = findOfKind(ctx, kind, actor, id, "read");
  recordEvent(ctx, req, actor, kind.events.get, kind.meta(row), row.projectId);
  return row;
}

/**
 * Where a new row goes: the caller must be a member of the project, the folder must exist, and
 * the connection must be usable there and be of `connectionApp`.
 */
export function placeNewRow<T extends KindRow>(
  ctx: EmulatorContext,
  kind: RowsOfKind<T>,
  actor: Actor,
  body: { projectId: string; environment: string; secretPath: string; connectionId: string },
  connectionApp: string,
): Folder {
  requireProject(ctx, actor, body.projectId, "create", kind.subject);
  const { folder } = resolveFolder(ctx, body.projectId, body.environment, body.secretPath);
  connectionForUse(ctx, actor, body.connectionId, body.projectId, connectionApp);
  return folder;
}
