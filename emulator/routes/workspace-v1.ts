import type { FastifyInstance } from "fastify";
import { projectEnvironmentV1Operations as ops, workspaceV1Operations } from "../../sdk/schemas";
import { actorOf, setActor, type EmulatorContext } from "../context";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import {
  createEnvironment,
  deleteEnvironmentRoute,
  getEnvironment,
  updateEnvironment,
  type EnvironmentRequest,
} from "./project-environments";
import { createProject, getProject, getProjectBySlug, type ProjectRequest } from "./projects";

/**
 * `/api/v1/workspace/{workspaceId}/environments` (docs/service-api.md §22): the current
 * environment handlers on the same store, with `workspaceId` read as the project and the writes'
 * answer naming it `workspace` (routes/v1/deprecated-project-env-router.ts).
 */
export function registerWorkspaceV1Routes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, handlers, ctx);
  routeOperations(app, workspaceV1Operations, workspaceHandlers, ctx);
}

const workspaceHandlers: ScopedHandlers<EmulatorContext, typeof workspaceV1Operations> = {
  create: (ctx, req) => createProject(ctx, req as unknown as ProjectRequest<"create">),
  getBySlug: (ctx, req) => getProjectBySlug(ctx, req as unknown as ProjectRequest<"getBySlug">),
  get: async (ctx, req) => {
    const current = Object.assign(Object.create(req) as object, {
      params: { projectId: req.params.workspaceId },
    }) as unknown as ProjectRequest<"get">;
    setActor(current, actorOf(req));
    return { workspace: (await getProject(ctx, current)).project };
  },
};

type V1Request<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

/** The same request (and actor) with its params in the current routes' shape. */
function withParams<K extends "get" | "create" | "update" | "delete">(
  req: V1Request<K>,
  params: Record<string, string>,
): EnvironmentRequest<K> {
  const current = Object.assign(Object.create(req) as object, { params }) as unknown as EnvironmentRequest<K>;
  setActor(current, actorOf(req));
  return current;
}

const asWorkspace = <E>(a: { message: string; projectId: string; environment: E }) => ({
  message: a.message,
  workspace: a.projectId,
  environment: a.environment,
});

const handlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  get: (ctx, req) => getEnvironment(ctx, withParams(req, { projectId: req.params.workspaceId, id: req.params.envId })),
  create: async (ctx, req) =>
    asWorkspace(await createEnvironment(ctx, withParams(req, { projectId: req.params.workspaceId }))),
  update: async (ctx, req) =>
    asWorkspace(
      await updateEnvironment(ctx, withParams(req, { projectId: req.params.workspaceId, id: req.params.id })),
    ),
  delete: async (ctx, req) =>
    asWorkspace(
      await deleteEnvironmentRoute(ctx, withParams(req, { projectId: req.params.workspaceId, id: req.params.id })),
    ),
};
