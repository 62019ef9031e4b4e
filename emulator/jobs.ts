import { randomUUID } from "node:crypto";
import { sha256Hex } from "./hashing";
import type { Store } from "./store";
import type { StoredSync, SyncJobKind, SyncPush } from "./types";

const FOLDER_GONE =
  "Invalid Secret Sync source configuration: folder no longer exists. Please update source environment and secret path.";

/** The status fields each job kind writes (docs/service-api.md §2, "Status fields"). */
export const jobFields = {
  sync: { status: "syncStatus", jobId: "lastSyncJobId", message: "lastSyncMessage", at: "lastSyncedAt" },
  import: { status: "importStatus", jobId: "lastImportJobId", message: "lastImportMessage", at: "lastImportedAt" },
  remove: { status: "removeStatus", jobId: "lastRemoveJobId", message: "lastRemoveMessage", at: "lastRemovedAt" },
} as const satisfies Record<SyncJobKind, Record<string, keyof StoredSync>>;

export interface JobFault {
  id: string;
  syncId?: string;
  syncName?: string;
  job: SyncJobKind;
  message: string;
  remaining: number;
}

/**
 * Holds matching jobs at `running` until released (admin `POST/DELETE /__admin/job-holds`): a test
 * sees a job in flight for as long as it needs, whatever the machine's load.
 */
export interface JobHold {
  id: string;
  syncId?: string;
  syncName?: string;
  /** Every job kind when unset. */
  job?: SyncJobKind;
}

/**
 * Background sync jobs. A queued job sets its status to `pending` at once; after `delayMs` it
 * turns `running` (and gets its job id), after another `delayMs` it ends `succeeded` (message
 * null, timestamp now) or `failed` (message set, timestamp unchanged) when a job-fault rule
 * matches. Jobs of one sync run one after another.
 */
export class SyncJobs {
  private readonly queues = new Map<string, SyncJobKind[]>();
  private readonly active = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private faults: JobFault[] = [];
  private holds: JobHold[] = [];
  /** The finishing steps of held jobs, by hold id. */
  private readonly parked = new Map<string, (() => void)[]>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly delayMs: number,
    private readonly changed: () => void,
  ) {}

  /** A job of this sync is queued or running: triggers answer 400 (the service's sync lock). */
  busy(syncId: string): boolean {
    return this.active.has(syncId) || (this.queues.get(syncId)?.length ?? 0) > 0;
  }

  enqueue(sync: StoredSync, kind: SyncJobKind): void {
    setField(sync, jobFields[kind].status, "pending");
    let q = this.queues.get(sync.id);
    if (!q) this.queues.set(sync.id, (q = []));
    q.push(kind);
    if (!this.active.has(sync.id)) this.startNext(sync.id);
  }

  /** Re-queues the jobs a persisted state had in flight. */
  resume(): void {
    for (const sync of this.store.syncs.values()) {
      for (const kind of Object.keys(jobFields) as SyncJobKind[]) {
        const status = sync[jobFields[kind].status];
        if (status === "pending" || status === "running") this.enqueue(sync, kind);
      }
    }
  }

  addFault(f: Omit<JobFault, "id">): string {
    const id = randomUUID();
    this.faults.push({ ...f, id });
    return id;
  }

  addHold(h: Omit<JobHold, "id">): string {
    const id = randomUUID();
    this.holds.push({ ...h, id });
    return id;
  }

  /** Lifts a hold: the jobs it held finish (after the usual delay). False for an unknown id. */
  releaseHold(id: string): boolean {
    const before = this.holds.length;
    this.holds = this.holds.filter((h) => h.id !== id);
    const waiting = this.parked.get(id) ?? [];
    this.parked.delete(id);
    for (const finish of waiting) finish();
    return this.holds.length < before;
  }

  stop(): void {
    this.stopped = true;
    this.parked.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private startNext(syncId: string): void {
    const kind = this.queues.get(syncId)?.shift();
    if (kind === undefined) {
      this.queues.delete(syncId);
      this.active.delete(syncId);
      return;
    }
    this.active.add(syncId);
    const f = jobFields[kind];
    this.after(this.delayMs, () => {
      const sync = this.store.syncs.get(syncId);
      if (!sync) return this.drop(syncId);
      setField(sync, f.status, "running");
      setField(sync, f.jobId, randomUUID());
      this.changed();
      this.whenReleased(sync, kind, () => this.after(this.delayMs, () => this.finish(syncId, kind)));
    });
  }

  /** Ends a sync's running job: succeeded (a sync job records what it pushed) or failed, then the next job. */
  private finish(syncId: string, kind: SyncJobKind): void {
    const f = jobFields[kind];
    const s = this.store.syncs.get(syncId);
    if (!s) return this.drop(syncId);
    // A sync whose folder was deleted fails every job with the service's message (its sync
    // queue's `$getInfisicalSecrets`; docs/service-api.md §11); [UNCONFIRMED] for import and remove.
    const failure = s.folderId === null ? FOLDER_GONE : this.takeFault(s, kind)?.message;
    if (failure !== undefined) {
      setField(s, f.status, "failed");
      setField(s, f.message, failure);
    } else {
      setField(s, f.status, "succeeded");
      setField(s, f.message, null);
      const at = new Date().toISOString();
      setField(s, f.at, at);
      if (kind === "sync") s.pushed = this.pushOf(s.folderId!, at);
    }
    if (kind === "remove" && s.deleteOnRemove) {
      s.deleteOnRemove = false;
      if (failure === undefined) {
        this.store.syncs.delete(syncId);
        this.changed();
        return this.drop(syncId);
      }
    }
    this.changed();
    this.startNext(syncId);
  }

  /** The folder's secrets as a job pushes them now: keys and value hashes, never values. */
  private pushOf(folderId: string, pushedAt: string): SyncPush {
    const secrets = [...this.store.folderSecrets(folderId).values()]
      .map((x) => ({ key: x.key, valueSha256: sha256Hex(x.value) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { pushedAt, secrets };
  }

  /** Runs `next` now, or when the hold that matches the job is released. */
  private whenReleased(s: StoredSync, job: SyncJobKind, next: () => void): void {
    const hold = this.holds.find(
      (h) =>
        (h.job === undefined || h.job === job) &&
        (h.syncId === undefined || h.syncId === s.id) &&
        (h.syncName === undefined || h.syncName === s.name),
    );
    if (!hold) return next();
    const waiting = this.parked.get(hold.id) ?? [];
    waiting.push(next);
    this.parked.set(hold.id, waiting);
  }

  private drop(syncId: string): void {
    this.queues.delete(syncId);
    this.active.delete(syncId);
  }

  private takeFault(s: StoredSync, job: SyncJobKind): JobFault | undefined {
    const i = this.faults.findIndex(
      (f) =>
        f.job === job &&
        (f.syncId === undefined || f.syncId === s.id) &&
        (f.syncName === undefined || f.syncName === s.name),
    );
    if (i < 0) return undefined;
    const fault = this.faults[i]!;
    if (--fault.remaining <= 0) this.faults.splice(i, 1);
    return fault;
  }
}

function setField(s: StoredSync, key: keyof StoredSync, value: string | null): void {
  (s as Record<keyof StoredSync, unknown>)[key] = value;
}
