import type { FastifyInstance } from "fastify";
import { AuditLogQuerySchema, apiPaths, defaultAuditRange, parseEventMetadata } from "../../sdk/schemas";
import { actorOf, requireProject, subjects, type EmulatorContext } from "../context";
import { parseOr422, validationIssue } from "../errors";

/**
 * GET /api/v1/organization/audit-logs (spec 4.5, reference §5): the 13 filters of
 * `AuditLogQuerySchema`, newest first, `createdAt >= startDate AND < endDate`.
 */
export function registerAuditLogRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get(apiPaths.auditLogs, async (req) => {
    const actor = actorOf(req);
    // The default range (last UTC midnight to now) is filled in before parsing, so the schema's
    // range rules (end after start, at most 3 months) apply to the range actually used.
    const raw = { ...(req.query as Record<string, unknown>) };
    const range = defaultAuditRange();
    raw.startDate ??= range.startDate.toISOString();
    raw.endDate ??= range.endDate.toISOString();
    const filters = parseOr422(AuditLogQuerySchema, raw);
    // Spec 4.5: `actorType` must be given when `actor` names a non-user actor. Only the
    // emulator knows which ids are machine identities, so this check lives here.
    if (filters.actor !== undefined && filters.actorType === undefined && ctx.store.identities.has(filters.actor)) {
      throw validationIssue(["actorType"], "must be given when actor names a non-user actor (here: an identity)");
    }
    if (filters.projectId) requireProject(ctx, actor, filters.projectId, "read", subjects.auditLogs);
    const auditLogs = ctx.audit.query({
      orgId: actor.orgId,
      filters,
      startMs: Date.parse(raw.startDate as string),
      endMs: Date.parse(raw.endDate as string),
      metadata: parseEventMetadata(filters.eventMetadata),
    });
    return { auditLogs };
  });
}
