import type { Transport } from "./http";
import {
  type AuditLogEntry,
  type AuditLogQuery,
  MAX_AUDIT_LOG_PAGE,
  auditLogClientOperations,
  dateRangeRule,
} from "./schemas";

/**
 * Audit logs. The filter rules (environment/secretPath/secretKey need projectId, date
 * order and range, limit ≤ 1000) are `AuditLogFiltersSchema`, checked before anything is sent;
 * dates are sent as UTC, and event types are left for the server to judge.
 */
export class AuditLogsApi {
  constructor(private readonly t: Transport) {}

  /** One page: `limit` entries (default 20, max 1000) from `offset`, newest first. */
  async list(filters: AuditLogQuery = {}): Promise<AuditLogEntry[]> {
    const res = await this.t.call(auditLogClientOperations.list, { query: filters });
    return res.auditLogs;
  }

  /**
   * Every matching entry, newest first, fetched in pages of `filters.limit` (default 1000, the
   * maximum) from `filters.offset`. Only the current page is held in memory; the next one is
   * requested when the consumer has taken the last entry of this one. A short page is the last
   * one, so no extra empty request follows it.
   *
   * Offsets shift when new entries arrive at the top (the order is newest first). Unless the
   * caller fixed `endDate`, the walk therefore pins `endDate` just after the newest entry of the
   * first page, taken from the service's own timestamps, so later entries cannot push any entry
   * into the next page a second time. (Not when `startDate` lies more than 3 months back: the
   * service refuses such a range, so that walk goes unpinned.)
   */
  async *iterate(filters: AuditLogQuery = {}): AsyncGenerator<AuditLogEntry, void, undefined> {
    const pageSize = filters.limit ?? MAX_AUDIT_LOG_PAGE;
    let offset = Number(filters.offset ?? 0);
    let endDate = filters.endDate;
    for (;;) {
      const page = await this.list({ ...filters, endDate, offset, limit: pageSize });
      const newest = page.length > 0 ? Date.parse(page[0]!.createdAt) : NaN;
      if (endDate === undefined && !Number.isNaN(newest)) {
        // Only a pin the service takes: with a start more than 3 months back, a pinned end would
        // break its range rule, so such a walk goes on unpinned.
        const pinned = new Date(newest + 1);
        const start = filters.startDate === undefined ? undefined : new Date(filters.startDate);
        if (!start || !dateRangeRule(start, pinned)) endDate = pinned.toISOString();
      }
      offset += page.length;
      // An empty page ends the walk too (a `limit` of 0 asks only for empty pages).
      const last = page.length === 0 || page.length < Number(pageSize);
      yield* page;
      if (last) return;
    }
  }
}
