import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { StateSnapshot } from "./store";

/** Reads a `--data` file; undefined when it does not exist yet. */
export function loadSnapshot(file: string): StateSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<StateSnapshot>;
  if (parsed.format !== 1 || !Array.isArray(parsed.organizations) || !Array.isArray(parsed.auditLogs)) {
    throw new Error(`${file} is not an emulator data file (format 1)`);
  }
  return parsed as StateSnapshot;
}

/**
 * Saves the state after changes: debounced (one write per burst, and never more often than four
 * times the last write's cost, so a large audit log under load does not starve the server),
 * atomically (a temporary file renamed over the target, so a crash never leaves half a file),
 * and once more on stop.
 */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();
  private seq = 0;
  private lastCostMs = 0;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => StateSnapshot,
    private readonly debounceMs = 100,
  ) {}

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

  /** Writes now if anything changed since the last write; resolves when the file is in place. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const started = performance.now();
    const body = JSON.stringify(this.snapshot());
    const tmp = `${this.file}.${process.pid}.${++this.seq}.tmp`;
    this.writing = this.writing
      .then(async () => {
        await writeFile(tmp, body, "utf8");
        await rename(tmp, this.file);
        this.lastCostMs = performance.now() - started;
      })
      .catch((err: Error) => {
        process.stderr.write(`emulator: could not save ${this.file}: ${err.message}\n`);
      });
    return this.writing;
  }

  /** Forces a write (the initial seed of a new data file). */
  saveNow(): Promise<void> {
    this.dirty = true;
    return this.flush();
  }
}
