import type { FastifyInstance } from "fastify";
import { secretFolderOperations as ops } from "../../sdk/schemas";
import { deleteFolderTree } from "../cascades";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { childPath, newFolder } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Store } from "../store";
import type { Environment, Folder } from "../types";
import { folderView } from "../views";

/**
 * Secret folders (docs/service-api.md §11) under `/api/v2/folders`. A folder is named in its
 * parent's path; a create makes the parents the path lacks. The root folder (`/`) of each
 * environment is never a child, so it is never listed, renamed or deleted.
 */
export function registerSecretFolderRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, folderHandlers, ctx);
}

export type FolderRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const folderHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listFolders,
  get: getFolder,
  create: createFolder,
  update: updateFolder,
  delete: deleteFolder,
};

/** A path as the service reads it: one leading slash, no empty segments, no trailing slash. */
export const normalizePath = (path: string) => `/${path.split("/").filter(Boolean).join("/")}`;

/** The folder at `path` in an environment of a project (by slug); undefined when either does not exist. */
export function folderIn(store: Store, projectId: string, environment: string, path: string): Folder | undefined {
  const env = store.environmentBySlug(projectId, environment);
  return env && store.folderByEnvPath(env.id, normalizePath(path));
}

function environmentOf(ctx: EmulatorContext, projectId: string, slug: string): Environment {
  const env = ctx.store.environmentBySlug(projectId, slug);
  if (!env) throw notFound(`Environment with slug '${slug}' in project with ID '${projectId}' not found`);
  return env;
}

function parentFolder(ctx: EmulatorContext, env: Environment, path: string): Folder {
  const f = ctx.store.folderByEnvPath(env.id, normalizePath(path));
  if (!f) throw notFound(`Folder with path '${path}' in environment with slug '${env.slug}' not found`);
  return f;
}

/** The folder at `path`, made with every missing folder on the way. */
function ensurePath(store: Store, env: Environment, path: string, now: string): Folder {
  const root = store.folderByEnvPath(env.id, "/");
  if (!root) throw notFound(`Parent folder for path '${path}' not found`);
  let folder: Folder = root;
  for (const name of path.split("/").filter(Boolean)) {
    const next: Folder =
      store.folderByEnvPath(env.id, childPath(folder.path, name)) ?? newFolder(env, folder, name, now);
    if (!store.folders.has(next.id)) store.addFolder(next);
    folder = next;
  }
  return folder;
}

const folderMeta = (env: Environment, f: Folder) => ({
  environment: env.slug,
  folderId: f.id,
  folderName: f.name,
  folderPath: f.path,
});

export async function listFolders(ctx: EmulatorContext, req: FolderRequest<"list">) {
  const q = req.query;
  requireProject(ctx, actorOf(req), q.projectId, "read", subjects.secretFolders, {
    environment: q.environment,
    secretPath: normalizePath(q.path),
  });
  const env = environmentOf(ctx, q.projectId, q.environment);
  const at = ctx.store.folderByEnvPath(env.id, normalizePath(q.path));
  if (!at) return { folders: [] };
  if (!q.recursive) return { folders: ctx.store.childFolders(at.id).map((f) => folderView(f, false)) };
  // [UNCONFIRMED] `relativePath`: the folder's path below the listed one (`/db` for `/app/db` listed from `/app`).
  const cut = at.path === "/" ? 0 : at.path.length;
  return {
    folders: ctx.store.descendantFolders(at).map((f) => ({ ...folderView(f, false), relativePath: f.path.slice(cut) })),
  };
}

/** The folder with its environment, project and path joined; any member of the project may read it. */
export async function getFolder(ctx: EmulatorContext, req: FolderRequest<"get">) {
  const { id } = req.params;
  const f = ctx.store.folders.get(id);
  if (!f) throw notFound(`Folder with ID '${id}' not found`);
  const env = ctx.store.environments.get(f.environmentId)!;
  // [UNCONFIRMED] the fields of this check: the folder's own place.
  requireProject(ctx, actorOf(req), f.projectId, "read", subjects.secretFolders, {
    environment: env.slug,
    secretPath: f.path,
  });
  return {
    folder: {
      ...folderView(f, true),
      projectId: f.projectId,
      environment: { envId: env.id, envName: env.name, envSlug: env.slug },
    },
  };
}

export async function createFolder(ctx: EmulatorContext, req: FolderRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "create", subjects.secretFolders, {
    environment: body.environment,
    secretPath: normalizePath(body.path),
  });
  const env = environmentOf(ctx, body.projectId, body.environment);
  const now = new Date().toISOString();
  const parent = ensurePath(ctx.store, env, normalizePath(body.path), now);
  if (ctx.store.folderByEnvPath(env.id, childPath(parent.path, body.name)))
    throw badRequest(`Folder with name '${body.name}' already exists in path '${body.path}'`);
  const f = { ...newFolder(env, parent, body.name, now), description: body.description ?? null };
  ctx.store.addFolder(f);
  recordEvent(ctx, req, actor, "create-folder", folderMeta(env, f), f.projectId);
  return { folder: folderView(f, true) };
}

/** A child of `parent` by id, else by name (the service's fallback for the CLI); 404 when neither. */
function childOf(ctx: EmulatorContext, parent: Folder, idOrName: string, byNameFirst: boolean): Folder {
  const children = ctx.store.childFolders(parent.id);
  const byId = () => children.find((f) => f.id === idOrName);
  const byName = () => children.find((f) => f.name === idOrName);
  const f = byNameFirst ? (byName() ?? byId()) : (byId() ?? byName());
  if (!f) throw notFound(`Folder with ID '${idOrName}' not found`);
  return f;
}

/** Renames a folder (and changes its description); its subfolders' paths follow. */
export async function updateFolder(ctx: EmulatorContext, req: FolderRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "edit", subjects.secretFolders, {
    environment: body.environment,
    secretPath: normalizePath(body.path),
  });
  const env = environmentOf(ctx, body.projectId, body.environment);
  const parent = parentFolder(ctx, env, body.path);
  const f = childOf(ctx, parent, req.params.folderId, false);
  if (body.name !== f.name && ctx.store.folderByEnvPath(env.id, childPath(parent.path, body.name)))
    throw badRequest("Folder with specified name already exists");
  const oldFolderName = f.name;
  if (body.name !== f.name) {
    const below = ctx.store.descendantFolders(f);
    const oldPath = f.path;
    ctx.store.setFolderPath(f, childPath(parent.path, body.name));
    for (const d of below) ctx.store.setFolderPath(d, f.path + d.path.slice(oldPath.length));
    f.name = body.name;
  }
  if (body.description !== undefined) f.description = body.description;
  f.updatedAt = ctx.store.writeTime(f);
  const meta = { ...folderMeta(env, f), oldFolderName, newFolderName: f.name };
  recordEvent(ctx, req, actor, "update-folder", meta, f.projectId);
  return { folder: folderView(f, true) };
}

/**
 * Deletes a folder of the parent `path`, matched by name first, then by id. One holding secrets or
 * folders needs `forceDelete`, and then goes with them.
 */
export async function deleteFolder(ctx: EmulatorContext, req: FolderRequest<"delete">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "delete", subjects.secretFolders, {
    environment: body.environment,
    secretPath: normalizePath(body.path),
  });
  const env = environmentOf(ctx, body.projectId, body.environment);
  const f = childOf(ctx, parentFolder(ctx, env, body.path), req.params.folderIdOrName, true);
  const holds = (ctx.store.secrets.get(f.id)?.size ?? 0) > 0 || ctx.store.childFolders(f.id).length > 0;
  if (holds && !body.forceDelete) {
    throw badRequest(
      `Cannot delete folder "${f.name}" because it contains resources. Use forceDelete=true to delete it forcefully.`,
    );
  }
  const view = folderView(f, false);
  const meta = folderMeta(env, f);
  deleteFolderTree(ctx.store, f);
  recordEvent(ctx, req, actor, "delete-folder", meta, f.projectId);
  return { folder: view };
}
