/**
 * The one client of the emulator's admin routes (routes/admin.ts, docs/ARCHITECTURE.md), for the
 * process that drives an emulator: tests, the bench and scripts. Its argument types are the
 * routes' own schemas, so a rule the emulator would refuse fails to compile here.
 */
import type { z } from "zod";
import type { FaultRuleSchema } from "./faults";
import type { RateLimitSettings, RateLimitSettingsSchema } from "./rate-limit";
import type { AdminAuditEntry, JobFaultSchema, JobHoldSchema, RequestLogEntry } from "./routes/admin";
import type { SyncPush } from "./types";

export type { AdminAuditEntry, RequestLogEntry } from "./routes/admin";
export type { SyncPush } from "./types";
export type FaultRule = z.input<typeof FaultRuleSchema>;
export type JobFault = z.input<typeof JobFaultSchema>;
export type JobHold = z.input<typeof JobHoldSchema>;

export class EmulatorAdmin {
  /** `url`: the emulator's base URL (`RunningEmulator.url`), started with `admin: true`. */
  constructor(private readonly url: string) {}

  /** Adds a fault rule for the public API; its id. */
  async addFault(rule: FaultRule): Promise<string> {
    return ((await this.call("POST", "/faults", rule)) as { id: string }).id;
  }

  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/faults");
  }

  /** Makes the next sync job(s) of a sync fail with `message`. */
  async addJobFault(fault: JobFault): Promise<string> {
    return ((await this.call("POST", "/job-faults", fault)) as { id: string }).id;
  }

  /** Holds the matching sync jobs at `running` (their sync busy) until `releaseJobHold`; the hold's id. */
  async holdJobs(hold: JobHold): Promise<string> {
    return ((await this.call("POST", "/job-holds", hold)) as { id: string }).id;
  }

  /** Lifts a hold: the jobs it held finish. */
  async releaseJobHold(id: string): Promise<void> {
    await this.call("DELETE", `/job-holds/${encodeURIComponent(id)}`);
  }

  /**
   * What the last successful sync job of a sync pushed: when, and each key of its folder with the
   * sha256 (hex) of its value; undefined when no sync job of it has succeeded.
   */
  async pushedSecrets(syncId: string): Promise<SyncPush | undefined> {
    const route = `/secret-syncs/${encodeURIComponent(syncId)}/pushed`;
    const res = await fetch(`${this.url}/__admin${route}`);
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`emulator admin GET ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as SyncPush;
  }

  /** Turns the rate limits on with these limits (fresh counters), or off with `{ enabled: false }`. */
  async setRateLimits(settings: z.input<typeof RateLimitSettingsSchema>): Promise<RateLimitSettings> {
    return ((await this.call("PUT", "/rate-limits", settings)) as { rateLimits: RateLimitSettings }).rateLimits;
  }

  /** The public API's request log, oldest first (admin routes are not logged). */
  async requests(): Promise<RequestLogEntry[]> {
    return ((await this.call("GET", "/requests")) as { requests: RequestLogEntry[] }).requests;
  }

  async clearRequests(): Promise<void> {
    await this.call("DELETE", "/requests");
  }

  /** Bulk-inserts audit entries (`createdAt` and `event.type` required, the rest defaults). */
  async insertAuditLogs(entries: AdminAuditEntry[]): Promise<number> {
    return ((await this.call("POST", "/audit-logs", { entries })) as { inserted: number }).inserted;
  }

  private async call(method: string, route: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.url}/__admin${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`emulator admin ${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json();
  }
}
