import type { AuditLogEntry, AuditLogQueryParsed, UserAgentTypeSchema } from "../sdk/schemas";
import type { z } from "zod";

type UserAgentType = z.infer<typeof UserAgentTypeSchema>;

/** The service's `getUserAgentType` (server/plugins/audit-log.ts): exact names, then browsers, then SDKs. */
export function userAgentTypeOf(userAgent: string | undefined): UserAgentType {
  if (userAgent === undefined) return "other";
  if (userAgent === "cli" || userAgent === "k8-operator" || userAgent === "terraform") return userAgent;
  if (userAgent.toLowerCase().includes("mozilla")) return "web";
  if (userAgent.includes("InfisicalNodeSDK")) return "InfisicalNodeSDK";
  if (userAgent.includes("InfisicalPythonSDK")) return "InfisicalPythonSDK";
  return "other";
}

interface Rec {
  /** createdAt in epoch ms */
  t: number;
  /** insertion order; breaks ties between equal timestamps (later = newer) */
  seq: number;
  e: AuditLogEntry;
}

const newer = (a: Rec, b: Rec) => a.t > b.t || (a.t === b.t && a.seq > b.seq);

/** First index whose record is at or after `t`. */
function lowerBound(list: readonly Rec[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insertSorted(list: Rec[], r: Rec): void {
  const last = list[list.length - 1];
  if (!last || !newer(last, r)) {
    list.push(r);
    return;
  }
  list.splice(lowerBound(list, r.t + 1), 0, r);
}

const bySeq = (a: Rec, b: Rec) => a.t - b.t || a.seq - b.seq;

/**
 * The event types for which the `environment`, `secretPath` and `secretKey` filters apply
 * (the service's `filterableSecretEvents`, docs/service-api.md §5); note `get-secrets` is not one.
 */
const filterableSecretEvents: ReadonlySet<string> = new Set([
  "get-secret",
  "delete-secrets",
  "create-secrets",
  "update-secrets",
  "create-secret",
  "update-secret",
  "delete-secret",
]);

/**
 * `metadata @> {key: value}` with `value` a JSON string, as the service's filters compare
 * (docs/service-api.md §5): only a string equal to it matches, so `false` or `5` stored as a
 * boolean or a number never match the text `false` or `5`.
 */
const holdsString = (metadata: Record<string, unknown>, key: string, value: string) => metadata[key] === value;

/** Which actor-metadata field holds the id the `actor` filter names. */
const actorIdField: Partial<Record<string, string>> = { user: "userId", identity: "identityId", service: "serviceId" };

export interface AuditQuery {
  orgId: string;
  filters: AuditLogQueryParsed;
  startMs: number;
  endMs: number;
  metadata: [string, string][];
}

/**
 * The audit log: entries kept sorted by createdAt, with per-org, per-event-type and per-project
 * indexes. A query picks the index with the fewest entries in the date range, walks it newest
 * first from a binary-searched position, and stops once the page is full, so a page costs
 * roughly offset + limit checks rather than a scan of everything stored.
 */
export class AuditLog {
  private seq = 0;
  private readonly byOrg = new Map<string, Rec[]>();
  private readonly byType = new Map<string, Rec[]>();
  private readonly byProject = new Map<string, Rec[]>();
  /** Entries added since the last `takeAdded()`, kept only once `trackAdded()` is called (persistence's journal). */
  private added: AuditLogEntry[] | undefined;

  constructor(entries: readonly AuditLogEntry[] = []) {
    this.addMany(entries);
  }

  get size(): number {
    let n = 0;
    for (const l of this.byOrg.values()) n += l.length;
    return n;
  }

  /** All entries, oldest first (for persistence). */
  all(): AuditLogEntry[] {
    return [...this.byOrg.values()]
      .flat()
      .sort(bySeq)
      .map((r) => r.e);
  }

  /** Keeps the entries added from now on for `takeAdded()`. */
  trackAdded(): void {
    this.added ??= [];
  }

  /** The entries added since the last call (empty unless `trackAdded()` was called). */
  takeAdded(): AuditLogEntry[] {
    const out = this.added ?? [];
    if (this.added) this.added = [];
    return out;
  }

  add(e: AuditLogEntry): void {
    this.added?.push(e);
    const r: Rec = { t: Date.parse(e.createdAt), seq: this.seq++, e };
    for (const list of this.listsOf(e)) insertSorted(list, r);
  }

  addMany(entries: readonly AuditLogEntry[]): void {
    const touched = new Set<Rec[]>();
    for (const e of entries) {
      this.added?.push(e);
      const r: Rec = { t: Date.parse(e.createdAt), seq: this.seq++, e };
      for (const list of this.listsOf(e)) {
        list.push(r);
        touched.add(list);
      }
    }
    for (const list of touched) list.sort(bySeq);
  }

  private listsOf(e: AuditLogEntry): Rec[][] {
    const lists = [listFor(this.byOrg, e.orgId), listFor(this.byType, e.event.type)];
    if (e.projectId) lists.push(listFor(this.byProject, e.projectId));
    return lists;
  }

  query(q: AuditQuery): AuditLogEntry[] {
    const f = q.filters;
    const types = f.eventType && f.eventType.length > 0 ? f.eventType : undefined;
    const inRange = (lists: readonly Rec[][]) =>
      lists.reduce((n, l) => n + lowerBound(l, q.endMs) - lowerBound(l, q.startMs), 0);

    // Candidate sources; each covers every match, the smallest one is walked.
    const sources: { lists: Rec[][]; covers: "org" | "project" | "type" }[] = [
      { lists: [this.byOrg.get(q.orgId) ?? []], covers: "org" },
    ];
    if (f.projectId) sources.push({ lists: [this.byProject.get(f.projectId) ?? []], covers: "project" });
    if (types) sources.push({ lists: types.map((t) => this.byType.get(t) ?? []), covers: "type" });
    let best = sources[0]!;
    let bestSize = inRange(best.lists);
    for (const s of sources.slice(1)) {
      const size = inRange(s.lists);
      if (size < bestSize) [best, bestSize] = [s, size];
    }

    const checks: ((e: AuditLogEntry) => boolean)[] = [];
    if (best.covers !== "org") checks.push((e) => e.orgId === q.orgId);
    if (f.projectId && best.covers !== "project") checks.push((e) => e.projectId === f.projectId);
    if (types && best.covers !== "type") {
      const set = new Set<string>(types);
      checks.push((e) => set.has(e.event.type));
    }
    const meta = (field: string, value: string) => (e: AuditLogEntry) => holdsString(e.event.metadata, field, value);
    // environment, secretPath and secretKey apply only with a project and when no event type, or
    // a secret event type, is asked for; otherwise they are ignored (docs/service-api.md §5).
    if (f.projectId && (!types || types.some((t) => filterableSecretEvents.has(t)))) {
      if (f.environment) checks.push(meta("environment", f.environment));
      if (f.secretPath) checks.push(meta("secretPath", f.secretPath));
      const key = f.secretKey;
      if (key) {
        // The key itself, or an entry of a bulk event's `secrets` array.
        checks.push((e) => {
          const m = e.event.metadata;
          if (holdsString(m, "secretKey", key)) return true;
          const secrets = m.secrets;
          return (
            Array.isArray(secrets) &&
            secrets.some(
              (x) => x !== null && typeof x === "object" && holdsString(x as Record<string, unknown>, "secretKey", key),
            )
          );
        });
      }
    }
    for (const [k, v] of q.metadata) checks.push(meta(k, v));
    if (f.actorType !== undefined) checks.push((e) => e.actor.type === f.actorType);
    if (f.actor !== undefined) {
      const field = actorIdField[f.actorType ?? "user"];
      const actor = f.actor;
      checks.push((e) => {
        const m = e.actor.metadata;
        if (field) return m[field] === actor;
        return Object.values(m).some((v) => v === actor);
      });
    }
    if (f.userAgentType !== undefined) checks.push((e) => e.userAgentType === f.userAgentType);

    const out: AuditLogEntry[] = [];
    if (f.limit === 0) return out;
    let skip = f.offset;
    for (const r of newestFirst(best.lists, q.startMs, q.endMs)) {
      if (!checks.every((c) => c(r.e))) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push(r.e);
      if (out.length >= f.limit) break;
    }
    return out;
  }
}

function listFor(m: Map<string, Rec[]>, key: string): Rec[] {
  let l = m.get(key);
  if (!l) m.set(key, (l = []));
  return l;
}

/** Records with start <= t < end from sorted lists, newest first (a k-way merge when several). */
function* newestFirst(lists: readonly Rec[][], startMs: number, endMs: number): Generator<Rec> {
  const cursors = lists
    .map((l) => ({ l, i: lowerBound(l, endMs) - 1, lo: lowerBound(l, startMs) }))
    .filter((c) => c.i >= c.lo);
  if (cursors.length === 1) {
    const { l, lo } = cursors[0]!;
    for (let i = cursors[0]!.i; i >= lo; i--) yield l[i]!;
    return;
  }
  while (cursors.length > 0) {
    let k = 0;
    for (let j = 1; j < cursors.length; j++) {
      if (newer(cursors[j]!.l[cursors[j]!.i]!, cursors[k]!.l[cursors[k]!.i]!)) k = j;
    }
    const c = cursors[k]!;
    yield c.l[c.i]!;
    if (--c.i < c.lo) cursors.splice(k, 1);
  }
}
