import { z } from "zod";
import { dateTime, secretPath } from "./common";
import { EventTypeSchema } from "./event-types";

/** Audit logs (spec 2.5, 4.5; reference §5). */

export const actorTypes = [
  "platform",
  "kmipClient",
  "user",
  "service",
  "identity",
  "scimClient",
  "acmeProfile",
  "acmeAccount",
  "estAccount",
  "scepAccount",
  "unknownUser",
] as const;
export const ActorTypeSchema = z.enum(actorTypes);

/** The vendor's SDK names are the real strings of the interface. */
export const userAgentTypes = [
  "web",
  "cli",
  "k8-operator",
  "terraform",
  "other",
  "InfisicalPythonSDK",
  "InfisicalNodeSDK",
] as const;
export const UserAgentTypeSchema = z.enum(userAgentTypes);

export const MAX_AUDIT_LOG_PAGE = 1000;
const THREE_MONTHS_MS = 92 * 24 * 60 * 60 * 1000;

const isoDate = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });

/**
 * GET /api/v1/organization/audit-logs query, the 13 filters of spec 4.5.
 * Spec over reference: `environment`, `secretPath` and `secretKey` require `projectId` (the real
 * service silently ignores them instead); we reject, as the spec says.
 */
export const AuditLogQuerySchema = z
  .object({
    projectId: z.string().min(1).optional(),
    environment: z.string().min(1).optional(),
    actorType: ActorTypeSchema.optional(),
    actor: z.string().min(1).optional(),
    secretPath: secretPath.optional(),
    secretKey: z.string().min(1).optional(),
    /** One event type, a comma-separated list, or an array. */
    eventType: z
      .union([z.array(EventTypeSchema), z.string()])
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        const list = Array.isArray(v)
          ? v
          : v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean);
        for (const t of list) {
          if (!EventTypeSchema.safeParse(t).success) {
            ctx.addIssue({ code: "custom", message: `unknown event type "${t}"` });
            return z.NEVER;
          }
        }
        return list as z.infer<typeof EventTypeSchema>[];
      }),
    userAgentType: UserAgentTypeSchema.optional(),
    /** Comma-separated `key=value` pairs; every pair must match. */
    eventMetadata: z.string().optional(),
    startDate: isoDate.optional(),
    endDate: isoDate.optional(),
    offset: z.coerce.number().int().min(0, { error: "must be at least 0" }).default(0),
    limit: z.coerce
      .number()
      .int()
      .min(1, { error: "must be at least 1" })
      .max(MAX_AUDIT_LOG_PAGE, { error: `must be at most ${MAX_AUDIT_LOG_PAGE}` })
      .default(20),
  })
  .superRefine((q, ctx) => {
    for (const field of ["environment", "secretPath", "secretKey"] as const) {
      if (q[field] !== undefined && q.projectId === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `requires projectId` });
      }
    }
    if (q.startDate && q.endDate) {
      const start = Date.parse(q.startDate);
      const end = Date.parse(q.endDate);
      if (end < start)
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "End date cannot be before start date" });
      else if (end - start > THREE_MONTHS_MS)
        ctx.addIssue({ code: "custom", path: ["endDate"], message: "Dates must be within 3 months" });
    }
  });
export type AuditLogQuery = z.input<typeof AuditLogQuerySchema>;
export type AuditLogQueryParsed = z.output<typeof AuditLogQuerySchema>;

/** `eventMetadata` as pairs; pairs missing a key or a value are dropped (reference §5). */
export function parseEventMetadata(s: string | undefined): [string, string][] {
  if (!s) return [];
  return s
    .split(",")
    .map((p) => {
      const i = p.indexOf("=");
      return i < 0 ? ["", ""] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    })
    .filter((kv): kv is [string, string] => Boolean(kv[0]) && Boolean(kv[1]));
}

/** Default range: from the last UTC midnight to now (reference §5). */
export function defaultAuditRange(now = new Date()): { startDate: Date; endDate: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { startDate: start, endDate: now };
}

export const AuditLogEntrySchema = z.object({
  id: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  event: z.object({ type: z.string(), metadata: z.record(z.string(), z.unknown()) }),
  actor: z.object({ type: z.string(), metadata: z.record(z.string(), z.unknown()) }),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  userAgentType: z.string().nullable(),
  expiresAt: dateTime.nullable(),
  orgId: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;
export const AuditLogListEnvelope = z.object({ auditLogs: z.array(AuditLogEntrySchema) });
