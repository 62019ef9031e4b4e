/**
 * The native provider against the dynamic path (issue 30), a part of `npm run bench` and runnable
 * alone (`npm run bench:native`). For 100 and 300 secret syncs with the same args
 * (`BENCH_NATIVE_SIZES`), four stacks side by side, operation by operation: the package's
 * `SecretSync` (dynamic provider), the same syncs served by `pulumi-resource-secretops`, and each
 * path's floor, resources whose provider does nothing (a no-op dynamic provider; a no-op plugin
 * served by `@pulumi/pulumi/provider`, scripts/bench-native-program/). One JavaScript program
 * registers all four (scripts/bench-native-program/index.js), so the rows compare providers.
 * `up`, a no-change `preview`, `refresh` and `destroy`, each the median of `BENCH_REPEAT` cycles,
 * and the state bytes per resource from `pulumi stack export`. The emulator runs without rate
 * limits, the clients' caps raised, `waitForSync: false`, the duplicate-destination check on.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../emulator";
import {
  type BenchStack,
  benchStack,
  binDir,
  exportedResources,
  median,
  repoRoot,
  timedOperation,
} from "./bench-stack";
import { installPacked } from "./packed-install";

const SIZES = (process.env.BENCH_NATIVE_SIZES ?? "100,300").split(",").map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const say = (s: string) => process.stderr.write(`[bench native] ${s}\n`);

export const NATIVE_KINDS = ["dynamic", "native", "dynamicNoop", "nativeNoop"] as const;
type Kind = (typeof NATIVE_KINDS)[number];
export const NATIVE_OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
type Operation = (typeof NATIVE_OPERATIONS)[number];

export interface NativeSizeResult {
  resources: number;
  /** Median wall time of each operation, by stack kind. */
  ms: Record<Operation, Record<Kind, number>>;
  /** Mean bytes of one resource in `pulumi stack export`, by stack kind. */
  stateBytes: Record<Kind, number>;
}

/** A program directory with the package installed from `npm pack`, and a bin directory with both plugins. */
function programDir(): { dir: string; bin: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-bench-native-"));
  say("packing the package and installing it in a program directory");
  installPacked(repoRoot, dir);
  const from = path.join(repoRoot, "scripts/bench-native-program");
  fs.copyFileSync(path.join(from, "index.js"), path.join(dir, "index.js"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: bench-native\nruntime: nodejs\nmain: index.js\n");
  // npm links the package's plugin into node_modules/.bin; the no-op plugin goes beside it.
  const bin = path.join(dir, "node_modules", ".bin");
  fs.copyFileSync(path.join(from, "pulumi-resource-benchnoop"), path.join(bin, "pulumi-resource-benchnoop"));
  fs.chmodSync(path.join(bin, "pulumi-resource-benchnoop"), 0o755);
  if (!fs.existsSync(path.join(bin, "pulumi-resource-secretops")))
    throw new Error("the packed package put no pulumi-resource-secretops in node_modules/.bin");
  return { dir, bin };
}

/** A stack of the program with both plugins on PATH. */
function nativeStack(workDir: string, pluginBin: string, config: Record<string, string>): Promise<BenchStack> {
  return benchStack(workDir, config, { PATH: [binDir(), pluginBin, process.env.PATH].join(path.delimiter) });
}

/** Mean bytes per resource of the stack's own resources (not the stack or the provider) in `pulumi stack export`. */
function stateBytes(b: BenchStack): number {
  const resources = exportedResources(b).filter(
    (r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"),
  );
  const bytes = resources.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)), 0);
  return Math.round(bytes / Math.max(1, resources.length));
}

async function benchSize(program: { dir: string; bin: string }, count: number): Promise<NativeSizeResult> {
  const emu = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 20 });
  try {
    const target = {
      projectId: emu.summary.projects[0]!.id,
      connectionId: emu.summary.connections.find((c) => c.app === "vercel")!.id,
    };
    const stacks = {} as Record<Kind, BenchStack>;
    for (const kind of NATIVE_KINDS)
      stacks[kind] = await nativeStack(program.dir, program.bin, {
        "bench:kind": kind,
        "bench:count": String(count),
        "bench:target": JSON.stringify(target),
        "secretops:apiUrl": emu.url,
        "secretops:token": emu.token,
        "secretops:readsPerMinute": "100000",
        "secretops:writesPerMinute": "100000",
      });
    const samples = Object.fromEntries(
      NATIVE_OPERATIONS.map((op) => [op, Object.fromEntries(NATIVE_KINDS.map((k) => [k, [] as number[]]))]),
    ) as Record<Operation, Record<Kind, number[]>>;
    const state = {} as Record<Kind, number>;
    for (let cycle = 1; cycle <= REPEAT; cycle++) {
      // Operation by operation, the four stacks one after the other: what loads the machine loads all four.
      for (const op of NATIVE_OPERATIONS) {
        for (const kind of NATIVE_KINDS) {
          samples[op][kind].push(await timedOperation(stacks[kind], op));
          if (op === "up" && cycle === 1) state[kind] = stateBytes(stacks[kind]);
        }
        say(
          `${count} resources, cycle ${cycle}: ${op} ${NATIVE_KINDS.map((k) => `${k} ${samples[op][k].at(-1)} ms`).join(", ")}`,
        );
      }
    }
    for (const b of Object.values(stacks)) await b.stack.workspace.removeStack(b.stack.name);
    const ms = Object.fromEntries(
      NATIVE_OPERATIONS.map((op) => [op, Object.fromEntries(NATIVE_KINDS.map((k) => [k, median(samples[op][k])]))]),
    ) as Record<Operation, Record<Kind, number>>;
    return { resources: count, ms, stateBytes: state };
  } finally {
    await emu.stop();
  }
}

/** The native rows at every size. */
export async function benchNative(): Promise<NativeSizeResult[]> {
  const program = programDir();
  try {
    const out: NativeSizeResult[] = [];
    for (const n of SIZES) out.push(await benchSize(program, n));
    return out;
  } finally {
    fs.rmSync(program.dir, { recursive: true, force: true });
  }
}

const ratio = (a: number, b: number) => (a / b).toFixed(2);

/** The section of docs/benchmarks.md. */
export function nativeMarkdown(rows: NativeSizeResult[], repeat = REPEAT): string {
  const lines = [
    "## The native provider against the dynamic path",
    "",
    `The same N secret syncs (vercel, \`waitForSync: false\`, the duplicate-destination check on) from one JavaScript program: the package's \`SecretSync\` (dynamic), the same syncs as \`secretops:index:SecretSync\` served by \`pulumi-resource-secretops\` (native), and each path's floor, resources whose provider does nothing. Emulator without rate limits, median of ${repeat} cycles, the four stacks operation by operation. Goal (issue 30): native ≤ 0.8× dynamic on every operation at 300, and ≤ 2 KB of state per resource.`,
    "",
    "| Resources | Operation | Dynamic | Native | Native ÷ dynamic | Dynamic floor | Native floor | Dynamic ÷ its floor | Native ÷ its floor |",
    "| --: | --- | --: | --: | --: | --: | --: | --: | --: |",
  ];
  for (const r of rows) {
    for (const op of NATIVE_OPERATIONS) {
      const m = r.ms[op];
      lines.push(
        `| ${r.resources} | ${op} | ${m.dynamic} ms | ${m.native} ms | ${ratio(m.native, m.dynamic)}× | ${m.dynamicNoop} ms | ${m.nativeNoop} ms | ${ratio(m.dynamic, m.dynamicNoop)}× | ${ratio(m.native, m.nativeNoop)}× |`,
      );
    }
    const s = r.stateBytes;
    lines.push(
      `| ${r.resources} | state per resource | ${s.dynamic} B | ${s.native} B | ${ratio(s.native, s.dynamic)}× | ${s.dynamicNoop} B | ${s.nativeNoop} B | | |`,
    );
  }
  return lines.join("\n") + "\n";
}

if (require.main === module) {
  benchNative()
    .then((rows) => {
      process.stdout.write(nativeMarkdown(rows));
      process.stdout.write(JSON.stringify(rows) + "\n");
    })
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    });
}
