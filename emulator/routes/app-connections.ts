import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  apiPaths,
  allAppConnectionOperations,
  appConnectionKind,
  appConnectionKinds,
  appConnectionOperations,
  type AppConnectionKind,
} from "../../sdk/schemas";
import {
  actorOf,
  connectionAction,
  isMember,
  recordEvent,
  requireConnectionAccess,
  requireProject,
  subjects,
  type EmulatorContext,
} from "../context";
import { randomSecret } from "../credentials";
import { badRequest, notFound } from "../errors";
import {
  routeKindOperations,
  routeOperations,
  type OperationRequest,
  type ScopedHandlers,
} from "../route-registration";
import { stripTwin } from "../service-schemas";
import type { Actor, StoredConnection } from "../types";
import { connectionView } from "../views";

/** A create body after parsing with `appConnectionCreateSchema(kind)`. */
export interface ConnectionCreateBody {
  name: string;
  description?: string | null;
  projectId?: string;
  isPlatformManagedCredentials: boolean;
  gatewayId?: string | null;
  method: string;
  credentials: Record<string, unknown>;
}

/**
 * Platform-managed credentials: the service replaces the secret parts (the database password)
 * with values only it knows. Generic over the kind's `secretFields`.
 */
function platformManaged(kind: AppConnectionKind, method: string, credentials: Record<string, unknown>) {
  const out = { ...credentials };
  for (const f of kind.methods[method]?.secretFields ?? []) out[f] = randomSecret();
  return out;
}

export function newConnection(
  kind: AppConnectionKind,
  body: ConnectionCreateBody,
  at: { id: string; orgId: string; now: string },
): StoredConnection {
  return {
    id: at.id,
    orgId: at.orgId,
    projectId: body.projectId ?? null,
    name: body.name,
    description: body.description ?? null,
    app: kind.app,
    method: body.method,
    credentials: body.isPlatformManagedCredentials
      ? platformManaged(kind, body.method, body.credentials)
      : body.credentials,
    version: 1,
    isPlatformManagedCredentials: body.isPlatformManagedCredentials,
    gatewayId: body.gatewayId ?? null,
    isAutoRotationEnabled: false,
    rotation: null,
    createdAt: at.now,
    updatedAt: at.now,
  };
}

/**
 * App connections (docs/api-spec.md §4.1, docs/service-api.md §1): list, read by id and by name,
 * create, update, delete, one set of routes per row of `appConnectionKinds`, from its rows of the
 * operations table.
 *
 * Connection names are unique per scope: among the org-level connections of an organization, and
 * among the connections of one project (the service's rule is unconfirmed; this is the natural
 * reading of its `name` + scope lookup).
 */
export function registerAppConnectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, allAppConnectionOperations, { list: listAllConnections }, ctx);
  const family = {
    rows: Object.values(appConnectionKinds) as AppConnectionKind[],
    slug: (kind: AppConnectionKind) => kind.app,
    base: apiPaths.appConnections,
    operations: appConnectionOperations,
    scope: (kind: AppConnectionKind) => ({ ctx, kind }),
  };
  routeKindOperations(app, family, kindHandlers);
}

type ConnectionOperations = ReturnType<typeof appConnectionOperations>;
type ConnectionRequest<K extends keyof ConnectionOperations> = OperationRequest<ConnectionOperations[K]>;

/** What the routes of one connection kind share. */
interface KindScope {
  readonly ctx: EmulatorContext;
  readonly kind: AppConnectionKind;
}

const kindHandlers: ScopedHandlers<KindScope, ConnectionOperations> = {
  list: async ({ ctx, kind }, req) => ({ appConnections: listConnections(ctx, req, kind.app) }),
  get: getConnection,
  getByName: getConnectionByName,
  create: createConnection,
  update: updateConnection,
  delete: deleteConnection,
};

/** Every kind's connections in one call (the service's `listAppConnections`). */
async function listAllConnections(ctx: EmulatorContext, req: OperationRequest<typeof allAppConnectionOperations.list>) {
  return { appConnections: listConnections(ctx, req) };
}

function nameTaken(ctx: EmulatorContext, orgId: string, projectId: string | null, name: string, exceptId?: string) {
  for (const c of ctx.store.connections.values()) {
    if (c.orgId === orgId && c.projectId === projectId && c.name === name && c.id !== exceptId) return true;
  }
  return false;
}

const nameTakenError = (name: string) => badRequest(`An App Connection with the name "${name}" already exists`);

function checkGateway(ctx: EmulatorContext, actor: Actor, gatewayId: string | null | undefined): void {
  if (!gatewayId) return;
  const g = ctx.store.gateways.get(gatewayId);
  if (!g || g.orgId !== actor.orgId) throw notFound(`Gateway with ID ${gatewayId} not found for org`);
}

function findById(ctx: EmulatorContext, id: string): StoredConnection {
  const c = ctx.store.connections.get(id);
  if (!c) throw notFound(`Could not find App Connection with ID ${id}`);
  return c;
}

const connectionMeta = (c: StoredConnection) => ({ app: c.app, connectionId: c.id, name: c.name, method: c.method });

const wrongApp = (kind: AppConnectionKind, what: string) =>
  badRequest(`App Connection with ${what} is not for App "${kind.app}"`);

/** The list routes: one kind's connections, or (`app` undefined) every kind's, audited. */
function listConnections(
  ctx: EmulatorContext,
  req: FastifyRequest<{ Querystring: { projectId?: string } }>,
  app?: string,
): ReturnType<typeof connectionView>[] {
  const actor = actorOf(req);
  const { projectId } = req.query;
  if (projectId) requireProject(ctx, actor, projectId, connectionAction("read"), subjects.appConnections);
  // With projectId: that project's connections. Without: every connection of the organization
  // the caller may read, project-scoped ones included (app-connection-service.ts
  // `listAppConnections`; its DAL query has no `projectId IS NULL` condition).
  const visible = (c: StoredConnection) =>
    projectId ? c.projectId === projectId : c.projectId === null || isMember(ctx, actor, c.projectId);
  const list = [...ctx.store.connections.values()]
    .filter((c) => (app === undefined || c.app === app) && c.orgId === actor.orgId && visible(c))
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
  const meta = { ...(app === undefined ? {} : { app }), count: list.length, connectionIds: list.map((c) => c.id) };
  recordEvent(ctx, req, actor, "get-app-connections", meta, projectId ?? null);
  return list.map((c) => connectionView(ctx.store, c));
}

async function getConnection({ ctx, kind }: KindScope, req: ConnectionRequest<"get">) {
  const actor = actorOf(req);
  const { connectionId } = req.params;
  const c = findById(ctx, connectionId);
  requireConnectionAccess(ctx, actor, c, "read");
  if (c.app !== kind.app) throw wrongApp(kind, `ID ${connectionId}`);
  recordEvent(ctx, req, actor, "get-app-connection", connectionMeta(c), c.projectId);
  return { appConnection: connectionView(ctx.store, c) };
}

async function getConnectionByName({ ctx, kind }: KindScope, req: ConnectionRequest<"getByName">) {
  const actor = actorOf(req);
  const { connectionName } = req.params;
  const { projectId } = req.query;
  if (projectId) requireProject(ctx, actor, projectId, connectionAction("read"), subjects.appConnections);
  const scope = projectId ?? null;
  const c = [...ctx.store.connections.values()].find(
    (x) => x.orgId === actor.orgId && x.projectId === scope && x.name === connectionName,
  );
  if (!c)
    throw notFound(
      `Could not find App Connection with name ${connectionName} in ${projectId ? "project" : "organization"} scope.`,
    );
  if (c.app !== kind.app) throw wrongApp(kind, `name ${connectionName}`);
  recordEvent(ctx, req, actor, "get-app-connection", connectionMeta(c), c.projectId);
  return { appConnection: connectionView(ctx.store, c) };
}

async function createConnection({ ctx, kind }: KindScope, req: ConnectionRequest<"create">) {
  const actor = actorOf(req);
  const body = req.body as ConnectionCreateBody;
  if (body.projectId) {
    if (!ctx.store.projects.has(body.projectId)) throw badRequest(`Could not find project with ID ${body.projectId}`);
    requireProject(ctx, actor, body.projectId, connectionAction("create"), subjects.appConnections);
  }
  checkGateway(ctx, actor, body.gatewayId);
  if (nameTaken(ctx, actor.orgId, body.projectId ?? null, body.name)) throw nameTakenError(body.name);
  // Enterprise kinds (oci) need a plan on the real service; the emulator assumes it.
  const c = newConnection(kind, body, { id: randomUUID(), orgId: actor.orgId, now: new Date().toISOString() });
  ctx.store.connections.set(c.id, c);
  const meta = { ...connectionMeta(c), isPlatformManagedCredentials: c.isPlatformManagedCredentials };
  recordEvent(ctx, req, actor, "create-app-connection", meta, c.projectId);
  return { appConnection: connectionView(ctx.store, c) };
}

type UpdateBody = ConnectionRequest<"update">["body"];

/**
 * The PATCH's new credentials, checked as the service checks them: against the stored
 * connection's own kind and method, unknown keys dropped (service-schemas.ts); undefined when
 * the body sends none. A platform-managed connection's credentials stay the platform's.
 */
function credentialsOf(c: StoredConnection, body: UpdateBody): Record<string, unknown> | undefined {
  if (c.isPlatformManagedCredentials && (body.isPlatformManagedCredentials === false || body.credentials !== undefined))
    throw badRequest("Cannot update credentials or management status for platform managed connections");
  if (body.credentials === undefined) return undefined;
  const ownKind = appConnectionKind(c.app)!;
  const r = stripTwin(ownKind.methods[c.method]!.credentials).safeParse(body.credentials);
  if (!r.success) throw badRequest(`Invalid credential format for ${ownKind.label} Connection with method ${c.method}`);
  return r.data;
}

/** The connection's rotation settings after a PATCH that sends `rotation`. */
function rotationOf(c: StoredConnection, rotation: NonNullable<UpdateBody["rotation"]>, now: string) {
  return {
    rotationInterval: rotation.rotationInterval,
    rotateAtUtc: c.rotation?.rotateAtUtc ?? { hours: 0, minutes: 0 },
    rotationStatus: c.rotation?.rotationStatus ?? null,
    lastRotationMessage: c.rotation?.lastRotationMessage ?? null,
    lastRotatedAt: c.rotation?.lastRotatedAt ?? now,
  };
}

// Like the service, PATCH does not check the connection's kind against the path; credentials
// are checked against the stored connection's own kind and method.
async function updateConnection({ ctx }: KindScope, req: ConnectionRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const c = findById(ctx, req.params.connectionId);
  requireConnectionAccess(ctx, actor, c, "edit");
  const credentials = credentialsOf(c, body);
  const toPlatform = body.isPlatformManagedCredentials === true && !c.isPlatformManagedCredentials;
  if (toPlatform && !credentials)
    throw badRequest("Credentials required to transition to platform managed credentials");
  if (body.name !== undefined && nameTaken(ctx, c.orgId, c.projectId, body.name, c.id)) throw nameTakenError(body.name);
  checkGateway(ctx, actor, body.gatewayId);
  // The shared schema types the matrix fields loosely (`z.ZodType`); they are booleans here.
  const autoRotation = (body.isAutoRotationEnabled as boolean | undefined) ?? c.isAutoRotationEnabled;
  if (autoRotation && !body.rotation && !c.rotation)
    throw badRequest("A rotation configuration is required to enable auto-rotation");

  const now = ctx.store.writeTime(c);
  if (body.name !== undefined) c.name = body.name;
  if (body.description !== undefined) c.description = body.description;
  if (body.gatewayId !== undefined) c.gatewayId = body.gatewayId;
  if (credentials) {
    c.credentials = toPlatform ? platformManaged(appConnectionKind(c.app)!, c.method, credentials) : credentials;
    if (c.rotation) c.rotation.lastRotatedAt = now;
  }
  if (toPlatform) c.isPlatformManagedCredentials = true;
  if (body.rotation) c.rotation = rotationOf(c, body.rotation, now);
  c.isAutoRotationEnabled = autoRotation;
  c.version += 1;
  c.updatedAt = now;
  const updatedFields = Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined);
  recordEvent(ctx, req, actor, "update-app-connection", { ...connectionMeta(c), updatedFields }, c.projectId);
  return { appConnection: connectionView(ctx.store, c) };
}

async function deleteConnection({ ctx, kind }: KindScope, req: ConnectionRequest<"delete">) {
  const actor = actorOf(req);
  const { connectionId } = req.params;
  const c = findById(ctx, connectionId);
  requireConnectionAccess(ctx, actor, c, "delete");
  if (c.app !== kind.app) throw wrongApp(kind, `ID ${connectionId}`);
  const inUse =
    [...ctx.store.syncs.values()].some((s) => s.connectionId === c.id) ||
    [...ctx.store.rotations.values()].some((r) => r.connectionId === c.id);
  if (inUse)
    throw badRequest(
      "Cannot delete App Connection with existing connections. Remove all existing connections and try again.",
    );
  const view = connectionView(ctx.store, c);
  ctx.store.connections.delete(c.id);
  recordEvent(ctx, req, actor, "delete-app-connection", connectionMeta(c), c.projectId);
  return { appConnection: view };
}
