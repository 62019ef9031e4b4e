import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  allAppConnectionOperations,
  appConnectionKind,
  appConnectionKinds,
  appConnectionOperations,
  type AppConnectionKind,
} from "../../sdk/schemas";
import {
  actorOf,
  recordEvent,
  requireConnectionAccess,
  requireProject,
  subjects,
  type EmulatorContext,
} from "../context";
import { randomSecret } from "../credentials";
import { badRequest, notFound } from "../errors";
import { route } from "../route-registration";
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
 * App connections (docs/api-spec.md §4.1, docs/service-api.md §1): list, read by id and by name, create, update, delete,
 * one set of routes per row of `appConnectionKinds`.
 *
 * Connection names are unique per scope: among the org-level connections of an organization, and
 * among the connections of one project (the service's rule is unconfirmed; this is the natural
 * reading of its `name` + scope lookup).
 */
export function registerAppConnectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  const nameTaken = (orgId: string, projectId: string | null, name: string, exceptId?: string) => {
    for (const c of store.connections.values()) {
      if (c.orgId === orgId && c.projectId === projectId && c.name === name && c.id !== exceptId) return true;
    }
    return false;
  };
  const checkGateway = (actor: Actor, gatewayId: string | null | undefined) => {
    if (!gatewayId) return;
    const g = store.gateways.get(gatewayId);
    if (!g || g.orgId !== actor.orgId) throw notFound(`Gateway with ID ${gatewayId} not found for org`);
  };
  const findById = (id: string) => {
    const c = store.connections.get(id);
    if (!c) throw notFound(`Could not find App Connection with ID ${id}`);
    return c;
  };
  const meta = (c: StoredConnection) => ({ app: c.app, connectionId: c.id, name: c.name, method: c.method });

  /** The list routes: one kind's connections, or (`app` undefined) every kind's, audited. */
  const listConnections = (req: FastifyRequest<{ Querystring: { projectId?: string } }>, app?: string) => {
    const actor = actorOf(req);
    const { projectId } = req.query;
    if (projectId) requireProject(ctx, actor, projectId, "read", subjects.appConnections);
    // With projectId: that project's connections. Without: every connection of the organization
    // the caller may read, project-scoped ones included (app-connection-service.ts
    // `listAppConnections`; its DAL query has no `projectId IS NULL` condition).
    const visible = (c: StoredConnection) =>
      projectId ? c.projectId === projectId : c.projectId === null || actor.identity.projectIds.includes(c.projectId);
    const list = [...store.connections.values()]
      .filter((c) => (app === undefined || c.app === app) && c.orgId === actor.orgId && visible(c))
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    recordEvent(
      ctx,
      req,
      actor,
      "get-app-connections",
      { ...(app === undefined ? {} : { app }), count: list.length, connectionIds: list.map((c) => c.id) },
      projectId ?? null,
    );
    return list.map((c) => connectionView(store, c));
  };

  // Every kind's connections in one call (the service's `listAppConnections`).
  route(app, allAppConnectionOperations.list, async (req) => ({ appConnections: listConnections(req) }));

  for (const kind of Object.values(appConnectionKinds) as AppConnectionKind[]) {
    const ops = appConnectionOperations(kind);
    const wrongApp = (what: string) => badRequest(`App Connection with ${what} is not for App "${kind.app}"`);

    route(app, ops.list, async (req) => ({ appConnections: listConnections(req, kind.app) }));

    route(app, ops.get, async (req) => {
      const actor = actorOf(req);
      const { connectionId } = req.params;
      const c = findById(connectionId);
      requireConnectionAccess(actor, c, "read");
      if (c.app !== kind.app) throw wrongApp(`ID ${connectionId}`);
      recordEvent(ctx, req, actor, "get-app-connection", meta(c), c.projectId);
      return { appConnection: connectionView(store, c) };
    });

    route(app, ops.getByName, async (req) => {
      const actor = actorOf(req);
      const { connectionName } = req.params;
      const { projectId } = req.query;
      if (projectId) requireProject(ctx, actor, projectId, "read", subjects.appConnections);
      const scope = projectId ?? null;
      const c = [...store.connections.values()].find(
        (x) => x.orgId === actor.orgId && x.projectId === scope && x.name === connectionName,
      );
      if (!c)
        throw notFound(
          `Could not find App Connection with name ${connectionName} in ${projectId ? "project" : "organization"} scope.`,
        );
      if (c.app !== kind.app) throw wrongApp(`name ${connectionName}`);
      recordEvent(ctx, req, actor, "get-app-connection", meta(c), c.projectId);
      return { appConnection: connectionView(store, c) };
    });

    route(app, ops.create, async (req) => {
      const actor = actorOf(req);
      const body = req.body as ConnectionCreateBody;
      if (body.projectId) {
        if (!store.projects.has(body.projectId)) throw badRequest(`Could not find project with ID ${body.projectId}`);
        requireProject(ctx, actor, body.projectId, "create", subjects.appConnections);
      }
      checkGateway(actor, body.gatewayId);
      if (nameTaken(actor.orgId, body.projectId ?? null, body.name)) {
        throw badRequest(`An App Connection with the name "${body.name}" already exists`);
      }
      // Enterprise kinds (oci) need a plan on the real service; the emulator assumes it.
      const c = newConnection(kind, body, { id: randomUUID(), orgId: actor.orgId, now: new Date().toISOString() });
      store.connections.set(c.id, c);
      recordEvent(
        ctx,
        req,
        actor,
        "create-app-connection",
        { ...meta(c), isPlatformManagedCredentials: c.isPlatformManagedCredentials },
        c.projectId,
      );
      return { appConnection: connectionView(store, c) };
    });

    // Like the service, PATCH does not check the connection's kind against the path; credentials
    // are checked against the stored connection's own kind and method.
    route(app, ops.update, async (req) => {
      const actor = actorOf(req);
      const { connectionId } = req.params;
      const { body } = req;
      const c = findById(connectionId);
      requireConnectionAccess(actor, c, "edit");
      if (
        c.isPlatformManagedCredentials &&
        (body.isPlatformManagedCredentials === false || body.credentials !== undefined)
      ) {
        throw badRequest("Cannot update credentials or management status for platform managed connections");
      }
      const ownKind = appConnectionKind(c.app)!;
      let credentials: Record<string, unknown> | undefined;
      if (body.credentials !== undefined) {
        // As the service parses them: unknown keys dropped (service-schemas.ts).
        const r = stripTwin(ownKind.methods[c.method]!.credentials).safeParse(body.credentials);
        if (!r.success)
          throw badRequest(`Invalid credential format for ${ownKind.label} Connection with method ${c.method}`);
        credentials = r.data;
      }
      const toPlatform = body.isPlatformManagedCredentials === true && !c.isPlatformManagedCredentials;
      if (toPlatform && !credentials)
        throw badRequest("Credentials required to transition to platform managed credentials");
      if (body.name !== undefined && nameTaken(c.orgId, c.projectId, body.name, c.id)) {
        throw badRequest(`An App Connection with the name "${body.name}" already exists`);
      }
      checkGateway(actor, body.gatewayId);
      // The shared schema types the matrix fields loosely (`z.ZodType`); they are booleans here.
      const autoRotation = (body.isAutoRotationEnabled as boolean | undefined) ?? c.isAutoRotationEnabled;
      if (autoRotation && !body.rotation && !c.rotation) {
        throw badRequest("A rotation configuration is required to enable auto-rotation");
      }

      const now = store.writeTime(c);
      if (body.name !== undefined) c.name = body.name;
      if (body.description !== undefined) c.description = body.description;
      if (body.gatewayId !== undefined) c.gatewayId = body.gatewayId;
      if (credentials) {
        c.credentials = toPlatform ? platformManaged(ownKind, c.method, credentials) : credentials;
        if (c.rotation) c.rotation.lastRotatedAt = now;
      }
      if (toPlatform) c.isPlatformManagedCredentials = true;
      if (body.rotation) {
        c.rotation = {
          rotationInterval: body.rotation.rotationInterval,
          rotateAtUtc: c.rotation?.rotateAtUtc ?? { hours: 0, minutes: 0 },
          rotationStatus: c.rotation?.rotationStatus ?? null,
          lastRotationMessage: c.rotation?.lastRotationMessage ?? null,
          lastRotatedAt: c.rotation?.lastRotatedAt ?? now,
        };
      }
      c.isAutoRotationEnabled = autoRotation;
      c.version += 1;
      c.updatedAt = now;
      recordEvent(
        ctx,
        req,
        actor,
        "update-app-connection",
        {
          ...meta(c),
          updatedFields: Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined),
        },
        c.projectId,
      );
      return { appConnection: connectionView(store, c) };
    });

    route(app, ops.delete, async (req) => {
      const actor = actorOf(req);
      const { connectionId } = req.params;
      const c = findById(connectionId);
      requireConnectionAccess(actor, c, "delete");
      if (c.app !== kind.app) throw wrongApp(`ID ${connectionId}`);
      const inUse =
        [...store.syncs.values()].some((s) => s.connectionId === c.id) ||
        [...store.rotations.values()].some((r) => r.connectionId === c.id);
      if (inUse)
        throw badRequest(
          "Cannot delete App Connection with existing connections. Remove all existing connections and try again.",
        );
      const view = connectionView(store, c);
      store.connections.delete(c.id);
      recordEvent(ctx, req, actor, "delete-app-connection", meta(c), c.projectId);
      return { appConnection: view };
    });
  }
}
