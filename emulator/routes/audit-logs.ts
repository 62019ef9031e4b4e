import type { FastifyInstance } from "fastify";
import { auditLogOperations, defaultAuditRange, parseEventMetadata } from "../../sdk/schemas";
import { actorOf, requireProject, subjects, type EmulatorContext } from "../context";
import { validationIssue } from "../errors";
import { route } from "../route-registration";

/**
 * GET /api/v1/organization/audit-logs (docs/api-spec.md §4.5): the 13 filters of
 * `AuditLogQuerySchema`, newest first, `createdAt >= startDate AND < endDate`.
 */
export function registerAuditLogRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, auditLogOperations.list, async (req) => {
    const actor = actorOf(req);
    // The range rules (end after start, at most 3 months) apply only when both dates are given;
    // the default range (last UTC midnight to now) is filled in after validation, as the
    // service's handler does (docs/service-api.md §5).
    const filters = req.query;
    const range = defaultAuditRange();
    const startMs = filters.startDate ? Date.parse(filters.startDate) : range.startDate.getTime();
    const endMs = filters.endDate ? Date.parse(filters.endDate) : range.endDate.getTime();
    // docs/api-spec.md §4.5: `actorType` must be given when `actor` names a non-user actor. Only the
    // emulator knows which ids are machine identities, so this check lives here.
    if (filters.actor !== undefined && filters.actorType === undefined && ctx.store.identities.has(filters.actor)) {
      throw validationIssue(["actorType"], "must be given when actor names a non-user actor (here: an identity)");
    }
    if (filters.projectId) requireProject(ctx, actor, filters.projectId, "read", subjects.auditLogs);
    const auditLogs = ctx.audit.query({
      orgId: actor.orgId,
      filters,
      startMs,
      endMs,
      metadata: parseEventMetadata(filters.eventMetadata),
    });
    return { auditLogs };
  });
}
