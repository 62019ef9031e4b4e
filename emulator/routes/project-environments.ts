import type { FastifyInstance } from "fastify";
import { projectEnvironmentOperations as ops } from "../../sdk/schemas";
import { deleteEnvironment } from "../cascades";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { addEnvironment } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Actor, Environment } from "../types";
import { environmentView } from "../views";

/**
 * A project's environments (docs/service-api.md §10) under `/api/v1/projects/{projectId}/environments`.
 * Each has a root folder from its creation; a delete is a hard delete that takes its folders and
 * secrets (cascades.ts). Positions run from 1, the service's way: a new environment goes last
 * unless it asks for a place, and a place taken moves the others along.
 */
export function registerProjectEnvironmentRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, environmentHandlers, ctx);
}

export type EnvironmentRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const environmentHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  get: getEnvironment,
  create: createEnvironment,
  update: updateEnvironment,
  delete: deleteEnvironmentRoute,
};

const SLUG_TAKEN = "Environment with slug already exists";

function findEnvironment(
  ctx: EmulatorContext,
  actor: Actor,
  projectId: string,
  id: string,
  action: string,
): Environment {
  requireProject(ctx, actor, projectId, action, subjects.environments);
  const e = ctx.store.environments.get(id);
  if (!e || e.projectId !== projectId)
    throw notFound(`Environment with id '${id}' in project with ID '${projectId}' not found`);
  return e;
}

const projectEnvironments = (ctx: EmulatorContext, projectId: string) =>
  [...ctx.store.environments.values()].filter((e) => e.projectId === projectId);

function slugTaken(ctx: EmulatorContext, projectId: string, slug: string, exceptId?: string): boolean {
  return projectEnvironments(ctx, projectId).some((e) => e.slug === slug && e.id !== exceptId);
}

/**
 * Moves `env` to `target`: when another environment holds it, those between the two places shift
 * by one toward the old place (the service's `updateAllPosition`).
 */
function moveTo(ctx: EmulatorContext, env: Environment, target: number): void {
  const others = projectEnvironments(ctx, env.projectId).filter((e) => e.id !== env.id);
  if (others.some((e) => e.position === target)) {
    const from = env.position;
    for (const e of others) {
      if (target > from && e.position > from && e.position <= target) e.position -= 1;
      else if (target < from && e.position >= target && e.position < from) e.position += 1;
    }
  }
  env.position = target;
}

const answer = (message: string, e: Environment) => ({
  message,
  projectId: e.projectId,
  environment: environmentView(e),
});

export async function getEnvironment(ctx: EmulatorContext, req: EnvironmentRequest<"get">) {
  const actor = actorOf(req);
  const e = findEnvironment(ctx, actor, req.params.projectId, req.params.id, "read");
  recordEvent(ctx, req, actor, "get-environment", { environmentId: e.id }, e.projectId);
  return { environment: environmentView(e) };
}

export async function createEnvironment(ctx: EmulatorContext, req: EnvironmentRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  const { projectId } = req.params;
  requireProject(ctx, actor, projectId, "create", subjects.environments);
  if (slugTaken(ctx, projectId, body.slug)) throw badRequest(SLUG_TAKEN);
  const envs = projectEnvironments(ctx, projectId);
  let position = body.position;
  if (position === undefined) position = Math.max(0, ...envs.map((e) => e.position)) + 1;
  else if (envs.some((e) => e.position === position)) {
    // The service's `shiftPositions`: the place and those after it move up one.
    for (const e of envs) if (e.position >= position) e.position += 1;
  }
  const e = addEnvironment(
    ctx.store,
    { projectId, name: body.name, slug: body.slug, position },
    new Date().toISOString(),
  );
  recordEvent(ctx, req, actor, "create-environment", { name: e.name, slug: e.slug }, projectId);
  return answer("Successfully created new environment", e);
}

export async function updateEnvironment(ctx: EmulatorContext, req: EnvironmentRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const e = findEnvironment(ctx, actor, req.params.projectId, req.params.id, "edit");
  if (body.slug !== undefined && slugTaken(ctx, e.projectId, body.slug, e.id)) throw badRequest(SLUG_TAKEN);
  const old = { oldName: e.name, oldSlug: e.slug, oldPos: e.position };
  if (body.position !== undefined && body.position !== e.position) moveTo(ctx, e, body.position);
  if (body.name !== undefined) e.name = body.name;
  if (body.slug !== undefined) ctx.store.setEnvironmentSlug(e, body.slug);
  e.updatedAt = ctx.store.writeTime(e);
  const meta = { ...old, newName: e.name, newSlug: e.slug, newPos: e.position };
  recordEvent(ctx, req, actor, "update-environment", meta, e.projectId);
  return answer("Successfully updated environment", e);
}

/**
 * A hard delete. Syncs and rotations in its folders stay, with no folder ([UNCONFIRMED] for
 * rotations; cascades.ts).
 */
export async function deleteEnvironmentRoute(ctx: EmulatorContext, req: EnvironmentRequest<"delete">) {
  const actor = actorOf(req);
  const e = findEnvironment(ctx, actor, req.params.projectId, req.params.id, "delete");
  const out = answer("Successfully deleted environment", e);
  deleteEnvironment(ctx.store, e);
  recordEvent(ctx, req, actor, "delete-environment", { name: e.name, slug: e.slug }, e.projectId);
  return out;
}
