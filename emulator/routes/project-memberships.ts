import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { msDuration, type MembershipRole } from "../../sdk/schemas/project-memberships";
import { identityMembershipOperations } from "../../sdk/schemas/operations/project-access";
import { actorOf, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { StoredIdentityMembership, StoredMembershipRole } from "../types";
import { authMethodsOf } from "./identities";
import { customRoleBySlug, isCustomProjectRole } from "./project-roles";

/**
 * Identities' memberships of a project (docs/service-api.md §19):
 * `server/routes/v1/identity-project-router.ts` at `/api/v1/projects/:projectId/identity-memberships`,
 * `services/membership-identity/membership-identity-service.ts` and
 * `project/project-membership-identity-factory.ts`.
 */
export function registerProjectMembershipRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, identityMembershipOperations, handlers, ctx);
}

type Request<K extends keyof typeof identityMembershipOperations> = OperationRequest<
  (typeof identityMembershipOperations)[K]
>;

/** membership-identity-service.ts createMembership / updateMembership: a custom role needs the plan's RBAC. */
export const ASSIGN_CUSTOM_ROLE_REFUSAL =
  "Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.";

/** The service's checks of a role list before anything is read: one permanent role, and a temporary one's range and start. */
function checkRoleList(roles: MembershipRole[]): void {
  if (roles.every((r) => r.isTemporary)) throw badRequest("Identity must have at least one permanent role");
  if (roles.some((r) => r.isTemporary && (!r.temporaryAccessStartTime || !r.temporaryRange)))
    throw badRequest("Temporary role must have access start time and range");
}

/**
 * The stored role rows of a list: a custom slug becomes `role: "custom"` with the role's id; a
 * temporary role ends at its start plus its range (`ms`). A custom slug needs the plan's RBAC,
 * and every custom slug must be one of the project's roles (`One or more custom roles not found`).
 */
function roleRows(ctx: EmulatorContext, projectId: string, roles: MembershipRole[]): StoredMembershipRole[] {
  const custom = roles.filter((r) => isCustomProjectRole(r.role));
  if (custom.length > 0 && !ctx.plan.rbac) throw badRequest(ASSIGN_CUSTOM_ROLE_REFUSAL);
  const found = new Map(custom.map((r) => [r.role, customRoleBySlug(ctx, projectId, r.role)]));
  if ([...found.values()].some((r) => r === undefined)) throw notFound("One or more custom roles not found");
  const now = new Date().toISOString();
  return roles.map((r) => {
    const customRole = found.get(r.role);
    const base = {
      id: randomUUID(),
      role: customRole ? "custom" : r.role,
      customRoleId: customRole?.id ?? null,
      createdAt: now,
      updatedAt: now,
    };
    if (!r.isTemporary)
      return {
        ...base,
        isTemporary: false,
        temporaryMode: null,
        temporaryRange: null,
        temporaryAccessStartTime: null,
        temporaryAccessEndTime: null,
      };
    const start = new Date(r.temporaryAccessStartTime);
    return {
      ...base,
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: r.temporaryRange,
      temporaryAccessStartTime: start.toISOString(),
      temporaryAccessEndTime: new Date(start.getTime() + msDuration(r.temporaryRange)).toISOString(),
    };
  });
}

/** A role as the GET and list answer it: a custom role with its slug and name beside its id. */
function roleView(ctx: EmulatorContext, r: StoredMembershipRole) {
  const custom = r.customRoleId ? ctx.store.projectRoles.get(r.customRoleId) : undefined;
  return {
    id: r.id,
    role: r.role,
    customRoleId: r.customRoleId,
    customRoleName: custom?.name ?? null,
    customRoleSlug: custom?.slug ?? null,
    isTemporary: r.isTemporary,
    temporaryMode: r.temporaryMode,
    temporaryRange: r.temporaryRange,
    temporaryAccessStartTime: r.temporaryAccessStartTime,
    temporaryAccessEndTime: r.temporaryAccessEndTime,
  };
}

/** The GET and list answer's membership: its roles, its identity (`{id, name, authMethods}`) and its project. */
function membershipView(ctx: EmulatorContext, m: StoredIdentityMembership) {
  const identity = ctx.store.identities.get(m.identityId);
  const project = ctx.store.projects.get(m.projectId);
  return {
    id: m.id,
    identityId: m.identityId,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    roles: m.roles.map((r) => roleView(ctx, r)),
    identity: {
      id: m.identityId,
      name: identity?.name ?? "",
      authMethods: identity ? authMethodsOf(ctx, identity.id).authMethods : [],
    },
    project: { id: m.projectId, name: project?.name ?? "" },
  };
}

/** The create and delete answer (`IdentityProjectMembershipsSchema`): the row without roles. */
const membershipRow = (m: StoredIdentityMembership) => ({
  id: m.id,
  projectId: m.projectId,
  identityId: m.identityId,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/** `Identity doesn't have membership` (400), as the PATCH and delete answer a missing membership. */
function existingMembership(ctx: EmulatorContext, identityId: string, projectId: string) {
  const m = ctx.store.identityMembership(identityId, projectId);
  if (!m) throw badRequest("Identity doesn't have membership");
  return m;
}

const handlers: ScopedHandlers<EmulatorContext, typeof identityMembershipOperations> = {
  /** Ordered by identity name (the router's default `orderBy`), paged, `search` on the name. */
  async list(ctx, req: Request<"list">) {
    const { projectId } = req.params;
    requireProject(ctx, actorOf(req), projectId, "read", subjects.identities);
    const search = req.query.search?.toLowerCase();
    const all = [...ctx.store.identityMemberships.values()]
      .filter((m) => m.projectId === projectId)
      .map((m) => membershipView(ctx, m))
      .filter((m) => !search || m.identity.name.toLowerCase().includes(search))
      .sort((a, b) => a.identity.name.localeCompare(b.identity.name));
    return {
      identityMemberships: all.slice(req.query.offset, req.query.offset + req.query.limit),
      totalCount: all.length,
    };
  },

  async get(ctx, req: Request<"get">) {
    const { projectId, identityId } = req.params;
    requireProject(ctx, actorOf(req), projectId, "read", subjects.identities);
    const m = ctx.store.identityMembership(identityId, projectId);
    if (!m) throw notFound("Identity membership not found");
    return { identityMembership: membershipView(ctx, m) };
  },

  /**
   * The service's order: the role list, the guard (the identity must be in the project's
   * organization; a project's own identity refused), the plan for a custom role, the custom roles,
   * then one membership per identity and project.
   */
  async create(ctx, req: Request<"create">) {
    const actor = actorOf(req);
    const { projectId, identityId } = req.params;
    const { roles } = req.body;
    checkRoleList(roles);
    const project = requireProject(ctx, actor, projectId, "create", subjects.identities);
    const identity = ctx.store.identities.get(identityId);
    if (!identity || identity.orgId !== project.orgId)
      throw badRequest(`Identity ${identityId} is missing organization membership`);
    if (identity.projectId !== null)
      throw badRequest("Failed to create project membership for a project scoped identity");
    const rows = roleRows(ctx, projectId, roles);
    if (ctx.store.identityMembership(identityId, projectId)) throw badRequest("Identity is already a member");
    const now = new Date().toISOString();
    const m: StoredIdentityMembership = {
      id: randomUUID(),
      projectId,
      identityId,
      roles: rows,
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.identityMemberships.set(m.id, m);
    return { identityMembership: membershipRow(m) };
  },

  /** Replaces the whole role list; the answer is the new roles only. */
  async update(ctx, req: Request<"update">) {
    const actor = actorOf(req);
    const { projectId, identityId } = req.params;
    requireProject(ctx, actor, projectId, "edit", subjects.identities);
    const identity = ctx.store.identities.get(identityId);
    if (identity?.projectId && identity.projectId !== projectId)
      throw badRequest("Failed to update project membership for a project scoped identity");
    const { roles } = req.body;
    if (roles.some((r) => isCustomProjectRole(r.role)) && !ctx.plan.rbac) throw badRequest(ASSIGN_CUSTOM_ROLE_REFUSAL);
    checkRoleList(roles);
    const m = existingMembership(ctx, identityId, projectId);
    m.roles = roleRows(ctx, projectId, roles);
    m.updatedAt = ctx.store.writeTime(m);
    return {
      roles: m.roles.map((r) => ({
        id: r.id,
        projectMembershipId: m.id,
        role: r.role,
        customRoleId: r.customRoleId,
        isTemporary: r.isTemporary,
        temporaryMode: r.temporaryMode,
        temporaryRange: r.temporaryRange,
        temporaryAccessStartTime: r.temporaryAccessStartTime,
        temporaryAccessEndTime: r.temporaryAccessEndTime,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      })),
    };
  },

  /** An identity cannot delete its own membership. */
  async delete(ctx, req: Request<"delete">) {
    const actor = actorOf(req);
    const { projectId, identityId } = req.params;
    requireProject(ctx, actor, projectId, "delete", subjects.identities);
    const identity = ctx.store.identities.get(identityId);
    if (identity?.projectId) throw badRequest("Failed to delete project membership for a project scoped identity");
    const m = existingMembership(ctx, identityId, projectId);
    if (m.identityId === actor.identity.id) throw badRequest("You can't delete your own membership");
    ctx.store.identityMemberships.delete(m.id);
    return { identityMembership: membershipRow(m) };
  },
};
