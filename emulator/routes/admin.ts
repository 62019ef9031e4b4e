import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { RateLimitBucket } from "../../sdk/schemas/operations/operation";
import { ActorTypeSchema, EventTypeSchema, UserAgentTypeSchema, uuid, type AuditLogEntry } from "../../sdk/schemas";
import type { EmulatorContext } from "../context";
import { parseOr422 } from "../errors";
import { FaultRuleSchema, type Faults } from "../faults";
import { RateLimitSettingsSchema, type RateLimits } from "../rate-limit";

export const ADMIN_PREFIX = "/__admin";

export interface RequestLogEntry {
  method: string;
  /** without the query string */
  path: string;
  /** with the query string */
  url: string;
  /** 0 when the connection was reset by a fault rule */
  status: number;
  /** The rate-limit bucket it counted in: GETs and the duplicate-destination check are reads; secrets routes `secrets`. */
  bucket: RateLimitBucket;
  durationMs: number;
  /** When the log took it: its response, or the drop of its connection (ISO 8601). */
  at: string;
  /** The fault rules applied to it (`latency`, `status`, `rate-limit`, `reset`; `… after` once handled). */
  faults?: string[];
  /** The client's try number, from the SDK's `x-secretops-attempt` header (sdk/http.ts). */
  attempt?: number;
}

/** The request log of the public API (admin routes are not logged), capped to the newest entries. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  constructor(private readonly cap = 100_000) {}

  push(e: RequestLogEntry): void {
    this.entries.push(e);
    if (this.entries.length > this.cap * 2) this.entries = this.entries.slice(-this.cap);
  }

  list(): RequestLogEntry[] {
    return this.entries.length > this.cap ? this.entries.slice(-this.cap) : this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}

export const JobFaultSchema = z.object({
  syncId: uuid.optional(),
  syncName: z.string().min(1).optional(),
  job: z.enum(["sync", "import", "remove"]),
  message: z.string().min(1),
  count: z.number().int().min(1).default(1),
});

export const JobHoldSchema = z.object({
  syncId: uuid.optional(),
  syncName: z.string().min(1).optional(),
  job: z.enum(["sync", "import", "remove"]).optional(),
});

/** A partial audit entry for bulk insert: `createdAt` and `event.type` are required, the rest defaults. */
const AdminAuditEntrySchema = z.object({
  id: uuid.optional(),
  createdAt: z.iso.datetime({ offset: true }),
  event: z.object({ type: EventTypeSchema, metadata: z.record(z.string(), z.unknown()).default({}) }),
  actor: z.object({ type: ActorTypeSchema, metadata: z.record(z.string(), z.unknown()).default({}) }).optional(),
  ipAddress: z.string().nullable().optional(),
  userAgent: z.string().nullable().optional(),
  userAgentType: UserAgentTypeSchema.optional(),
  orgId: uuid.optional(),
  projectId: z.string().nullable().optional(),
});
const AdminAuditBodySchema = z.object({ entries: z.array(AdminAuditEntrySchema) });
export type AdminAuditEntry = z.input<typeof AdminAuditEntrySchema>;

export interface AdminDeps {
  faults: Faults;
  rateLimits: RateLimits;
  requests: RequestLog;
}

/** The admin table of docs/ARCHITECTURE.md, registered only with `admin: true`. */
export function registerAdminRoutes(app: FastifyInstance, ctx: EmulatorContext, deps: AdminDeps): void {
  const p = ADMIN_PREFIX;

  app.post(`${p}/faults`, async (req) => ({ id: deps.faults.add(parseOr422(FaultRuleSchema, req.body)) }));
  app.delete(`${p}/faults`, async () => {
    deps.faults.clear();
    return { ok: true };
  });

  app.post(`${p}/job-faults`, async (req) => {
    const { count, ...f } = parseOr422(JobFaultSchema, req.body);
    return { id: ctx.jobs.addFault({ ...f, remaining: count }) };
  });

  // Matching jobs stay `running` (their sync busy) until the hold is deleted.
  app.post(`${p}/job-holds`, async (req) => ({ id: ctx.jobs.addHold(parseOr422(JobHoldSchema, req.body)) }));
  app.delete<{ Params: { id: string } }>(`${p}/job-holds/:id`, async (req, reply) => {
    if (!ctx.jobs.releaseHold(req.params.id)) return reply.code(404).send({ released: false });
    return { released: true };
  });

  app.put(`${p}/rate-limits`, async (req) => ({
    rateLimits: deps.rateLimits.configure(parseOr422(RateLimitSettingsSchema, req.body)),
  }));

  // What the last successful sync job of a sync pushed: keys and value hashes (jobs.ts), never values.
  app.get<{ Params: { syncId: string } }>(`${p}/secret-syncs/:syncId/pushed`, async (req, reply) => {
    const pushed = ctx.store.syncs.get(req.params.syncId)?.pushed;
    if (!pushed)
      return reply.code(404).send({ message: `No sync job of sync ${req.params.syncId} has pushed secrets` });
    return pushed;
  });

  app.get(`${p}/requests`, async () => ({ requests: deps.requests.list() }));
  app.delete(`${p}/requests`, async () => {
    deps.requests.clear();
    return { ok: true };
  });

  app.post(`${p}/audit-logs`, { bodyLimit: 512 * 1024 * 1024 }, async (req) => {
    const { entries } = parseOr422(AdminAuditBodySchema, req.body);
    const identity = ctx.store.identities.get(ctx.store.defaultIdentityId)!;
    const full = entries.map((e): AuditLogEntry => {
      const projectId = e.projectId ?? null;
      const createdAt = new Date(e.createdAt).toISOString();
      return {
        id: e.id ?? randomUUID(),
        createdAt,
        updatedAt: createdAt,
        event: e.event,
        actor: e.actor ?? { type: "identity", metadata: { identityId: identity.id, name: identity.name } },
        ipAddress: e.ipAddress ?? "127.0.0.1",
        userAgent: e.userAgent ?? "",
        userAgentType: e.userAgentType ?? "other",
        expiresAt: null,
        orgId: e.orgId ?? identity.orgId,
        projectId,
        projectName: projectId ? (ctx.store.projects.get(projectId)?.name ?? null) : null,
      };
    });
    ctx.audit.addMany(full);
    ctx.changed();
    return { inserted: full.length };
  });
}
