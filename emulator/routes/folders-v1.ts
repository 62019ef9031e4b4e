import type { FastifyInstance } from "fastify";
import { secretFolderV1Operations as ops } from "../../sdk/schemas";
import { actorOf, setActor, type EmulatorContext } from "../context";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder, type FolderRequest } from "./secret-folders";

/**
 * `/api/v1/folders` (docs/service-api.md §22): the v2 folder handlers on the same store, with
 * `workspaceId` read as the project. The service's router takes `path || directory || "/"`: on a
 * write `path` defaults to `/`, so `directory` never wins; on the list it does when `path` is absent.
 */
export function registerFolderV1Routes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, handlers, ctx);
}

type V1Request<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const placeOf = (p: { workspaceId: string; environment: string; path?: string }) => ({
  projectId: p.workspaceId,
  environment: p.environment,
  path: p.path ?? "/",
});

/** The same request (and actor) with its query or body in the v2 shape. */
function asV2<K extends keyof typeof ops, V extends object>(req: V1Request<K>, part: "query" | "body", value: V) {
  const v2 = Object.assign(Object.create(req) as object, { [part]: value }) as unknown as FolderRequest<K>;
  setActor(v2, actorOf(req));
  return v2;
}

const handlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: (ctx, req) =>
    listFolders(
      ctx,
      asV2(req, "query", {
        ...placeOf(req.query),
        path: req.query.path || req.query.directory || "/",
        recursive: req.query.recursive,
      }),
    ),
  get: (ctx, req) => getFolder(ctx, req as unknown as FolderRequest<"get">),
  create: (ctx, req) =>
    createFolder(
      ctx,
      asV2(req, "body", { ...placeOf(req.body), name: req.body.name, description: req.body.description }),
    ),
  update: (ctx, req) =>
    updateFolder(
      ctx,
      asV2(req, "body", { ...placeOf(req.body), name: req.body.name, description: req.body.description }),
    ),
  // The route passes `forceDelete: true`: a folder is deleted with what it holds.
  delete: (ctx, req) => deleteFolder(ctx, asV2(req, "body", { ...placeOf(req.body), forceDelete: true })),
};
