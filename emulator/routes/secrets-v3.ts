import type { FastifyInstance } from "fastify";
import { secretV3Operations as ops } from "../../sdk/schemas";
import type { EmulatorContext } from "../context";
import { badRequest } from "../errors";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import { secretHandlers as v4 } from "./secrets";

/**
 * Secrets under `/api/v3/secrets/raw` (docs/service-api.md §21): the v4 routes' handlers on the
 * same store, so a secret written through one version is read through the other. Each handler
 * renames `workspaceId` to `projectId` (and resolves `workspaceSlug`), answers the router's own
 * 400 for a missing project or environment, and hands the request to the v4 handler, which makes
 * the same permission checks, audit events and answers.
 */
export function registerSecretV3Routes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, handlers, ctx);
}

type V3Request<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;
type V4Request<K extends keyof typeof v4> = Parameters<(typeof v4)[K]>[1];

/** The project a read names: `workspaceId`, else the project of slug `workspaceSlug`. */
function projectOf(ctx: EmulatorContext, q: { workspaceId?: string; workspaceSlug?: string }): string | undefined {
  if (q.workspaceId) return q.workspaceId;
  if (!q.workspaceSlug) return undefined;
  const p = [...ctx.store.projects.values()].find((x) => x.slug === q.workspaceSlug);
  if (!p) throw badRequest(`No project found with slug ${q.workspaceSlug}`);
  return p.id;
}

/** The read's query in v4's terms, after the router's 400. */
function readQuery(ctx: EmulatorContext, q: V3Request<"list">["query"] | V3Request<"get">["query"]) {
  const projectId = projectOf(ctx, q);
  if (!projectId || !q.environment) throw badRequest("Missing workspace id or environment");
  return {
    projectId,
    environment: q.environment,
    secretPath: q.secretPath,
    viewSecretValue: q.viewSecretValue,
    expandSecretReferences: q.expandSecretReferences,
    recursive: "recursive" in q && q.recursive,
  };
}

/** A write's body in v4's terms: `workspaceId` is `projectId`; `type` is v4's. */
function writeBody<B extends { workspaceId: string }>(body: B) {
  const { workspaceId, ...rest } = body;
  return { projectId: workspaceId, ...rest };
}

const handlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: (ctx, req, reply) => {
    req.query = readQuery(ctx, req.query) as unknown as typeof req.query;
    return v4.list(ctx, req as unknown as V4Request<"list">, reply);
  },
  get: (ctx, req, reply) => {
    req.query = readQuery(ctx, req.query) as unknown as typeof req.query;
    return v4.get(ctx, req as unknown as V4Request<"get">, reply);
  },
  create: (ctx, req, reply) => {
    req.body = writeBody(req.body) as unknown as typeof req.body;
    return v4.create(ctx, req as unknown as V4Request<"create">, reply);
  },
  update: (ctx, req, reply) => {
    req.body = writeBody(req.body) as unknown as typeof req.body;
    return v4.update(ctx, req as unknown as V4Request<"update">, reply);
  },
  delete: (ctx, req, reply) => {
    const { type: _type, ...rest } = writeBody(req.body);
    req.body = rest as unknown as typeof req.body;
    return v4.delete(ctx, req as unknown as V4Request<"delete">, reply);
  },
};
