import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { ProjectRoleRecordSchema } from "../../sdk/schemas/project-roles";
import { projectRoleOperations } from "../../sdk/schemas/operations/project-access";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { builtInRoleRules, isBuiltInProjectRole } from "../permissions";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Project, StoredProjectRole } from "../types";

/**
 * A project's custom roles (docs/service-api.md §19): `ee/routes/v1/project-role-router.ts` at
 * `/api/v1/projects/:projectId/roles`, `services/role/role-service.ts` and
 * `services/role/project/project-role-factory.ts`.
 */
export function registerProjectRoleRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, projectRoleOperations, handlers, ctx);
}

type Request<K extends keyof typeof projectRoleOperations> = OperationRequest<(typeof projectRoleOperations)[K]>;

/** role-service.ts createRole / updateRole: the plan's RBAC feature, checked after the permission guard. */
export const CREATE_ROLE_REFUSAL =
  "Failed to create custom role due to plan RBAC restriction. Upgrade to Infisical Enterprise plan to create custom roles.";
export const UPDATE_ROLE_REFUSAL =
  "Failed to update custom role due to plan RBAC restriction. Upgrade to Infisical Enterprise plan to update custom roles.";

/**
 * The built-in roles `getPredefinedRoles` lists (project-role-factory.ts), in its order; the
 * SSH and KMS ones only in a project of that type. Each answer gives them a fresh uuid, as the
 * service does (`uuidv4()` per call).
 */
const predefinedRoles: { slug: string; name: string; description: string; type?: string }[] = [
  { slug: "admin", name: "Admin", description: "Full administrative access over a project" },
  { slug: "member", name: "Member", description: "Limited read/write role in a project" },
  {
    slug: "ssh-host-bootstrapper",
    name: "SSH Host Bootstrapper",
    description: "Create and issue SSH Hosts in a project",
    type: "ssh",
  },
  {
    slug: "cryptographic-operator",
    name: "Cryptographic Operator",
    description: "Perform cryptographic operations, such as encryption and signing, in a project",
    type: "kms",
  },
  { slug: "viewer", name: "Viewer", description: "Only read role in a project" },
  { slug: "no-access", name: "No Access", description: "No access to any resources in the project" },
];

/** The project's built-in roles, as `getPredefinedRoles` answers them (without their rules). */
export function builtInRolesOf(project: Project) {
  const now = new Date().toISOString();
  return predefinedRoles
    .filter((r) => !r.type || r.type === project.type)
    .map(({ slug, name, description }) => ({
      id: randomUUID(),
      projectId: project.id,
      slug,
      name,
      description,
      createdAt: now,
      updatedAt: now,
    }));
}

/** `isCustomProjectRole`: any slug that is not one of the service's `ProjectMembershipRole` values. */
export function isCustomProjectRole(slug: string): boolean {
  return !predefinedRoles.some((r) => r.slug === slug) && slug !== "custom";
}

/** The project's custom role by slug. */
export function customRoleBySlug(ctx: EmulatorContext, projectId: string, slug: string): StoredProjectRole | undefined {
  for (const r of ctx.store.projectRoles.values()) if (r.projectId === projectId && r.slug === slug) return r;
  return undefined;
}

/** `Role with <id> not found` (role-service.ts updateRole / deleteRole): another project's role is not found either. */
function findRole(ctx: EmulatorContext, projectId: string, roleId: string): StoredProjectRole {
  const r = ctx.store.projectRoles.get(roleId);
  if (!r || r.projectId !== projectId) throw notFound(`Role with ${roleId} not found`);
  return r;
}

/** The role as `SanitizedRoleSchema` answers it; its rules are stored as the program's v2 rules were parsed. */
const roleView = (r: StoredProjectRole) => ({
  ...r,
  permissions: r.permissions as z.input<typeof ProjectRoleRecordSchema>["permissions"],
});

/** The event's `permissions`: the router logs the rules it stores, as JSON. */
const packed = (permissions: unknown[] | undefined) => (permissions ? JSON.stringify(permissions) : undefined);

const handlers: ScopedHandlers<EmulatorContext, typeof projectRoleOperations> = {
  /** The built-in roles first, then the custom ones by slug; the list answer has no permissions. */
  async list(ctx, req: Request<"list">) {
    const project = requireProject(ctx, actorOf(req), req.params.projectId, "read", subjects.projectRoles);
    const custom = [...ctx.store.projectRoles.values()]
      .filter((r) => r.projectId === project.id)
      .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
      .map(({ permissions: _omitted, ...r }) => r);
    return { roles: [...builtInRolesOf(project), ...custom] };
  },

  /**
   * A custom role with its rules; a built-in slug answers its predefined row with its rules
   * (role-service.ts getRoleBySlug: `getPredefinedRoles(...)[0]`, the table in permissions.ts), an
   * unknown one 404 (`Role with slug <slug> not found`).
   */
  async getBySlug(ctx, req: Request<"getBySlug">) {
    const { projectId, roleSlug } = req.params;
    const project = requireProject(ctx, actorOf(req), projectId, "read", subjects.projectRoles);
    if (!isCustomProjectRole(roleSlug)) {
      const builtIn = builtInRolesOf(project).find((r) => r.slug === roleSlug);
      if (!builtIn) throw badRequest(`Role with slug ${roleSlug} not found`);
      return { role: { ...builtIn, permissions: isBuiltInProjectRole(roleSlug) ? builtInRoleRules(roleSlug) : [] } };
    }
    const role = customRoleBySlug(ctx, projectId, roleSlug);
    if (!role) throw notFound(`Role with slug ${roleSlug} not found`);
    return { role: roleView(role) };
  },

  /** Guard, then the plan, then the slug's uniqueness in the project (role-service.ts createRole). */
  async create(ctx, req: Request<"create">) {
    const actor = actorOf(req);
    const { projectId } = req.params;
    requireProject(ctx, actor, projectId, "create", subjects.projectRoles);
    if (!ctx.plan.rbac) throw badRequest(CREATE_ROLE_REFUSAL);
    const { body } = req;
    if (customRoleBySlug(ctx, projectId, body.slug)) throw badRequest(`Role with ${body.slug} already exists`);
    const now = new Date().toISOString();
    const role: StoredProjectRole = {
      id: randomUUID(),
      projectId,
      slug: body.slug,
      name: body.name,
      description: body.description ?? null,
      permissions: body.permissions,
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.projectRoles.set(role.id, role);
    recordEvent(
      ctx,
      req,
      actor,
      "create-project-role",
      {
        roleId: role.id,
        slug: role.slug,
        name: role.name,
        description: body.description,
        permissions: packed(body.permissions),
      },
      projectId,
    );
    return { role: roleView(role) };
  },

  /** Guard, plan, the role (404), then a new slug's uniqueness; each field given is written. */
  async update(ctx, req: Request<"update">) {
    const actor = actorOf(req);
    const { projectId, roleId } = req.params;
    requireProject(ctx, actor, projectId, "edit", subjects.projectRoles);
    if (!ctx.plan.rbac) throw badRequest(UPDATE_ROLE_REFUSAL);
    const role = findRole(ctx, projectId, roleId);
    const { body } = req;
    if (body.slug) {
      const same = customRoleBySlug(ctx, projectId, body.slug);
      if (same && same.id !== role.id) throw badRequest(`Role with ${body.slug} already exists`);
      role.slug = body.slug;
    }
    if (body.name !== undefined) role.name = body.name;
    if (body.description !== undefined) role.description = body.description;
    if (body.permissions !== undefined) role.permissions = body.permissions;
    role.updatedAt = ctx.store.writeTime(role);
    recordEvent(
      ctx,
      req,
      actor,
      "update-project-role",
      {
        roleId: role.id,
        slug: body.slug,
        name: body.name,
        description: body.description,
        permissions: packed(body.permissions),
      },
      projectId,
    );
    return { role: roleView(role) };
  },

  /** A role some membership uses is refused, naming how many (role-service.ts deleteRole). */
  async delete(ctx, req: Request<"delete">) {
    const actor = actorOf(req);
    const { projectId, roleId } = req.params;
    requireProject(ctx, actor, projectId, "delete", subjects.projectRoles);
    const role = findRole(ctx, projectId, roleId);
    let count = 0;
    for (const m of ctx.store.identityMemberships.values())
      count += m.roles.filter((r) => r.customRoleId === role.id).length;
    if (count > 0) {
      const plural = count > 1 ? "s" : "";
      throw badRequest(
        `Role is assigned to ${count} identity membership${plural}. Re-assign membership role${plural} to delete this role.`,
      );
    }
    ctx.store.projectRoles.delete(role.id);
    recordEvent(
      ctx,
      req,
      actor,
      "delete-project-role",
      { roleId: role.id, slug: role.slug, name: role.name },
      projectId,
    );
    return { role: roleView(role) };
  },
};
