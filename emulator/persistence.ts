import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { AuditLogEntry } from "../sdk/schemas";
import type { AuditLog } from "./audit";
import type { StateSnapshot, StoreSnapshot } from "./store";

/** The data file: the state, and the last journal line it already holds. */
export type DataFile = StateSnapshot & { journalSeq?: number };

/** One line of the journal: the store as it was after a write, and the audit entries added since the line before. */
interface JournalLine {
  seq: number;
  state: StoreSnapshot;
  audit: AuditLogEntry[];
}

/** The journal next to a data file. */
export const journalOf = (file: string) => `${file}.journal`;

/**
 * Reads a `--data` file and replays its journal; undefined when the file does not exist yet.
 * Journal lines the data file already holds (`journalSeq`) are skipped; a torn last line is a
 * write that was cut by a crash before it was acknowledged, so reading stops there. The result's
 * `journalSeq` is the last line read, where the next run's numbering continues.
 */
export function loadSnapshot(file: string): DataFile | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<DataFile>;
  if (parsed.format !== 1 || !Array.isArray(parsed.organizations) || !Array.isArray(parsed.auditLogs)) {
    throw new Error(`${file} is not an emulator data file (format 1)`);
  }
  const { journalSeq = 0, ...snapshot } = parsed as DataFile;
  const journal = journalOf(file);
  if (!existsSync(journal)) return { ...snapshot, journalSeq };
  let state: DataFile = { ...snapshot, journalSeq };
  for (const text of readFileSync(journal, "utf8").split("\n")) {
    if (!text) continue;
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch {
      break;
    }
    if (line.seq <= journalSeq) continue;
    state = { ...line.state, auditLogs: state.auditLogs.concat(line.audit), journalSeq: line.seq };
  }
  return state;
}

/**
 * Saves the state of a `--data` emulator, in two ways:
 *
 * - `commit()`, awaited by every write before its response is sent (server.ts): appends the
 *   store and the new audit entries as one line to the journal and syncs it, so a write that was
 *   acknowledged survives `kill -9` (and a power cut). Writes that arrive while a line is being
 *   written share the next line (group commit), so concurrent writes cost one sync, not one each.
 * - `markDirty()`: a full save of the data file, debounced (one per burst, and never more often
 *   than four times the last save's cost, so a large audit log under load does not starve the
 *   server), atomic (a synced temporary file renamed over the target, so a crash never leaves half
 *   a file). It records the last journal line it holds and empties the journal. Also on stop.
 *
 * Disk operations run one at a time, in order; each captures the state when it starts, so it
 * holds every change made before it was queued.
 */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private queue: Promise<void> = Promise.resolve();
  private tmpSeq = 0;
  private lastCostMs = 0;
  /** The commit queued but not started yet, which later writes join. */
  private nextCommit: Promise<void> | undefined;
  private journal: FileHandle | undefined;
  private readonly journalFile: string;

  constructor(
    private readonly file: string,
    private readonly store: () => StoreSnapshot,
    private readonly audit: AuditLog,
    /** the last journal line already read (loadSnapshot's `journalSeq`): numbering goes on from it */
    private seq = 0,
    private readonly debounceMs = 100,
  ) {
    this.journalFile = journalOf(file);
    removeOrphanedTempFiles(file);
    audit.trackAdded();
  }

  markDirty(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flush();
      },
      Math.max(this.debounceMs, 4 * this.lastCostMs),
    );
    this.timer.unref();
  }

  /** Resolves once the state as it is now is on disk (in the journal). */
  commit(): Promise<void> {
    this.markDirty();
    return (this.nextCommit ??= this.enqueue(async () => {
      this.nextCommit = undefined;
      const line: JournalLine = { seq: ++this.seq, state: this.store(), audit: this.audit.takeAdded() };
      this.journal ??= await open(this.journalFile, "a");
      await this.journal.write(`${JSON.stringify(line)}\n`);
      await this.journal.datasync();
    }));
  }

  /** Writes the data file now if anything changed since the last write; resolves when it is in place. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return this.queue;
    this.dirty = false;
    return this.enqueue(async () => {
      const started = performance.now();
      this.audit.takeAdded();
      const data: DataFile = { ...this.store(), auditLogs: this.audit.all(), journalSeq: ++this.seq };
      const tmp = `${this.file}.${process.pid}.${++this.tmpSeq}.tmp`;
      const fh = await open(tmp, "w");
      try {
        await fh.writeFile(JSON.stringify(data), "utf8");
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, this.file);
      await syncDir(dirname(this.file));
      // Every line so far is in the data file now, a previous run's too (a crash before this
      // truncate is harmless: the lines are skipped by their seq on load).
      this.journal ??= await open(this.journalFile, "a");
      await this.journal.truncate(0);
      this.lastCostMs = performance.now() - started;
    });
  }

  /** Forces a write (the initial seed of a new data file, and the replayed journal folded in at start). */
  saveNow(): Promise<void> {
    this.dirty = true;
    return this.flush();
  }

  /** Saves, then removes the (now empty) journal. */
  async close(): Promise<void> {
    await this.flush();
    await this.enqueue(async () => {
      await this.journal?.close();
      this.journal = undefined;
      await rm(this.journalFile, { force: true });
    });
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(op).catch((err: Error) => {
      process.stderr.write(`emulator: could not save ${this.file}: ${err.message}\n`);
    });
    return this.queue;
  }
}

/** Syncs a directory, so a rename in it is on disk; not every platform can open one, which is no error. */
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, "r");
    await fh.sync();
  } catch {
    /* e.g. Windows: directories cannot be opened */
  } finally {
    await fh?.close();
  }
}

/**
 * Removes the temporary copies (`<file>.<pid>.<n>.tmp`) that an emulator killed between writing
 * one and renaming it over the data file left behind; a copy of a process still alive is kept.
 */
function removeOrphanedTempFiles(file: string): void {
  const prefix = `${basename(file)}.`;
  if (!existsSync(dirname(file))) return;
  for (const name of readdirSync(dirname(file))) {
    const m = name.startsWith(prefix) ? /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (m && !isAlive(Number(m[1]))) rmSync(join(dirname(file), name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
