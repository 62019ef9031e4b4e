import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import type { RequestLogEntry } from "../emulator";
import { TIMEOUTS, runSync } from "./run-sync";

/** What the benchmarks (scripts/bench.ts, scripts/bench-native.ts) run their stacks with. */

/** The checkout, from the compiled script in node_modules/.cache/bench/scripts/. */
export const repoRoot = path.resolve(__dirname, "..", "..", "..", "..");

/** The directory holding `pulumi`, found or built by scripts/ensure-pulumi.sh. */
export const binDir = () =>
  runSync("bash", [path.join(repoRoot, "scripts/ensure-pulumi.sh")], { timeoutMs: TIMEOUTS.build, stderr: "inherit" })
    .trim()
    .split("\n")
    .pop()!;

export interface BenchStack {
  stack: Stack;
  env: Record<string, string>;
}

let counter = 0;
/**
 * A stack of the program in `workDir` on a local backend of its own, with `config` set
 * (`secretops:token` and `secretops:clientSecret` as secrets) and `env` added to the engine's environment.
 */
export async function benchStack(
  workDir: string,
  config: Record<string, string>,
  extraEnv: Record<string, string> = {},
): Promise<BenchStack> {
  const bin = binDir();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-bench-state-"));
  const env = {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "bench",
    PULUMI_HOME: path.join(stateDir, ".pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    ...extraEnv,
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(bin) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: `b${process.pid}x${++counter}`, workDir },
    { pulumiCommand, envVars: env, secretsProvider: "passphrase" },
  );
  const secret = (k: string) => k === "secretops:token" || k === "secretops:clientSecret";
  for (const [k, v] of Object.entries(config)) await stack.setConfig(k, { value: v, secret: secret(k) });
  return { stack, env };
}

/** The median of samples (the upper one of an even count). */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Wall time of `fn`, in whole milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return Math.round(performance.now() - t0);
}

/** An engine operation the benchmarks time; `previewRefresh` is `preview --refresh`. */
export type TimedOperation = "up" | "preview" | "refresh" | "previewRefresh" | "destroy";

/** Wall time of one operation on the stack. */
export function timedOperation(b: BenchStack, op: TimedOperation): Promise<number> {
  switch (op) {
    case "up":
      return timed(() => b.stack.up());
    case "preview":
      return timed(() => b.stack.preview());
    case "refresh":
      return timed(() => b.stack.refresh());
    case "previewRefresh":
      return timed(() => b.stack.preview({ refresh: true }));
    case "destroy":
      return timed(() => b.stack.destroy());
  }
}

/** The resources of `pulumi stack export` (secrets stay encrypted, as a user's export). */
export function exportedResources(b: BenchStack): Record<string, unknown>[] {
  const out = runSync(path.join(binDir(), "pulumi"), ["stack", "export", "--stack", b.stack.name], {
    cwd: b.stack.workspace.workDir,
    env: { ...process.env, ...b.env },
    timeoutMs: TIMEOUTS.install,
  });
  return (JSON.parse(out) as { deployment: { resources: Record<string, unknown>[] } }).deployment.resources;
}

/** The bucket the emulator counted it in: GETs, and the duplicate-destination check (a POST the service counts as a read). */
const isRead = (r: RequestLogEntry) => r.bucket === "read";
const isCheck = (r: RequestLogEntry) => r.path.endsWith("/check-destination");

/** An operation's calls, from the emulator's request log. */
export function callCounts(rs: RequestLogEntry[]) {
  const reads = rs.filter(isRead).length;
  return {
    reads,
    checks: rs.filter(isCheck).length,
    writes: rs.length - reads,
    rateLimited: rs.filter((r) => r.status === 429).length,
  };
}

/** The universal-auth credentials of the emulator's default identity (emulator/fixtures/default.json). */
export function fixtureLogin(): { clientId: string; clientSecret: string } {
  const fx = JSON.parse(fs.readFileSync(path.join(repoRoot, "emulator/fixtures/default.json"), "utf8")) as {
    identities: { universalAuth?: { clientId: string; clientSecret: string } }[];
  };
  return fx.identities[0]!.universalAuth!;
}
