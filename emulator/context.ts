import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { appConnectionKind, type EventType } from "../sdk/schemas";
import { userAgentTypeOf, type AuditLog } from "./audit";
import { badRequest, forbiddenRequest, notFound, permissionDenied, unauthorized } from "./errors";
import { projectAbility, throwUnlessCan, type ProjectAbility, type SubjectFields } from "./permissions";
import type { SyncJobs } from "./jobs";
import type { PlanFeatures } from "./plan";
import type { Store } from "./store";
import type { Actor, Environment, Folder, Project, StoredConnection } from "./types";

/** What every route module gets. */
export interface EmulatorContext {
  readonly store: Store;
  readonly audit: AuditLog;
  readonly jobs: SyncJobs;
  /** Marks the state changed (persistence saves, debounced). */
  changed(): void;
  /** The server's own URL, e.g. for the ACME directory URL. */
  baseUrl(): string;
  /** The license plan's features (plan.ts): unlicensed self-hosted by default. */
  readonly plan: PlanFeatures;
}

const actors = new WeakMap<FastifyRequest, Actor>();

export function setActor(req: FastifyRequest, actor: Actor): void {
  actors.set(req, actor);
}

export function actorOf(req: FastifyRequest): Actor {
  const a = actors.get(req);
  if (!a) throw unauthorized("Token missing");
  return a;
}

/** Permission subjects as the service names them in PermissionDenied messages. */
export const subjects = {
  appConnections: "app-connections",
  secretSyncs: "secret-syncs",
  secretRotations: "secret-rotation",
  certificateProfiles: "certificate-profiles",
  auditLogs: "audit-logs",
  projects: "workspace",
  projectSettings: "settings",
  environments: "environments",
  secretFolders: "secret-folders",
  secrets: "secrets",
  certificateAuthorities: "certificate-authorities",
  certificatePolicies: "certificate-policies",
  identities: "identity",
  projectRoles: "role",
  projectMembers: "member",
} as const;

/**
 * The type of project each subject's operations need; the others take any project. The service
 * passes it to its permission check as `actionProjectType` (docs/service-api.md §10).
 */
const projectTypeOf: Partial<Record<string, Project["type"]>> = {
  [subjects.secretSyncs]: "secret-manager",
  [subjects.secretRotations]: "secret-manager",
  [subjects.environments]: "secret-manager",
  [subjects.secretFolders]: "secret-manager",
  [subjects.secrets]: "secret-manager",
  [subjects.certificateProfiles]: "cert-manager",
  [subjects.certificateAuthorities]: "cert-manager",
  [subjects.certificatePolicies]: "cert-manager",
};

/**
 * The checks the service's `getProjectPermission` makes before any rule (ee/services/permission/
 * permission-service.ts; docs/service-api.md §20): the project must exist (404), be in the caller's
 * organization (403), be of the type the subject's operations need (400), and the caller must be a
 * member of it (403). Returns the project and the caller's ability in it.
 */
export function projectPermission(
  ctx: EmulatorContext,
  actor: Actor,
  projectId: string,
  subject: string,
): { project: Project; ability: ProjectAbility } {
  const project = ctx.store.projects.get(projectId);
  if (!project) throw notFound(`Project with ID "${projectId}" not found`);
  if (project.orgId !== actor.orgId)
    throw forbiddenRequest("This project does not belong to your selected organization.");
  const type = projectTypeOf[subject];
  if (type && project.type !== type)
    throw badRequest(`The project is of type ${project.type}. Operations of type ${type} are not allowed.`);
  const ability = projectAbility(ctx.store, actor.identity.id, projectId);
  if (!ability) throw forbiddenRequest("You are not member of this project");
  return { project, ability };
}

/**
 * `projectPermission`, then the rule check the service's operation makes:
 * `throwUnlessCan(action, subject(subject, fields))` (403 PermissionDenied with the caller's rules).
 */
export function requireProject(
  ctx: EmulatorContext,
  actor: Actor,
  projectId: string,
  action: string,
  subject: string,
  fields?: SubjectFields,
): Project {
  const { project, ability } = projectPermission(ctx, actor, projectId, subject);
  throwUnlessCan(ability, action, subject, fields);
  return project;
}

/** Whether the caller is a member of the project (the service lists only those). */
export function isMember(ctx: EmulatorContext, actor: Actor, projectId: string): boolean {
  return ctx.store.identityMembership(actor.identity.id, projectId) !== undefined;
}

/**
 * A project's permission on its connections names its own actions (`read-app-connections`, ...:
 * `ProjectPermissionAppConnectionActions`, ee/services/permission/project-permission.ts); the
 * organization's are `read`, `create`, `edit`, `delete`, `connect`.
 */
export const connectionAction = (action: string) => `${action}-app-connections`;

/**
 * A connection is visible in its organization; a project-scoped one only to those its project
 * allows the action on it (`subject(AppConnections, { connectionId })`).
 */
export function requireConnectionAccess(ctx: EmulatorContext, actor: Actor, c: StoredConnection, action: string): void {
  if (c.orgId !== actor.orgId) throw permissionDenied(action, subjects.appConnections);
  if (c.projectId !== null) {
    requireProject(ctx, actor, c.projectId, connectionAction(action), subjects.appConnections, {
      connectionId: c.id,
    });
  }
}

/** The folder a sync or rotation works on; 400 with the service's text when it does not exist. */
export function resolveFolder(
  ctx: EmulatorContext,
  projectId: string,
  environment: string,
  secretPath: string,
): { env: Environment; folder: Folder } {
  const env = ctx.store.environmentBySlug(projectId, environment);
  const folder = env && ctx.store.folderByEnvPath(env.id, secretPath);
  if (!env || !folder) {
    throw badRequest(
      `Could not find folder with path "${secretPath}" in environment "${environment}" for project with ID "${projectId}"`,
    );
  }
  return { env, folder };
}

/**
 * A connection a sync or rotation in `projectId` uses: it must exist (404), be in the caller's
 * organization (403), be org-level or of the same project (400, the service's text), and be of
 * the kind `app` (400). docs/service-api.md §9.
 */
export function connectionForUse(
  ctx: EmulatorContext,
  actor: Actor,
  connectionId: string,
  projectId: string,
  app: string,
): StoredConnection {
  const c = ctx.store.connections.get(connectionId);
  if (!c) throw notFound(`Could not find App Connection with ID ${connectionId}`);
  if (c.orgId !== actor.orgId) throw permissionDenied("connect", subjects.appConnections);
  if (c.projectId !== null && c.projectId !== projectId) {
    throw badRequest(
      `You cannot connect project App Connection with ID "${c.id}" from project with ID "${c.projectId}" to project with ID "${projectId}"`,
    );
  }
  // A project's own connection: its permission to connect it.
  if (c.projectId !== null) {
    requireProject(ctx, actor, c.projectId, connectionAction("connect"), subjects.appConnections, {
      connectionId: c.id,
    });
  }
  if (c.app !== app) {
    const label = (a: string) => appConnectionKind(a)?.label ?? a;
    throw badRequest(`${label(c.app)} Connection with ID ${connectionId} cannot be used to connect to ${label(app)}`);
  }
  return c;
}

/** Records one audit event of a served operation. */
export function recordEvent(
  ctx: EmulatorContext,
  req: FastifyRequest,
  actor: Actor,
  type: EventType,
  metadata: Record<string, unknown>,
  projectId: string | null = null,
): void {
  const now = new Date().toISOString();
  const userAgent = req.headers["user-agent"] ?? "";
  ctx.audit.add({
    id: randomUUID(),
    createdAt: now,
    updatedAt: now,
    event: { type, metadata },
    actor: { type: "identity", metadata: { identityId: actor.identity.id, name: actor.identity.name } },
    ipAddress: req.ip,
    userAgent,
    userAgentType: userAgentTypeOf(userAgent),
    expiresAt: null,
    orgId: actor.orgId,
    projectId,
    projectName: projectId ? (ctx.store.projects.get(projectId)?.name ?? null) : null,
  });
}
