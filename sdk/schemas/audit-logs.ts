import { z } from "zod";
import { dateTime, secretPath } from "./common";
import { EventTypeSchema } from "./event-types";

/** Audit logs (docs/api-spec.md §2.5, 4.5; docs/service-api.md §5). */

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

/**
 * The service's date-times are zod v3 `z.string().datetime()`: UTC with `Z` only; an offset such
 * as `+02:00` is a 422 (docs/service-api.md §5, §9).
 */
const utcDateTime = z.iso.datetime({ error: "must be an ISO 8601 date-time in UTC (ending in Z)" });

/**
 * What a caller may give the SDK for a date: a `Date` or any ISO 8601 date-time, with an offset or
 * without; the SDK sends it as UTC.
 */
const DATE_RULE = "must be an ISO 8601 date-time or a Date";
// Each branch carries the rule: a union failure reports its best branch's issue (issues.ts).
const anyDateTime = z.union([z.date({ error: DATE_RULE }), z.iso.datetime({ offset: true, error: DATE_RULE })], {
  error: DATE_RULE,
});
/** A date-time already in UTC is sent as given; any other is converted. */
const toUtc = (v: string | Date) =>
  typeof v === "string" ? (utcDateTime.safeParse(v).success ? v : new Date(v).toISOString()) : v.toISOString();

/** Comma-separated event types, or an array, as a list (the service splits on `,`). */
const eventTypeList = (item: z.ZodType<string>) =>
  z
    .union([z.array(z.string()), z.string()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const list = (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter(Boolean);
      for (const t of list) {
        if (!item.safeParse(t).success) {
          ctx.addIssue({ code: "custom", message: `unknown event type "${t}"` });
          return z.NEVER;
        }
      }
      return list;
    });

/**
 * `endDate` not before `startDate`, and within 3 calendar months of it: checked only when both
 * are given, as the service does (its `superRefine` is guarded by `if (endDate && startDate)`).
 */
function dateRange(q: { startDate?: string; endDate?: string }, ctx: z.core.$RefinementCtx) {
  if (!q.startDate || !q.endDate) return;
  const broken = dateRangeRule(new Date(q.startDate), new Date(q.endDate));
  if (broken) ctx.addIssue({ code: "custom", path: ["endDate"], message: broken });
}

/** The rule a start and an end date break together, if any: end before start, or over 3 calendar months apart. */
export function dateRangeRule(start: Date, end: Date): string | undefined {
  const latest = new Date(start);
  latest.setUTCMonth(latest.getUTCMonth() + 3);
  if (end < start) return "End date cannot be before start date";
  if (end > latest) return "Dates must be within 3 months";
  return undefined;
}

/**
 * Spec over service: `environment`, `secretPath` and `secretKey` require `projectId` (the service
 * silently ignores them without it, so a filter would quietly match everything).
 */
function needsProject(
  q: { projectId?: string; environment?: string; secretPath?: string; secretKey?: string },
  ctx: z.core.$RefinementCtx,
) {
  for (const field of ["environment", "secretPath", "secretKey"] as const) {
    if (q[field] !== undefined && q.projectId === undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: `requires projectId` });
    }
  }
}

const filterFields = {
  projectId: z.string().min(1).optional(),
  environment: z.string().min(1).optional(),
  actorType: ActorTypeSchema.optional(),
  actor: z.string().min(1).optional(),
  secretPath: secretPath.optional(),
  secretKey: z.string().min(1).optional(),
  userAgentType: UserAgentTypeSchema.optional(),
  /** Comma-separated `key=value` pairs; every pair must match. */
  eventMetadata: z.string().optional(),
  offset: z.coerce.number().int().min(0, { error: "must be at least 0" }).default(0),
  // The service's schema sets no minimum: 0 is an empty page; a negative limit or offset fails
  // there in the database (a 500), so it is refused here (docs/service-api.md §5).
  limit: z.coerce
    .number()
    .int()
    .min(0, { error: "must be at least 0" })
    .max(MAX_AUDIT_LOG_PAGE, { error: `must be at most ${MAX_AUDIT_LOG_PAGE}` })
    .default(20),
};

/**
 * GET /api/v1/organization/audit-logs query as the service reads it: the 13 filters of docs/api-spec.md §4.5,
 * UTC date-times, and event types from the service's own list (its newest source pipes them into
 * the `EventType` enum). The emulator validates requests with it.
 */
export const AuditLogQuerySchema = z
  .object({
    ...filterFields,
    eventType: eventTypeList(EventTypeSchema),
    startDate: utcDateTime.optional(),
    endDate: utcDateTime.optional(),
  })
  .superRefine(needsProject)
  .superRefine(dateRange);
export type AuditLogQueryParsed = z.output<typeof AuditLogQuerySchema>;

/**
 * The filters the SDK takes: the same rules, except that dates may be `Date`s or carry an offset
 * (sent as UTC), and any event type is passed on (newer servers add types: the server judges).
 */
export const AuditLogFiltersSchema = z
  .object({
    ...filterFields,
    eventType: eventTypeList(z.string()),
    startDate: anyDateTime.transform(toUtc).optional(),
    endDate: anyDateTime.transform(toUtc).optional(),
  })
  .superRefine(needsProject)
  .superRefine(dateRange);
export type AuditLogQuery = z.input<typeof AuditLogFiltersSchema>;

/**
 * `eventMetadata` as the service reads it (docs/service-api.md §5): pairs split on `,`, each at
 * its first `=`, nothing trimmed; a pair missing its key or value is dropped, and a key given
 * twice keeps its last value.
 */
export function parseEventMetadata(s: string | undefined): [string, string][] {
  const pairs = new Map<string, string>();
  for (const pair of s ? s.split(",") : []) {
    const i = pair.indexOf("=");
    if (i > 0 && i < pair.length - 1) pairs.set(pair.slice(0, i), pair.slice(i + 1));
  }
  return [...pairs];
}

/** Default range: from the last UTC midnight to now (docs/service-api.md §5). */
export function defaultAuditRange(now = new Date()): { startDate: Date; endDate: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { startDate: start, endDate: now };
}

/** Event or actor metadata; a missing one reads as empty. */
const metadata = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((m) => m ?? {});

/** An audit-log entry as returned, read leniently (only the id, the time and the event are needed). */
export const AuditLogEntrySchema = z.object({
  id: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime.optional(),
  event: z.object({ type: z.string(), metadata: metadata }),
  actor: z.object({ type: z.string(), metadata: metadata }),
  ipAddress: z.string().nullish(),
  userAgent: z.string().nullish(),
  userAgentType: z.string().nullish(),
  expiresAt: dateTime.nullish(),
  orgId: z.string(),
  projectId: z.string().nullish(),
  projectName: z.string().nullish(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;
export const AuditLogListEnvelope = z.object({ auditLogs: z.array(AuditLogEntrySchema) });
