import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createRequire } from "node:module";
import { LocalWorkspace, PulumiCommand, Stack, ConfigMap, OutputMap, UpdateSummary } from "@pulumi/pulumi/automation";
import { trackProcess } from "./processes";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

export { alive, cancelRunningOperations, killTree, runningOperations, trackProcess } from "./processes";

/**
 * Runs program directories under the real Pulumi CLI through the Automation API (`workDir`, never
 * inline programs: jest's module loader breaks closure serialization). Every stack gets its own
 * local file backend, PULUMI_HOME and passphrase, and the engine never touches the network.
 */

export const repoRoot = path.resolve(__dirname, "..", "..");
export const programsDir = path.join(__dirname, "programs");

let binDir: string | undefined;
/** The directory holding `pulumi`, found or built by scripts/ensure-pulumi.sh (instant once cached). */
export function pulumiBinDir(): string {
  if (!binDir) {
    const out = runSync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi.sh")], {
      timeoutMs: TIMEOUTS.build,
      stderr: "inherit",
    });
    binDir = out.trim().split("\n").pop()!;
  }
  return binDir;
}

export interface TestStack {
  stack: Stack;
  /** The local backend directory: state lives under `.pulumi/` here. */
  stateDir: string;
  envVars: Record<string, string>;
  /**
   * Destroys what is left (unless `destroy: false`: the service goes away with the stack) and
   * removes the stack's backend, config file and temporary files.
   */
  dispose(opts?: { destroy?: boolean }): Promise<void>;
}

export interface TestStackOptions {
  /** A directory under tests/engine/programs, or an absolute path. */
  program: string;
  config?: ConfigMap;
  env?: Record<string, string>;
  /**
   * Runs the program and provider processes under the `node` on PATH (the machine's, the oldest
   * the package supports) instead of the engine tests' Node with its compile cache (engineNodeEnv()).
   */
  systemNode?: boolean;
  /** The stack's name (default: unique to this process). Programs' directories are shared: include the pid. */
  stackName?: string;
}

let counter = 0;

const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/automation/cmd.js"));
type Execa = (
  file: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string },
) => Promise<{ stdout: string; stderr: string; exitCode: number }> & {
  pid?: number;
  kill(signal: NodeJS.Signals): void;
  stdout?: NodeJS.ReadableStream;
  stderr?: NodeJS.ReadableStream;
};
const execa = pulumiRequire("execa") as Execa;
const { CommandResult } = pulumiRequire("./cmd.js") as {
  CommandResult: new (stdout: string, stderr: string, code: number, err?: Error) => unknown;
};
const { createCommandError } = pulumiRequire("./errors.js") as { createCommandError(r: unknown): Error };

/**
 * The Automation API's command, run as `PulumiCommand.run` runs it (same arguments, environment
 * and errors), registered so that what a test leaves running is cancelled (./processes.ts).
 * (`PulumiCommand`'s constructor is private: this is the base command with its `run` replaced.)
 */
function trackedPulumiCommand(base: PulumiCommand, stateDir: string): PulumiCommand {
  const command = Object.create(base) as PulumiCommand;
  const run = async (
    args: string[],
    cwd: string,
    additionalEnv: { [key: string]: string },
    onOutput?: (data: string) => void,
    onError?: (data: string) => void,
    signal?: AbortSignal,
  ) => {
    if (!args.includes("--non-interactive")) args.push("--non-interactive");
    const env: Record<string, string> = {
      ...additionalEnv,
      PATH: path.dirname(base.command) + path.delimiter + (additionalEnv["PATH"] || process.env.PATH),
      PULUMI_AUTOMATION_API: "true",
    };
    const proc = execa(base.command, args, { env, cwd });
    trackProcess(proc.pid!, ["pulumi", ...args], proc, stateDir);
    proc.stderr?.on("data", (d: Buffer) => onError?.(d.toString()));
    proc.stdout?.on("data", (d: Buffer) => onOutput?.(d.toString()));
    signal?.addEventListener("abort", () => proc.kill("SIGINT"));
    try {
      const { stdout, stderr, exitCode } = await proc;
      const result = new CommandResult(stdout, stderr, exitCode);
      if (exitCode !== 0) throw createCommandError(result);
      return result;
    } catch (err) {
      const error = err as Error;
      throw createCommandError(new CommandResult("", error.message, -2, error));
    }
  };
  return Object.assign(command, { run });
}

/**
 * Programs load the package by name, in the program and in the provider process, as they would
 * an installed copy; scripts/setup.sh links this checkout as node_modules/secretops-pulumi.
 */
function ensureSelfLink() {
  const link = path.join(repoRoot, "node_modules", "secretops-pulumi");
  if (!fs.existsSync(link)) fs.symlinkSync("..", link, "dir");
}

let nodeBinDir: string | undefined;
/**
 * The environment that puts the engine tests' `node` first on PATH (before `restOfPath`) with the
 * compile cache its processes share. Node >= 22.1 keeps the code V8 compiles for each module on
 * disk (NODE_COMPILE_CACHE): the 1,082 modules of @pulumi/pulumi and this package, which every
 * program and provider process loads, then cost about 40% less CPU to load (edges.test.ts alone
 * runs 17% faster, the whole of jest 5%: docs/development.md). A `node` of at least 22.1 on PATH
 * is used as is; otherwise scripts/ensure-node.sh installs one, once.
 * SECRETOPS_TEST_SYSTEM_NODE=1 keeps the `node` on PATH, without the compile cache (to compare,
 * or to run everything on another Node that meets `engines.node`).
 */
export function engineNodeEnv(restOfPath = process.env.PATH ?? ""): { PATH: string; NODE_COMPILE_CACHE?: string } {
  if (process.env.SECRETOPS_TEST_SYSTEM_NODE) return { PATH: restOfPath };
  if (!nodeBinDir) {
    const out = runSync("bash", [path.join(repoRoot, "scripts", "ensure-node.sh")], {
      timeoutMs: TIMEOUTS.build,
      stderr: "inherit",
    });
    nodeBinDir = out.trim().split("\n").pop()!;
  }
  return {
    PATH: [nodeBinDir, restOfPath].join(path.delimiter),
    NODE_COMPILE_CACHE: path.join(os.tmpdir(), "secretops-engine-compile-cache"),
  };
}

let basePulumi: Promise<PulumiCommand> | undefined;
/** `PulumiCommand.get` runs `pulumi version` (a second of CPU on a busy machine): once per process. */
function basePulumiCommand(root: string): Promise<PulumiCommand> {
  basePulumi ??= PulumiCommand.get({ root });
  return basePulumi;
}

export async function createTestStack(opts: TestStackOptions): Promise<TestStack> {
  const workDir = path.isAbsolute(opts.program) ? opts.program : path.join(programsDir, opts.program);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-engine-"));
  ensureSelfLink();

  const bin = pulumiBinDir();
  const pulumiCommand = trackedPulumiCommand(await basePulumiCommand(path.dirname(bin)), stateDir);
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "engine-test-passphrase",
    PULUMI_HOME: path.join(stateDir, ".pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // TypeScript programs (the examples, generated imports) are type-checked once, by
    // `tsc -p tsconfig.json`, which includes them; each engine run only transpiles them. Type-checking
    // a program against this package's types cost ts-node ~6 CPU-seconds on every preview and up.
    // SECRETOPS_TEST_TYPECHECK_PROGRAMS=1 type-checks on every run again, as a plain `pulumi up` does.
    PULUMI_NODEJS_TRANSPILE_ONLY: process.env.SECRETOPS_TEST_TYPECHECK_PROGRAMS ? "false" : "true",
    ...opts.env,
  };
  if (!opts.systemNode) Object.assign(envVars, engineNodeEnv(opts.env?.PATH));
  const stackName = opts.stackName ?? `t${process.pid}x${++counter}`;
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    { pulumiCommand, envVars, secretsProvider: "passphrase" },
  );
  if (opts.config) await stack.setAllConfig(opts.config);
  readResultsFromBackend(stack, stateDir);

  return {
    stack,
    stateDir,
    envVars,
    async dispose({ destroy = true } = {}) {
      // The backend directory goes as a whole: no `pulumi stack rm` needed.
      try {
        if (destroy) await stack.destroy();
      } finally {
        fs.rmSync(path.join(workDir, `Pulumi.${stackName}.yaml`), { force: true });
        fs.rmSync(stateDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * After every up, refresh and destroy the Automation API runs `pulumi stack history` and, after an
 * up, `pulumi stack output` twice: three more CLI processes, each decrypting the stack's secrets
 * with the passphrase (about a second of CPU in all, per operation). The harness reads the same
 * answers from the local backend's files instead (`.pulumi/history/…/*.history.json` and the
 * checkpoint's stack outputs), falling back to the CLI for an output holding a secret (encrypted
 * in the file). `tests/engine/trivial.test.ts` checks both readers against the CLI's answers.
 */
function readResultsFromBackend(stack: Stack, stateDir: string) {
  const [info, outputs] = [stack.info.bind(stack), stack.outputs.bind(stack)];
  const fromCli = { info: () => info(true), outputs };
  Object.assign(stack, {
    async info(): Promise<UpdateSummary | undefined> {
      return latestUpdate(stateDir, stack.name) ?? fromCli.info();
    },
    async outputs(): Promise<OutputMap> {
      const outputs = stackOutputs(stateDir, stack.name);
      return outputs ?? fromCli.outputs();
    },
    fromCli,
  });
}

/** The CLI's own answers, for the test that compares them with the files'. */
export const cliResults = (stack: Stack) =>
  (stack as unknown as { fromCli: { info(): Promise<UpdateSummary | undefined>; outputs(): Promise<OutputMap> } })
    .fromCli;

/** The files under the backend's `stacks` or `history` directory whose name `named` accepts. */
function backendFiles(stateDir: string, kind: "stacks" | "history", named: (name: string) => boolean): string[] {
  const dir = path.join(stateDir, ".pulumi", kind);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => named(path.basename(f)))
    .map((f) => path.join(dir, f));
}

/** The newest entry of `pulumi stack history` (the local backend's `apitype.UpdateInfo`). */
function latestUpdate(stateDir: string, stackName: string): UpdateSummary | undefined {
  const pattern = new RegExp(`^${stackName}-\\d+\\.history\\.json$`);
  const files = backendFiles(stateDir, "history", (name) => pattern.test(name));
  if (files.length === 0) return undefined;
  // Named `<stack>-<unix nanoseconds>.history.json`: the newest sorts last by number.
  const stamp = (f: string) => BigInt(path.basename(f).slice(stackName.length + 1, -".history.json".length));
  files.sort((a, b) => (stamp(a) < stamp(b) ? -1 : stamp(a) > stamp(b) ? 1 : 0));
  const info = JSON.parse(fs.readFileSync(files[files.length - 1]!, "utf8"));
  return {
    version: files.length,
    kind: info.kind,
    startTime: new Date(info.startTime * 1000),
    endTime: new Date(info.endTime * 1000),
    message: info.message,
    environment: info.environment ?? {},
    config: {},
    result: info.result,
    resourceChanges: info.resourceChanges,
  };
}

interface StoredResource {
  urn: string;
  type: string;
  outputs?: Record<string, unknown>;
}

/** The resources of the stack's checkpoint (`.pulumi/stacks/<project>/<stack>.json`), if it has one. */
function checkpointResources(stateDir: string, stackName: string): StoredResource[] | undefined {
  const [file] = backendFiles(stateDir, "stacks", (name) => name === `${stackName}.json`);
  if (!file) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")).checkpoint?.latest?.resources ?? [];
}

/** The key marking a special value in state (`sig.Key` in the engine's resource package). */
const SIGNATURE = "4dabf18193072939515e22adb298388d";

/** The stack's outputs from its checkpoint, or undefined when one is a special value (or there is no checkpoint). */
function stackOutputs(stateDir: string, stackName: string): OutputMap | undefined {
  const resources = checkpointResources(stateDir, stackName);
  if (!resources) return undefined;
  const root = resources.find((r) => r.type === "pulumi:pulumi:Stack");
  // A secret, asset or resource reference is a value with a signature key: the CLI decodes those.
  if (JSON.stringify(root?.outputs ?? {}).includes(`"${SIGNATURE}"`)) return undefined;
  return Object.fromEntries(Object.entries(root?.outputs ?? {}).map(([k, value]) => [k, { value, secret: false }]));
}

/** The URNs of the resources the stack manages (the stack itself and providers aside), from its checkpoint. */
export function managedResources(t: TestStack): string[] {
  return (checkpointResources(t.stateDir, t.stack.name) ?? [])
    .filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.type.startsWith("pulumi:providers:"))
    .map((r) => r.urn);
}

/** The number of resources of each change kind a preview or up reported, minus the stack itself. */
export function changeCounts(summary: Record<string, number | undefined> | undefined) {
  const s = summary ?? {};
  return {
    create: s.create ?? 0,
    update: s.update ?? 0,
    replace: s.replace ?? 0,
    delete: s.delete ?? 0,
    same: s.same ?? 0,
  };
}

/** The stack's state file as stored by the local backend. */
export function storedState(t: TestStack): string {
  const stacksDir = path.join(t.stateDir, ".pulumi", "stacks");
  const files = fs.readdirSync(stacksDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"));
  return files.map((f) => fs.readFileSync(path.join(stacksDir, f), "utf8")).join("\n");
}

/** `pulumi stack export` as a user runs it: secrets stay encrypted. */
export async function cliStackExport(t: TestStack): Promise<string> {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const { stdout } = await promisify(execFile)(
    path.join(pulumiBinDir(), "pulumi"),
    ["stack", "export", "--stack", t.stack.name],
    {
      cwd: t.stack.workspace.workDir,
      env: { ...process.env, ...t.envVars },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 5 * 60_000,
    },
  );
  return stdout;
}
