import * as fs from "node:fs";
import * as path from "node:path";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * Processes that outlive their test. Jest abandons a test that exceeds its timeout but not the
 * `pulumi` it started: that process goes on holding the stack's lock (the next test on the stack
 * then fails with "the stack is currently locked"), may be killed mid-write later ("failed to load
 * checkpoint: EOF"), and its language host and dynamic-provider processes outlive the run. So the
 * engine harness (and tests that run `pulumi` or the CLI themselves) register what they start
 * here, and after each test whatever still runs is cancelled: SIGINT (pulumi cancels and releases
 * its lock), then SIGKILL to its whole process tree, then the lock files and cut metadata sidecars
 * a killed `pulumi` left are removed.
 */

interface RunningOperation {
  pid: number;
  args: readonly string[];
  /** The stack's local backend directory (its `.pulumi/locks`), when known. */
  stateDir?: string;
  exited: Promise<unknown>;
}
const running = new Set<RunningOperation>();

/**
 * Registers a started process until `exited` settles: `args` name it in warnings, `stateDir` is the
 * local backend whose locks a kill may leave.
 */
export function trackProcess(pid: number, args: readonly string[], exited: Promise<unknown>, stateDir?: string) {
  const op: RunningOperation = { pid, args, stateDir, exited: exited.catch(() => {}) };
  running.add(op);
  void op.exited.then(() => running.delete(op));
}

/** The processes registered and running now. */
export function runningOperations(): { pid: number; args: readonly string[] }[] {
  return [...running].map(({ pid, args }) => ({ pid, args }));
}

/** Lock files of the local backend under `stateDir` (`.pulumi/locks/…/<stack>/<uuid>.json`). */
function lockFiles(stateDir: string): string[] {
  const locks = path.join(stateDir, ".pulumi", "locks");
  if (!fs.existsSync(locks)) return [];
  return fs
    .readdirSync(locks, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(locks, f))
    .filter((f) => f.endsWith(".json") && fs.statSync(f).isFile());
}

/** Empty `<stack>.json.attrs` sidecars of the local backend under `stateDir`. */
function emptySidecars(stateDir: string): string[] {
  const stacks = path.join(stateDir, ".pulumi", "stacks");
  if (!fs.existsSync(stacks)) return [];
  return fs
    .readdirSync(stacks, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(stacks, f))
    .filter((f) => f.endsWith(".attrs") && fs.statSync(f).size === 0);
}

/**
 * A process and all its descendants. The engine starts its language host and provider plugins in
 * process groups of their own, so a signal to the CLI's group does not reach them: the tree is
 * read from `ps` while the CLI still runs.
 */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of runSync("ps", ["-eo", "pid=,ppid="], { timeoutMs: TIMEOUTS.quick }).trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!children.has(ppid!)) children.set(ppid!, []);
    children.get(ppid!)!.push(pid!);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** Whether a process runs: it exists and is not a zombie waiting for its parent to reap it. */
export function alive(pid: number): boolean {
  try {
    const state = runSync("ps", ["-o", "stat=", "-p", String(pid)], { timeoutMs: TIMEOUTS.quick }).trim();
    return state !== "" && !state.startsWith("Z");
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}

const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone already.
  }
};

/**
 * SIGKILL to a process and all its descendants at once, as a dying CI runner takes everything:
 * a kill of the process group alone leaves the provider plugins (groups of their own) running.
 * Returns the pids signalled.
 */
export function killTree(root: number): number[] {
  const tree = processTree(root);
  for (const pid of tree) {
    signal(-pid, "SIGKILL");
    signal(pid, "SIGKILL");
  }
  return tree;
}

/**
 * Ends every registered process still running: SIGINT (the CLI cancels and releases its lock), and
 * after `graceMs` SIGKILL to every process of its tree (the CLI, the language host and program,
 * the dynamic-provider processes) and their groups; then removes the locks the killed operations
 * left, and the metadata sidecars a kill during a save left empty (every later command fails with
 * "failed to load checkpoint: EOF" until then; deleting them is the first recovery step
 * docs/resources.md gives). A SIGKILL is delivered when the process is next scheduled, so on a
 * busy machine it can still run after the call: this returns once every process of the trees is
 * gone (or after `graceMs` more). Returns what was running.
 */
export async function cancelRunningOperations(graceMs = 5_000): Promise<string[]> {
  const ops = [...running];
  if (!ops.length) return [];
  const trees = ops.map((op) => processTree(op.pid));
  for (const op of ops) signal(op.pid, "SIGINT");
  const settled = Promise.all(ops.map((op) => op.exited));
  await Promise.race([settled, new Promise((r) => setTimeout(r, graceMs).unref())]);
  for (const op of ops) trees.push(processTree(op.pid));
  const killed = [...new Set(trees.flat())];
  for (const pid of killed) {
    signal(-pid, "SIGKILL");
    signal(pid, "SIGKILL");
  }
  await settled;
  const deadline = Date.now() + graceMs;
  while (killed.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const dir of new Set(ops.map((op) => op.stateDir).filter((d): d is string => !!d))) {
    for (const lock of lockFiles(dir)) fs.rmSync(lock, { force: true });
    for (const cut of emptySidecars(dir)) fs.rmSync(cut, { force: true });
  }
  return ops.map((op) => op.args.slice(0, 3).join(" "));
}

// A test that returned, passed or failed or timed out, has no business running `pulumi` any
// more: cancel what it left before the next test uses the stack.
afterEach(async () => {
  const left = await cancelRunningOperations();
  if (left.length) console.warn(`cancelled what the test left running: ${left.join(", ")}`);
}, 30_000);
// If the worker exits anyway (a forced exit, an afterAll timeout), leave no process behind.
process.on("exit", () => {
  for (const op of running) for (const pid of processTree(op.pid)) signal(pid, "SIGKILL");
});
