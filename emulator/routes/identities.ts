import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { builtInOrgRoles, identityOperations, projectIdentityOperations } from "../../sdk/schemas";
import { deleteIdentity } from "../cascades";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound, permissionDenied } from "../errors";
import { identityRow, membershipView, newIdentity } from "../identity-records";
import { permanentMembership } from "../permissions";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Actor, Identity, IdentityMetadata } from "../types";

/**
 * Machine identities (docs/service-api.md §18): an organization's at `/api/v1/identities`
 * (backend/src/server/routes/v1/identity-router.ts, services/identity/identity-service.ts) and a
 * project's own at `/api/v1/projects/:projectId/identities` (project-identity-router.ts).
 */
export function registerIdentityRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, identityOperations, orgHandlers, ctx);
  routeOperations(app, projectIdentityOperations, projectHandlers, ctx);
}

type OrgRequest<K extends keyof typeof identityOperations> = OperationRequest<(typeof identityOperations)[K]>;
type ProjectRequest<K extends keyof typeof projectIdentityOperations> = OperationRequest<
  (typeof projectIdentityOperations)[K]
>;

const RBAC_REFUSAL =
  "Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.";

/** The methods attached to an identity, and those locked out now (`getIdentityActiveLockoutAuthMethods`). */
export function authMethodsOf(ctx: EmulatorContext, id: string) {
  const now = Date.now();
  const locked = new Set<string>();
  for (const [key, l] of ctx.store.lockouts) {
    const m = /^lockout:identity:([^:]+):([^:]+):/.exec(key);
    if (m && m[1] === id && l.lockedOut && l.expiresAt > now) locked.add(m[2]!);
  }
  return { authMethods: ctx.store.authMethodsOf(id), activeLockoutAuthMethods: [...locked] };
}

/** `Failed to find identity with id <id>` (identity-service.ts); another organization's is not found either [UNCONFIRMED]. */
export function findOrgIdentity(ctx: EmulatorContext, actor: Actor, id: string): Identity {
  const i = ctx.store.identities.get(id);
  if (!i || i.orgId !== actor.orgId) throw notFound(`Failed to find identity with id ${id}`);
  return i;
}

/** A custom role needs the plan's RBAC (identity-service.ts, createIdentity and updateIdentity). */
function checkRole(ctx: EmulatorContext, role: string | undefined): void {
  if (role !== undefined && !(builtInOrgRoles as readonly string[]).includes(role) && !ctx.plan.rbac)
    throw badRequest(RBAC_REFUSAL);
}

const metadataRows = (m: { key: string; value: string }[]): IdentityMetadata[] =>
  m.map((e) => ({ id: randomUUID(), key: e.key, value: e.value }));

const identityMeta = (i: Identity) => ({ identityId: i.id, name: i.name, hasDeleteProtection: i.hasDeleteProtection });

const orgHandlers: ScopedHandlers<EmulatorContext, typeof identityOperations> = {
  /** The organization's identities as memberships; a project's own identities have none [UNCONFIRMED]. */
  async list(ctx, req: OrgRequest<"list">) {
    const actor = actorOf(req);
    if (req.query.orgId !== actor.orgId) throw permissionDenied("read", subjects.identities);
    const identities = [...ctx.store.identities.values()]
      .filter((i) => i.orgId === actor.orgId && i.projectId === null)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((i) => {
        const m = authMethodsOf(ctx, i.id);
        return membershipView(i, m.authMethods, m.activeLockoutAuthMethods);
      });
    return { identities, totalCount: identities.length };
  },

  async get(ctx, req: OrgRequest<"get">) {
    const actor = actorOf(req);
    const i = findOrgIdentity(ctx, actor, req.params.identityId);
    // [UNCONFIRMED] a project's identity has no organization membership to read.
    if (i.projectId !== null) throw badRequest("Identity is managed by project");
    const m = authMethodsOf(ctx, i.id);
    return { identity: membershipView(i, m.authMethods, m.activeLockoutAuthMethods) };
  },

  async create(ctx, req: OrgRequest<"create">) {
    const actor = actorOf(req);
    const { body } = req;
    if (body.organizationId !== actor.orgId) throw permissionDenied("create", subjects.identities);
    checkRole(ctx, body.role);
    const limit = ctx.plan.identityLimit;
    if (ctx.plan.slug !== "enterprise" && limit) {
      const count = [...ctx.store.identities.values()].filter((i) => i.orgId === actor.orgId).length;
      if (count >= limit)
        throw badRequest(
          "Failed to create identity due to identity limit reached. Upgrade plan to create more identities.",
        );
    }
    const now = new Date().toISOString();
    const i = newIdentity(
      {
        id: randomUUID(),
        orgId: actor.orgId,
        name: body.name,
        role: body.role,
        hasDeleteProtection: body.hasDeleteProtection,
        metadata: metadataRows(body.metadata ?? []),
      },
      now,
    );
    ctx.store.identities.set(i.id, i);
    recordEvent(ctx, req, actor, "create-identity", identityMeta(i));
    return { identity: { ...identityRow(i), authMethods: [], metadata: i.metadata } };
  },

  /**
   * The service's quirk (identity-service.ts updateIdentity): name and hasDeleteProtection are
   * written only when `name || hasDeleteProtection` is truthy, so `hasDeleteProtection: false`
   * alone changes nothing. The role replaces the membership's; metadata, when given, all rows.
   */
  async update(ctx, req: OrgRequest<"update">) {
    const actor = actorOf(req);
    const { body } = req;
    const i = findOrgIdentity(ctx, actor, req.params.identityId);
    if (i.projectId !== null) throw badRequest("Identity is managed by project");
    checkRole(ctx, body.role);
    if (body.name || body.hasDeleteProtection) {
      if (body.name !== undefined) i.name = body.name;
      if (body.hasDeleteProtection !== undefined) i.hasDeleteProtection = body.hasDeleteProtection;
    }
    if (body.role !== undefined) i.role = body.role;
    if (body.metadata !== undefined) i.metadata = metadataRows(body.metadata);
    i.updatedAt = ctx.store.writeTime(i);
    recordEvent(ctx, req, actor, "update-identity", identityMeta(i));
    return { identity: { ...identityRow(i), metadata: i.metadata } };
  },

  async delete(ctx, req: OrgRequest<"delete">) {
    const actor = actorOf(req);
    const i = findOrgIdentity(ctx, actor, req.params.identityId);
    if (i.projectId !== null) throw badRequest("Identity is managed by project");
    if (i.hasDeleteProtection) throw badRequest("Identity has delete protection");
    deleteIdentity(ctx.store, i.id);
    recordEvent(ctx, req, actor, "delete-identity", { identityId: i.id });
    return { identity: identityRow(i) };
  },
};

/** A project's identity: the caller must be a member of the project; another project's is not found. */
function findProjectIdentity(ctx: EmulatorContext, actor: Actor, projectId: string, id: string, action: string) {
  requireProject(ctx, actor, projectId, action, subjects.identities, { identityId: id });
  const i = ctx.store.identities.get(id);
  if (!i || i.projectId !== projectId) throw notFound(`Failed to find identity with id ${id}`);
  return i;
}

/** `sanitizedIdentitySchema` of project-identity-router.ts. */
function projectIdentityView(ctx: EmulatorContext, i: Identity) {
  return { ...identityRow(i), ...authMethodsOf(ctx, i.id), metadata: i.metadata };
}

const projectHandlers: ScopedHandlers<EmulatorContext, typeof projectIdentityOperations> = {
  async list(ctx, req: ProjectRequest<"list">) {
    const actor = actorOf(req);
    const { projectId } = req.params;
    requireProject(ctx, actor, projectId, "read", subjects.identities);
    const search = req.query.search?.toLowerCase();
    const all = [...ctx.store.identities.values()]
      .filter((i) => i.projectId === projectId && (!search || i.name.toLowerCase().includes(search)))
      .sort((a, b) => a.name.localeCompare(b.name));
    const page = all.slice(req.query.offset, req.query.offset + req.query.limit);
    return { identities: page.map((i) => projectIdentityView(ctx, i)), totalCount: all.length };
  },

  async get(ctx, req: ProjectRequest<"get">) {
    const i = findProjectIdentity(ctx, actorOf(req), req.params.projectId, req.params.identityId, "read");
    return { identity: projectIdentityView(ctx, i) };
  },

  async create(ctx, req: ProjectRequest<"create">) {
    const actor = actorOf(req);
    const { projectId } = req.params;
    const project = requireProject(ctx, actor, projectId, "create", subjects.identities);
    const now = new Date().toISOString();
    // [UNCONFIRMED] a project's identity is a member of its project, with no organization role.
    const i = newIdentity(
      {
        id: randomUUID(),
        orgId: project.orgId,
        name: req.body.name,
        projectId,
        role: "no-access",
        hasDeleteProtection: req.body.hasDeleteProtection,
        metadata: metadataRows(req.body.metadata ?? []),
      },
      now,
    );
    ctx.store.identities.set(i.id, i);
    // [UNCONFIRMED] without `roles` in the body (which this package does not send) the service's
    // choice of role is not read: a member that may do nothing until given a role.
    const membership = permanentMembership(i.id, projectId, "no-access", now);
    ctx.store.identityMemberships.set(membership.id, membership);
    recordEvent(ctx, req, actor, "create-identity", identityMeta(i), projectId);
    return { identity: projectIdentityView(ctx, i) };
  },

  /** [UNCONFIRMED] the v2 service writes each field given (the v1 truthiness quirk is not known here). */
  async update(ctx, req: ProjectRequest<"update">) {
    const actor = actorOf(req);
    const { projectId, identityId } = req.params;
    const i = findProjectIdentity(ctx, actor, projectId, identityId, "edit");
    const { body } = req;
    if (body.name !== undefined) i.name = body.name;
    if (body.hasDeleteProtection !== undefined) i.hasDeleteProtection = body.hasDeleteProtection;
    if (body.metadata !== undefined) i.metadata = metadataRows(body.metadata);
    i.updatedAt = ctx.store.writeTime(i);
    recordEvent(ctx, req, actor, "update-identity", identityMeta(i), projectId);
    return { identity: projectIdentityView(ctx, i) };
  },

  async delete(ctx, req: ProjectRequest<"delete">) {
    const actor = actorOf(req);
    const { projectId, identityId } = req.params;
    const i = findProjectIdentity(ctx, actor, projectId, identityId, "delete");
    if (i.hasDeleteProtection) throw badRequest("Identity has delete protection");
    const view = projectIdentityView(ctx, i);
    deleteIdentity(ctx.store, i.id);
    recordEvent(ctx, req, actor, "delete-identity", { identityId: i.id }, projectId);
    return { identity: view };
  },
};
