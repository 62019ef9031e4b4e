import { spawn, spawnSync } from "node:child_process";

/**
 * Runs a child process (npm, go, pip, pulumi, a script) to completion, synchronously, for the tests
 * and the scripts, and never for longer than `timeoutMs`.
 *
 * A synchronous child blocks its jest worker, so jest's own test timeout cannot end it: one `npm
 * install` that stalls would hold the whole run until CI's limit. So the command runs under
 * coreutils' `timeout`, which makes itself a process group leader and, when the time is up, sends
 * SIGTERM to the whole group (the command and every process it started), then SIGKILL 5 s later.
 * The error names the command, says that it timed out, and shows what it last printed.
 */

export interface RunSyncOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Killed with its process tree after this long. */
  timeoutMs: number;
  /** Written to its standard input. */
  input?: string;
  /** `inherit`: its standard error goes straight to ours (progress of a long command), not into errors. */
  stderr?: "pipe" | "inherit";
}

/** How much of what a failed command printed its error shows. */
const TAIL = 4000;

/** What the command printed, last `TAIL` characters. */
const tail = (text: string) => (text.length > TAIL ? `…${text.slice(-TAIL)}` : text);

/** `timeout`'s exit codes when it ended the command: 124 (SIGTERM sufficed), 137 (SIGKILL). */
const TIMED_OUT = new Set([124, 137]);

/** Runs `file args` and returns its standard output; throws when it fails or times out. */
export function runSync(file: string, args: readonly string[], opts: RunSyncOptions): string {
  const seconds = Math.max(1, Math.ceil(opts.timeoutMs / 1000));
  const result = spawnSync("timeout", ["--kill-after=5", String(seconds), file, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    input: opts.input,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", opts.stderr ?? "pipe"],
  });
  const command = [file, ...args].join(" ");
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status === 0) return result.stdout;
  const printed = tail(`${result.stdout ?? ""}${result.stderr ?? ""}`.trim()) || "(nothing)";
  const what = TIMED_OUT.has(result.status ?? 0)
    ? `timed out after ${seconds} s and was killed with its child processes`
    : `failed (exit code ${result.status ?? result.signal})`;
  throw new Error(`${command} ${what}; it last printed:\n${printed}`);
}

/** Timeouts by what a command does, generous for a loaded 2-core machine. */
export const TIMEOUTS = {
  /** `npm pack`, `npm install` from the cache, `npx prettier`, `ps`, a short script. */
  quick: 2 * 60_000,
  /** `npm install` that may download, `tsc` of the package, `pip install`, `pulumi` commands. */
  install: 10 * 60_000,
  /** Building Go programs, the engine's ensure scripts (cached after the first run). */
  build: 30 * 60_000,
} as const;

/**
 * `runSync`'s asynchronous twin, for a child that talks to a server of the test's own process
 * (an emulator), which a synchronous child would block: the same timeout, killing its process
 * group, and the same errors.
 */
export function runAsync(file: string, args: readonly string[], opts: RunSyncOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", opts.stderr ?? "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    let timedOut = false;
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGTERM");
      setTimeout(() => kill("SIGKILL"), 5_000).unref();
    }, opts.timeoutMs);
    child.on("error", (e) => reject(new Error(`${[file, ...args].join(" ")} could not run: ${e.message}`)));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) return resolve(stdout);
      const seconds = Math.ceil(opts.timeoutMs / 1000);
      const what = timedOut
        ? `timed out after ${seconds} s and was killed with its child processes`
        : `failed (exit code ${code ?? signal})`;
      const printed = tail(`${stdout}${stderr}`.trim()) || "(nothing)";
      reject(new Error(`${[file, ...args].join(" ")} ${what}; it last printed:\n${printed}`));
    });
  });
}
