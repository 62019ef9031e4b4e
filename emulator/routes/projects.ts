import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { defaultProjectEnvironments, projectOperations as ops } from "../../sdk/schemas";
import { deleteProject } from "../cascades";
import {
  actorOf,
  isMember,
  projectPermission,
  recordEvent,
  requireProject,
  subjects,
  type EmulatorContext,
} from "../context";
import { permanentMembership } from "../permissions";
import { randomLowerAlphanumeric } from "../credentials";
import { badRequest, forbidden, notFound } from "../errors";
import { addEnvironment, newProject } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Actor, Project } from "../types";
import { projectView } from "../views";

/**
 * Projects (docs/service-api.md §10) under `/api/v1/projects`. The caller that creates a project
 * becomes a member of it, so it can use it at once; the list answers the caller's projects.
 */
export function registerProjectRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, projectHandlers, ctx);
}

export type ProjectRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const projectHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listProjects,
  get: getProject,
  getBySlug: getProjectBySlug,
  create: createProject,
  update: updateProject,
  delete: deleteProjectRoute,
};

const projectMeta = (p: Project) => ({ projectId: p.id, name: p.name, slug: p.slug, type: p.type });

/** The project (404 with the service's text), of which the caller must be a member (403). */
function findProject(ctx: EmulatorContext, actor: Actor, id: string, action: string, subject: string): Project {
  if (!ctx.store.projects.has(id)) throw notFound(`Project with ID '${id}' not found`);
  return requireProject(ctx, actor, id, action, subject);
}

function slugTaken(ctx: EmulatorContext, orgId: string, slug: string, exceptId?: string): boolean {
  for (const p of ctx.store.projects.values())
    if (p.orgId === orgId && p.slug === slug && p.id !== exceptId) return true;
  return false;
}

/**
 * The service's `slugify` (lowercase, every run of other characters one hyphen, none at the ends),
 * without its transliteration and de-camel-casing.
 */
export function slugify(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

async function listProjects(ctx: EmulatorContext, req: ProjectRequest<"list">) {
  const actor = actorOf(req);
  const { type } = req.query;
  const projects = [...ctx.store.projects.values()].filter(
    (p) => p.orgId === actor.orgId && isMember(ctx, actor, p.id) && (!type || p.type === type),
  );
  return { projects: projects.map((p) => projectView(ctx.store, p, true)) };
}

/**
 * Any member may read the project: the service's `getAProject` asks for the caller's permission
 * (membership) and checks no rule (services/project/project-service.ts).
 */
export async function getProject(ctx: EmulatorContext, req: ProjectRequest<"get">) {
  const { projectId } = req.params;
  if (!ctx.store.projects.has(projectId)) throw notFound(`Project with ID '${projectId}' not found`);
  const p = projectPermission(ctx, actorOf(req), projectId, subjects.projects).project;
  return { project: projectView(ctx.store, p, true) };
}

/** The project itself, in no envelope; looked up in the caller's organization. */
export async function getProjectBySlug(ctx: EmulatorContext, req: ProjectRequest<"getBySlug">) {
  const actor = actorOf(req);
  const { slug } = req.params;
  const p = [...ctx.store.projects.values()].find((x) => x.orgId === actor.orgId && x.slug === slug);
  // [UNCONFIRMED] the text of this 404.
  if (!p) throw notFound(`Project with slug '${slug}' not found`);
  projectPermission(ctx, actor, p.id, subjects.projects);
  return projectView(ctx.store, p, true);
}

export async function createProject(ctx: EmulatorContext, req: ProjectRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  // Only the service's own template exists here; a named one is looked up and not found.
  if (body.template !== undefined && body.template !== "default")
    throw notFound(`Could not find project template with Name "${body.template}"`);
  const slug = body.slug ?? slugify(`${body.projectName}-${randomLowerAlphanumeric(4)}`);
  if (slugTaken(ctx, actor.orgId, slug)) {
    throw badRequest(
      `A project with the slug "${slug}" already exists in your organization. Please choose a different name or slug.`,
    );
  }
  const now = new Date().toISOString();
  const p = newProject(
    {
      id: randomUUID(),
      orgId: actor.orgId,
      name: body.projectName,
      slug,
      type: body.type,
      description: body.projectDescription ?? null,
      kmsKeyId: body.kmsKeyId ?? null,
      hasDeleteProtection: body.hasDeleteProtection,
    },
    now,
  );
  ctx.store.projects.set(p.id, p);
  if (body.shouldCreateDefaultEnvs ?? true) {
    defaultProjectEnvironments.forEach((e, i) =>
      addEnvironment(ctx.store, { projectId: p.id, name: e.name, slug: e.slug, position: i + 1 }, now),
    );
  }
  // The creator becomes a member with the admin role, as the service's `createProject` makes it
  // (services/project/project-service.ts; docs/service-api.md §20).
  const membership = permanentMembership(actor.identity.id, p.id, "admin", now);
  ctx.store.identityMemberships.set(membership.id, membership);
  recordEvent(ctx, req, actor, "create-project", projectMeta(p), p.id);
  return { project: projectView(ctx.store, p, true) };
}

async function updateProject(ctx: EmulatorContext, req: ProjectRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const p = findProject(ctx, actor, req.params.projectId, "edit", subjects.projectSettings);
  if (body.slug !== undefined && slugTaken(ctx, p.orgId, body.slug, p.id)) {
    throw badRequest(
      `Failed to update project. A project with the slug "${body.slug}" already exists in your organization. Please choose a different slug.`,
    );
  }
  if (body.name !== undefined) p.name = body.name;
  if (body.description !== undefined) p.description = body.description;
  if (body.slug !== undefined) p.slug = body.slug;
  if (body.autoCapitalization !== undefined) p.autoCapitalization = body.autoCapitalization;
  if (body.hasDeleteProtection !== undefined) p.hasDeleteProtection = body.hasDeleteProtection;
  p.updatedAt = ctx.store.writeTime(p);
  recordEvent(ctx, req, actor, "update-project", projectMeta(p), p.id);
  return { project: projectView(ctx.store, p, false) };
}

/** Refused while the project is protected; otherwise the project goes with everything in it (cascades.ts). */
async function deleteProjectRoute(ctx: EmulatorContext, req: ProjectRequest<"delete">) {
  const actor = actorOf(req);
  const p = findProject(ctx, actor, req.params.projectId, "delete", subjects.projects);
  if (p.hasDeleteProtection) throw forbidden("Project delete protection is enabled");
  const view = projectView(ctx.store, p, false);
  recordEvent(ctx, req, actor, "delete-project", projectMeta(p), p.id);
  deleteProject(ctx.store, p);
  return { project: view };
}
