import { spawn } from "node:child_process";
import * as path from "node:path";
import { trackProcess } from "../engine/processes";

/** The built command, as `npx secretops` runs it (tests use dist: `npm run build` first). */
export const cliPath = path.resolve(__dirname, "..", "..", "dist", "cli", "index.js");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, never throwing on a non-zero exit. */
export function run(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    // Cancelled with its process tree (a pulumi it runs, say) if its test ends first.
    if (child.pid) trackProcess(child.pid, [command, ...args], new Promise((done) => child.on("close", done)));
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node dist/cli/index.js ...args`. */
export const secretops = (args: readonly string[], opts: Parameters<typeof run>[2] = {}) =>
  run(process.execPath, [cliPath, ...args], opts);

/** Starts a long-running command and resolves with its first stdout line (and the child, to stop). */
export function firstLine(command: string, args: readonly string[], opts: { cwd?: string } = {}) {
  const child = spawn(command, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const line = new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const i = out.indexOf("\n");
      if (i >= 0) resolve(out.slice(0, i));
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => reject(new Error(`exited with ${code} before a line: ${err}`)));
  });
  /** Stops the whole process group (npx runs the command as a child of its own). */
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("close", () => resolve());
      process.kill(-child.pid!, "SIGTERM");
    });
  return { line, stop, child };
}
