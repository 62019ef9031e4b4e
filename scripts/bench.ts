/**
 * `npm run bench`: the engine benchmark. Not a test: it measures, writes docs/benchmarks.md and
 * prints one JSON line. Everything runs on this machine against the emulator on 127.0.0.1.
 *
 *   1. Wall time of up, a no-change preview, preview and up of a change to 10% of the resources,
 *      refresh and destroy, for 200 and 1,000 secret syncs with the options a user gets by default
 *      (the duplicate-destination check on; `waitForSync: false`), the rate limiter off, each beside
 *      the same stack made of no-op dynamic resources with the same args (the engine's own floor),
 *      operation by operation; for a JavaScript program and a TypeScript one (BENCH_PROGRAMS),
 *      which the engine type-checks on every run, each beside a floor in its language.
 *      Then the time from the start of an `up` of a change to 10 of 100 syncs to its first call,
 *      beside the floor's (scripts/bench-first-call.ts).
 *   2. API calls per operation, from the emulator's request log.
 *   3. State bytes per resource and `__provider` bytes, from `pulumi stack export`; the type-check of
 *      the quickstart and of 200 syncs (`tsc --extendedDiagnostics`) against one of `@pulumi/pulumi` alone.
 *   (1 to 3 use the package installed from `npm pack` in a program directory of its own.)
 *   4. `up` of 200 syncs with the emulator enforcing the service's default limits (time-compressed:
 *      a 15 s window) and then a raised limit it advertises, as a fraction of the minimum those
 *      limits allow (the slower of the pacing floor and the same `up` without limits).
 *   5. At the service's real limits (60 reads and 200 writes per window, the window compressed, the
 *      budget per window unchanged): a platform team's stack of 200 and 1,000 resources (half syncs
 *      with the default options, a quarter rotations, a quarter profiles), the calls of each
 *      operation and its wall time beside the least time the limits allow and the engine's floor.
 *   5. Peak memory iterating 10,000 and 100,000 audit entries through the SDK (a child process each).
 *   6. The emulator's own throughput (scripts/bench-emulator.ts).
 *   7. The native provider against the dynamic path and each one's floor, at 100 and 300 syncs
 *      (scripts/bench-native.ts; BENCH_NATIVE_SIZES).
 *   8. Beside the vendor's Terraform provider: the five operations a user compares on 100 and 300
 *      azure-key-vault syncs at the service's default limits, with universal auth
 *      (scripts/bench-vendor.ts; BENCH_VENDOR_SIZES).
 *
 * The floor is scripts/bench-floor: no-op dynamic resources registered and served as the package
 * serves its own (a short `require` of a runtime module in `__provider`).
 *
 * BENCH_SIZES=200,1000 changes the stack sizes, BENCH_REPEAT=3 the cycles whose medians count (the
 * machines are shared and noisy; within a cycle, the operations that leave the state as they found
 * it run BENCH_SAMPLES=3 times each, alternating with the floor, since one sample of a 4 s
 * `refresh` moves by ±15 % from run to run), BENCH_REAL_SIZES=200,1000 the sizes of part 5;
 * BENCH_SKIP=engine,firstcall,typecheck,ratelimit,reallimits,audit,emulator,native,vendor skips parts;
 * docs/benchmarks.md then keeps the sections it had for them, each under a line saying so.
 * `npm run bench -- --render <saved stdout>` writes docs/benchmarks.md again from a run's output.
 */
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, type RequestLogEntry, startEmulator } from "../emulator";
import { SecretOpsClient } from "../sdk";
import { benchNative, nativeMarkdown, type NativeSizeResult } from "./bench-native";
import { benchVendor, vendorMarkdown, type VendorResult } from "./bench-vendor";
import {
  benchFirstCallVariant,
  firstCallProgram,
  type FirstCallVariant,
  type FirstCallVariantResult,
} from "./bench-first-call";
import {
  type BenchStack,
  benchStack,
  callCounts,
  exportedResources,
  median,
  repoRoot,
  timed,
  timedOperation,
} from "./bench-stack";
import { installPacked } from "./packed-install";
import { typeCheckPrograms } from "./type-check-programs";
import { TIMEOUTS, runSync } from "./run-sync";

const SIZES = (process.env.BENCH_SIZES ?? "200,1000").split(",").map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3);
const REAL_SIZES = (process.env.BENCH_REAL_SIZES ?? "200,1000").split(",").map(Number);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const WINDOW_FACTOR = 0.25; // the emulator's 60 s rate-limit window compressed to 15 s
const say = (s: string) => process.stderr.write(`[bench] ${s}\n`);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
const requests = async (emu: Emulator) =>
  (await new EmulatorAdmin(emu.url).requests()).filter((r) => r.path.startsWith("/api/"));
const clearRequests = (emu: Emulator) => new EmulatorAdmin(emu.url).clearRequests();

/** The stack config of `count` syncs to the emulator's first project through its Vercel connection (none changed). */
function syncsConfig(emu: Emulator, count: number): Record<string, string> {
  const target = {
    projectId: emu.summary.projects[0]!.id,
    connectionId: emu.summary.connections.find((c) => c.app === "vercel")!.id,
  };
  return {
    "bench:count": String(count),
    "bench:target": JSON.stringify(target),
    "bench:changed": "0",
  };
}
/** Ours at the emulator: its endpoint and token, and (`uncapped`) the client's caps raised, for an emulator enforcing none. */
function secretopsConfig(emu: Emulator, uncapped: boolean): Record<string, string> {
  return {
    "bench:kind": "secretops",
    "secretops:apiUrl": emu.url,
    "secretops:token": emu.token,
    ...(uncapped && { "secretops:readsPerMinute": "1000000", "secretops:writesPerMinute": "1000000" }),
  };
}

const bucketTimes = (rs: RequestLogEntry[], bucket: "read" | "write") =>
  rs.filter((r) => r.bucket === bucket).map((r) => Date.parse(r.at));

/** The bench's programs: JavaScript (scripts/bench-program) and TypeScript (scripts/bench-program-ts), as users write them. */
type Language = "javascript" | "typescript";
const LANGUAGES = (process.env.BENCH_PROGRAMS ?? "javascript,typescript").split(",") as Language[];
const PROGRAM_FILES: Record<Language, { dir: string; files: string[] }> = {
  javascript: { dir: "scripts/bench-program", files: ["Pulumi.yaml", "index.js"] },
  typescript: {
    dir: "scripts/bench-program-ts",
    files: ["Pulumi.yaml", "index.ts", "tsconfig.json", "floor/Pulumi.yaml", "floor/index.ts", "floor/tsconfig.json"],
  },
};
/** The TypeScript and `@types/node` this checkout uses: what a TypeScript program installs beside the package. */
const typescriptDevDependencies = () => {
  const dev = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).devDependencies;
  return { typescript: dev.typescript as string, "@types/node": dev["@types/node"] as string };
};

/** A user's program directory with the package installed from `npm pack`. */
function userProgram(language: Language = "javascript"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-bench-"));
  say(`packing the package and installing it in a ${language} program directory`);
  installPacked(repoRoot, dir, language === "typescript" ? { devDependencies: typescriptDevDependencies() } : {});
  const { dir: from, files } = PROGRAM_FILES[language];
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, from, f), path.join(dir, f));
  }
  // The floor's module, beside the package as a dependency of the program would be.
  fs.cpSync(path.join(repoRoot, "scripts/bench-floor"), path.join(dir, "node_modules/secretops-bench-floor"), {
    recursive: true,
  });
  return dir;
}
/** The directory of a program's floor: the TypeScript one is a program of its own, without the package. */
const floorDir = (workDir: string, language: Language) =>
  language === "typescript" ? path.join(workDir, "floor") : workDir;

function exportState(b: BenchStack): { perResource: number; provider: number; resources: number } {
  const resources = exportedResources(b).filter((r) => String(r.type).startsWith("pulumi-nodejs:dynamic"));
  const bytes = resources.map((r) => Buffer.byteLength(JSON.stringify(r)));
  const provider = resources.map(
    (r) =>
      Buffer.byteLength(String((r.inputs as Record<string, unknown>)?.__provider ?? "")) +
      Buffer.byteLength(String((r.outputs as Record<string, unknown>)?.__provider ?? "")),
  );
  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
  return { perResource: avg(bytes), provider: avg(provider), resources: resources.length };
}

const OPERATIONS = ["up", "preview", "upNoChange", "previewChange", "upChange", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];
/**
 * The operations also run on the floor whose creates answer the outputs a sync's object adds to
 * its args (scripts/bench-floor/runtime.js): the engine writes the whole state at every step, so
 * these cost in proportion to every resource's state, and this floor shows how much of the
 * package's time is the engine carrying the service's outputs.
 */
const SERVED_OPERATIONS: readonly Operation[] = ["up", "destroy"];
const SERVED_FLOOR_ENV = { SECRETOPS_BENCH_FLOOR_OUTPUTS: "service" };
/** The operations that change the state run once a cycle; the others (previews, a no-change `up`, refresh) SAMPLES times. */
const CHANGES_STATE: readonly string[] = ["up", "upChange", "destroy"];
const samplesOf = (op: string) => (CHANGES_STATE.includes(op) ? 1 : SAMPLES);

async function runOperation(b: BenchStack, op: Operation, count: number): Promise<number> {
  const changed = async (n: number) => b.stack.setConfig("bench:changed", { value: String(n) });
  switch (op) {
    case "up":
      await changed(0);
      return timed(() => b.stack.up());
    case "preview":
      return timed(() => b.stack.preview());
    case "upNoChange":
      return timed(() => b.stack.up());
    case "previewChange":
      await changed(Math.round(count / 10));
      return timed(() => b.stack.preview());
    case "upChange":
      return timed(() => b.stack.up());
    case "refresh":
      return timed(() => b.stack.refresh());
    case "destroy":
      return timed(() => b.stack.destroy());
  }
}

interface SizeResult {
  /** The program's language (absent: JavaScript, older runs). */
  program?: Language;
  resources: number;
  operations: Record<
    Operation,
    {
      secretopsMs: number;
      floorMs: number;
      ratio: number;
      reads: number;
      checks: number;
      writes: number;
      /** `up` and `destroy`: the floor whose creates answer the service's outputs too (SERVED_OPERATIONS). */
      servedFloorMs?: number;
      servedRatio?: number;
    }
  >;
  state: { perResource: number; provider: number; floorPerResource: number };
}

async function benchSize(workDir: string, emu: Emulator, count: number, program: Language): Promise<SizeResult> {
  const common = syncsConfig(emu, count);
  // The options a user gets by default: the duplicate-destination check on (one check-destination
  // per create, and a round of the project's list after it). The rate limiter off: the emulator
  // enforces none and the client's caps are raised.
  const ours = await benchStack(workDir, { ...common, ...secretopsConfig(emu, true) });
  const floor = await benchStack(floorDir(workDir, program), { ...common, "bench:kind": "noop" });
  const served = await benchStack(floorDir(workDir, program), { ...common, "bench:kind": "noop" }, SERVED_FLOOR_ENV);
  // Every cycle runs each operation on ours, then on the floor (those that leave the state as it
  // was, SAMPLES times, alternating); the medians of all samples count.
  const samples = new Map<
    Operation,
    { ours: number[]; floor: number[]; served: number[]; calls: ReturnType<typeof callCounts> }
  >();
  let state = { perResource: 0, provider: 0, floorPerResource: 0 };
  for (let cycle = 0; cycle < REPEAT; cycle++) {
    for (const op of OPERATIONS) {
      for (let sample = 0; sample < samplesOf(op); sample++) {
        await clearRequests(emu);
        const oursMs = await runOperation(ours, op, count);
        const calls = callCounts(await requests(emu));
        const floorMs = await runOperation(floor, op, count);
        const servedMs = SERVED_OPERATIONS.includes(op) ? await runOperation(served, op, count) : undefined;
        const s = samples.get(op) ?? { ours: [], floor: [], served: [], calls };
        s.ours.push(oursMs);
        s.floor.push(floorMs);
        if (servedMs !== undefined) s.served.push(servedMs);
        samples.set(op, s);
        say(
          `${program} ${count} ${op} (cycle ${cycle + 1}${samplesOf(op) > 1 ? `, sample ${sample + 1}` : ""}): ${oursMs} ms vs floor ${floorMs} ms${servedMs === undefined ? "" : ` (with the service's outputs ${servedMs} ms)`}, ${calls.reads} reads, ${calls.writes} writes`,
        );
      }
      if (op === "up" && cycle === 0) {
        const st = exportState(ours);
        state = {
          perResource: st.perResource,
          provider: st.provider,
          floorPerResource: exportState(floor).perResource,
        };
      }
    }
  }
  const operations = {} as SizeResult["operations"];
  for (const op of OPERATIONS) {
    const s = samples.get(op)!;
    const secretopsMs = median(s.ours);
    const floorMs = median(s.floor);
    const ratio = (ms: number) => Math.round((secretopsMs / ms) * 100) / 100;
    const servedFloorMs = s.served.length ? median(s.served) : undefined;
    operations[op] = {
      secretopsMs,
      floorMs,
      ratio: ratio(floorMs),
      ...s.calls,
      ...(servedFloorMs !== undefined && { servedFloorMs, servedRatio: ratio(servedFloorMs) }),
    };
  }
  for (const b of [ours, floor, served]) await b.stack.workspace.removeStack(b.stack.name);
  return { program, resources: count, operations, state };
}

interface TypeCheckResult {
  program: string;
  /** `tsc --noEmit --extendedDiagnostics` of the program in the TypeScript program directory: medians of 3. */
  types: number;
  instantiations: number;
  checkMs: number;
  totalMs: number;
}

/**
 * What a TypeScript program's type-check costs with the package, as a user's `tsc` (and the
 * engine's ts-node) runs it on every `pulumi` command: the quickstart, 200 syncs to ten
 * destinations, and a program of `@pulumi/pulumi` alone, each checked 3 times by the TypeScript
 * installed beside the package (the checkout's version), in the TypeScript program directory.
 */
function benchTypeCheck(workDir: string): TypeCheckResult[] {
  const tsc = path.join(workDir, "node_modules", "typescript", "bin", "tsc");
  const programs = typeCheckPrograms(repoRoot);
  const names = {
    baseline: "@pulumi/pulumi alone",
    quickstart: "the quickstart",
    syncs: "200 syncs to ten destinations",
  };
  return (["baseline", "quickstart", "syncs"] as const).map((key) => {
    const dir = path.join(workDir, "typecheck", key);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "index.ts"), programs[key]);
    fs.copyFileSync(path.join(workDir, "tsconfig.json"), path.join(dir, "tsconfig.json"));
    const runs = [0, 1, 2].map(() => {
      const out = runSync("node", [tsc, "-p", dir, "--extendedDiagnostics"], { timeoutMs: TIMEOUTS.quick });
      const figure = (label: string) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(out)![1]);
      return {
        types: figure("Types"),
        instantiations: figure("Instantiations"),
        checkMs: Math.round(figure("Check time") * 1000),
        totalMs: Math.round(figure("Total time") * 1000),
      };
    });
    const result = {
      program: names[key],
      types: runs[0]!.types,
      instantiations: runs[0]!.instantiations,
      checkMs: median(runs.map((r) => r.checkMs)),
      totalMs: median(runs.map((r) => r.totalMs)),
    };
    say(`type-check of ${result.program}: ${JSON.stringify(result)}`);
    return result;
  });
}

/**
 * The lead before an `up`'s first call (scripts/bench-first-call.ts), beside the floor's: the
 * bench's own conditions (vercel, a static token, no limits), the conditions of issue 49
 * (azure-key-vault, universal auth, the service's default limits), and those again as a user types
 * `pulumi up --yes`, its preview first.
 */
const FIRST_CALL_VARIANTS: { variant: FirstCallVariant; preview: boolean }[] = [
  { variant: { destination: "vercel", auth: "token", limits: false }, preview: false },
  { variant: { destination: "azure-key-vault", auth: "universal-auth", limits: true }, preview: false },
  { variant: { destination: "azure-key-vault", auth: "universal-auth", limits: true }, preview: true },
];

async function benchFirstCalls(): Promise<FirstCallVariantResult[]> {
  const dir = firstCallProgram();
  try {
    return await sequence(
      FIRST_CALL_VARIANTS.map(({ variant, preview }) => async () => {
        const r = await benchFirstCallVariant(dir, variant, { preview });
        say(`first call: ${JSON.stringify(r)}`);
        return r;
      }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface RateLimitResult {
  limits: { read: number; write: number; windowMs: number };
  reads: number;
  writes: number;
  rateLimited: number;
  /** The binding bucket: its requests need `windows` more windows after the first. */
  bucket: "read" | "write";
  /**
   * The earliest the bucket's last request may arrive after its first: k windows, then the rest
   * at the pace the program asks for them without limits.
   */
  pacingFloorMs: number;
  /** When its last request did arrive, after its first (the emulator's request log). */
  pacedMs: number;
  unlimitedMs: number;
  achievedMs: number;
  /** pacingFloorMs / pacedMs: how much of the advertised ceiling the client used. */
  fraction: number;
}

/**
 * `up` of 200 syncs (defaults: the duplicate check on) against enforced limits the client learns
 * from the headers. A bucket of n requests over a limit L can send its last request no earlier than
 * k = ceil(n / L) - 1 windows after its first, plus the time its last n - kL requests take at the
 * pace the program asks for them unthrottled; the fraction is that minimum over the span the client
 * took, both read from the emulator's request log.
 */
async function benchRateLimits(workDir: string): Promise<RateLimitResult[]> {
  const count = 200;
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 20 });
  const admin = new EmulatorAdmin(emu.url);
  try {
    const stack = await benchStack(workDir, { ...syncsConfig(emu, count), ...secretopsConfig(emu, false) });
    // The same `up` with no limits: what the engine and the provider take on their own. (The
    // emulator advertises nothing then, so the client's caps are raised for this run alone.)
    const caps = ["secretops:readsPerMinute", "secretops:writesPerMinute"];
    for (const k of caps) await stack.stack.setConfig(k, { value: "1000000" });
    await clearRequests(emu);
    const unlimitedMs = await timed(() => stack.stack.up());
    const unlimited = await requests(emu);
    await stack.stack.destroy();
    for (const k of caps) await stack.stack.removeConfig(k);
    const results: RateLimitResult[] = [];
    for (const limits of [
      { read: 60, write: 200 },
      { read: 120, write: 400 },
    ]) {
      const windowMs = 60_000 * WINDOW_FACTOR;
      await admin.setRateLimits({ ...limits, timeFactor: WINDOW_FACTOR });
      await clearRequests(emu);
      const achievedMs = await timed(() => stack.stack.up());
      const served = await requests(emu);
      const calls = callCounts(served);
      const binding = (["read", "write"] as const)
        .map((bucket) => {
          const times = bucketTimes(served, bucket);
          const windows = Math.ceil(times.length / limits[bucket]) - 1;
          // The program asks no faster than it does without limits: after the last wait, the
          // bucket's remaining requests take as long as they take unthrottled.
          const free = bucketTimes(unlimited, bucket);
          const perRequestMs = free.length > 1 ? (Math.max(...free) - Math.min(...free)) / free.length : 0;
          const rest = Math.max(0, times.length - windows * limits[bucket]);
          return {
            bucket,
            windows,
            minimumMs: Math.round(windows * windowMs + rest * perRequestMs),
            pacedMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
          };
        })
        .sort((a, b) => b.windows - a.windows)[0]!;
      const pacingFloorMs = binding.minimumMs;
      results.push({
        limits: { ...limits, windowMs },
        ...calls,
        bucket: binding.bucket,
        pacingFloorMs,
        pacedMs: binding.pacedMs,
        unlimitedMs,
        achievedMs,
        fraction: binding.pacedMs ? Math.min(1, Math.round((pacingFloorMs / binding.pacedMs) * 100) / 100) : 1,
      });
      say(
        `rate limits ${limits.read}/${limits.write} per ${windowMs} ms: up ${achievedMs} ms; ${binding.bucket}s paced over ${binding.pacedMs} ms (minimum ${pacingFloorMs} ms); ${calls.rateLimited} answered 429`,
      );
      await admin.setRateLimits({ enabled: false });
      await stack.stack.destroy();
    }
    await stack.stack.workspace.removeStack(stack.stack.name);
    return results;
  } finally {
    await emu.stop();
  }
}

const REAL_OPERATIONS = ["up", "preview", "refresh", "previewRefresh", "destroy"] as const;
type RealOperation = (typeof REAL_OPERATIONS)[number];

interface RealLimitResult {
  resources: number;
  limits: { read: number; write: number; windowMs: number };
  operations: Record<
    RealOperation,
    {
      ms: number;
      reads: number;
      writes: number;
      rateLimited: number;
      /** The least time the calls take at the limits (`atTheLimits`). */
      limitsMs: number;
      /** The same operation on as many no-op resources: the engine's own time. */
      floorMs: number;
      /** ms / max(limitsMs, floorMs) */
      ratio: number;
    }
  >;
}

/**
 * A platform team's stack at the service's default limits, the client pacing by what the emulator
 * advertises (no caps): every operation's calls, and its time beside the least the limits allow
 * for those calls and beside the engine's floor for as many resources.
 */
async function benchRealLimits(workDir: string): Promise<RealLimitResult[]> {
  const limits = { read: 60, write: 200, windowMs: 60_000 * WINDOW_FACTOR };
  const results: RealLimitResult[] = [];
  for (const count of REAL_SIZES) {
    const emu = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 20 });
    try {
      const f = emu.summary;
      const project = f.projects[0]!;
      const target = {
        projectId: project.id,
        connectionId: f.connections.find((c) => c.app === "vercel" && !c.projectId)!.id,
        postgresConnectionId: f.connections.find((c) => c.app === "postgres" && !c.projectId)!.id,
        // Profiles live in a cert-manager project: the fixture's, with its CA and policy.
        pkiProjectId: f.certificatePolicies[0]!.projectId,
        certificatePolicyId: f.certificatePolicies[0]!.id,
        caId: f.certificateAuthorities.find((c) => c.projectId === f.certificatePolicies[0]!.projectId)!.id,
      };
      const common = { "bench:count": String(count), "bench:target": JSON.stringify(target) };
      const ours = await benchStack(workDir, {
        ...common,
        "bench:kind": "mixed",
        "secretops:apiUrl": emu.url,
        "secretops:token": emu.token,
      });
      const floor = await benchStack(workDir, { ...common, "bench:kind": "noop" });
      await new EmulatorAdmin(emu.url).setRateLimits({
        read: limits.read,
        write: limits.write,
        timeFactor: WINDOW_FACTOR,
      });
      const operations = {} as RealLimitResult["operations"];
      for (const op of REAL_OPERATIONS) {
        // Alternating with the floor, samplesOf(op) times; the calls are the first sample's.
        const times: { ms: number; floorMs: number; calls: ReturnType<typeof callCounts> }[] = [];
        for (let sample = 0; sample < samplesOf(op); sample++) {
          await clearRequests(emu);
          const ms = await timedOperation(ours, op);
          const calls = callCounts(await requests(emu));
          times.push({ ms, calls, floorMs: await timedOperation(floor, op) });
        }
        const ms = median(times.map((t) => t.ms));
        const floorMs = median(times.map((t) => t.floorMs));
        const counted = times[0]!.calls;
        operations[op] = atTheLimits({ ms, ...counted, floorMs }, limits);
        const { limitsMs, ratio } = operations[op];
        say(
          `real limits, ${count} ${op}: ${ms} ms, ${counted.reads} reads, ${counted.writes} writes, ${counted.rateLimited} answered 429; least ${limitsMs} ms at the limits, floor ${floorMs} ms: ${ratio}×`,
        );
      }
      for (const b of [ours, floor]) await b.stack.workspace.removeStack(b.stack.name);
      results.push({ resources: count, limits, operations });
    } finally {
      await emu.stop();
    }
  }
  return results;
}

/**
 * An operation's least time at the limits and its ratio: the calls spread evenly over the windows,
 * max(reads / read limit, writes / write limit) windows (the measure issue 20 states its figures
 * in). Calls that fit in one window's budget can take less, so a ratio below 1 is possible.
 */
function atTheLimits(
  o: Omit<RealLimitResult["operations"][RealOperation], "limitsMs" | "ratio">,
  limits: RealLimitResult["limits"],
): RealLimitResult["operations"][RealOperation] {
  const limitsMs = Math.round(Math.max(o.reads / limits.read, o.writes / limits.write) * limits.windowMs);
  return { ...o, limitsMs, ratio: Math.round((o.ms / Math.max(limitsMs, o.floorMs)) * 100) / 100 };
}

/** Child process: iterate `count` audit entries through the SDK and report the peak memory. */
async function auditChild(url: string, token: string, count: number): Promise<void> {
  const client = new SecretOpsClient({ baseUrl: url, token }, { rateLimit: false });
  let seen = 0;
  let peakHeap = 0;
  const startDate = new Date(Date.now() - 2 * 86_400_000).toISOString();
  // After each page, a full collection: what is measured is what the walk keeps, not how lazily
  // V8 gives garbage back.
  const gc = (globalThis as { gc?: () => void }).gc!;
  for await (const _entry of client.auditLogs.iterate({ startDate, limit: 1000 })) {
    if (++seen % 1000 === 0) {
      gc();
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
    if (seen === count) break;
  }
  process.send?.({ seen, peakRssKb: process.resourceUsage().maxRSS, peakHeapBytes: peakHeap });
}

async function benchAudit(): Promise<{ entries: number; peakRssMb: number; peakHeapMb: number }[]> {
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false });
  try {
    const now = Date.now();
    for (let start = 0; start < 100_000; start += 20_000) {
      const entries = Array.from({ length: 20_000 }, (_, k) => ({
        createdAt: new Date(now - 86_400_000 + start + k).toISOString(),
        event: { type: "get-secrets" as const, metadata: { i: start + k, secretPath: "/app", environment: "dev" } },
        projectId: emu.summary.projects[0]!.id,
      }));
      await new EmulatorAdmin(emu.url).insertAuditLogs(entries);
    }
    const out = [];
    for (const count of [10_000, 100_000]) {
      const child = fork(__filename, ["--audit-child", emu.url, emu.token, String(count)], {
        stdio: "inherit",
        execArgv: ["--expose-gc"],
      });
      const m = await new Promise<{ seen: number; peakRssKb: number; peakHeapBytes: number }>((resolve, reject) => {
        child.once("message", (msg) => resolve(msg as never));
        child.once("exit", (code) => reject(new Error(`audit child exited with ${code}`)));
      });
      child.kill();
      out.push({
        entries: m.seen,
        peakRssMb: Math.round(m.peakRssKb / 102.4) / 10,
        peakHeapMb: Math.round(m.peakHeapBytes / 104857.6) / 10,
      });
      say(`audit ${m.seen} entries: peak RSS ${out.at(-1)!.peakRssMb} MB`);
    }
    return out;
  } finally {
    await emu.stop();
  }
}

function benchEmulator(): unknown {
  const script = path.join(repoRoot, "node_modules/.cache/bench/scripts/bench-emulator.js");
  const out = runSync("node", [script], { timeoutMs: TIMEOUTS.build, stderr: "inherit" });
  return JSON.parse(out.trim().split("\n").pop()!);
}

function markdown(r: Report): string {
  const lines = [
    "# Benchmarks",
    "",
    `Measured by \`npm run bench\` (scripts/bench.ts) on ${r.machine.cpus} × ${r.machine.cpu}, ${r.machine.memoryGb} GiB, Node ${r.machine.node}, ${r.date}. One run; these machines are shared, so read the ratios, not the seconds.`,
    "",
    "## Against the engine's floor",
    "",
    `Each operation on N secret syncs, beside the same stack of no-op dynamic resources with the same args, run one after the other in the same invocation; the median of ${r.repeat} cycles${(r.samples ?? 1) > 1 ? `, in which \`preview\`, the no-change \`up\`, the \`preview\` of a change and \`refresh\` (they leave the state as they found it) ran ${r.samples} times each, alternating with the floor` : ""}. Emulator on 127.0.0.1, the rate limiter off (the emulator enforces none, the client's caps raised), the package installed from \`npm pack\`; the options a user gets by default (the duplicate-destination check on: one \`check-destination\` per create, then, reads being plentiful, a second one for a rival made meanwhile), but \`waitForSync: false\`.`,
    "",
    "The JavaScript program and its floor are `scripts/bench-program/index.js`; the TypeScript ones `scripts/bench-program-ts/index.ts` and its `floor/index.ts` (the floor's args typed by an interface of its own, without this package), run through the engine's TypeScript path, which type-checks each program on every run (ts-node, the TypeScript the program installs beside the package).",
    "",
    `The last two columns, for ${SERVED_OPERATIONS.map((op) => `\`${op}\``).join(" and ")}: the same floor, its creates answering the outputs a sync's object adds to its args (\`isAutoSyncEnabled\`, \`folderId\`, \`syncStatus\`, \`version\`, \`createdAt\`, \`updatedAt\`; scripts/bench-floor/runtime.js), run beside the other two. The engine writes the whole state after every step, so these operations cost in proportion to every resource's state: the difference between the two floors is the engine carrying the service's outputs.`,
    "",
    "| Program | Resources | Operation | secretops | floor | ratio | reads (of which check-destination) | writes | floor with the service's outputs | ratio to it |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const s of r.sizes) {
    for (const op of OPERATIONS) {
      const o = s.operations[op];
      const served = o.servedFloorMs === undefined ? "— | —" : `${o.servedFloorMs} ms | ${o.servedRatio}×`;
      lines.push(
        `| ${s.program ?? "javascript"} | ${s.resources} | ${op} | ${o.secretopsMs} ms | ${o.floorMs} ms | ${o.ratio}× | ${o.reads} (${o.checks ?? 0}) | ${o.writes} | ${served} |`,
      );
    }
  }
  if (r.typeCheck?.length) {
    const base = r.typeCheck[0]!;
    lines.push(
      "",
      "## Type-check",
      "",
      "`tsc --noEmit --extendedDiagnostics` of each program in the TypeScript program directory (the package installed from `npm pack`, the checkout's TypeScript, `strict`, `skipLibCheck`), the medians of 3 runs. The package's share is each figure less the first row's, a program of `@pulumi/pulumi` alone.",
      "",
      "| Program | types | instantiations | check time | total time | the package's share of the total |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const t of r.typeCheck)
      lines.push(
        `| ${t.program} | ${t.types} | ${t.instantiations} | ${t.checkMs} ms | ${t.totalMs} ms | ${t === base ? "—" : `${t.totalMs - base.totalMs} ms`} |`,
      );
  }
  if (r.firstCalls?.length) {
    lines.push(
      "",
      "## Time to the first call",
      "",
      "`up` of a change to 10 of 100 syncs (their description), a JavaScript program from `npm pack`: from the start of `up` to the service's first request (the emulator's log; with universal auth, the login), which is the work before any call (the program, then check and diff of every resource). Beside it the floor: 100 no-op dynamic resources with the same args whose update calls the emulator once, their `up`s alternating with ours. `pulumi up --yes` runs its preview first, as a user typing it does; the others are the Automation API's `up`, which skips it. Medians of 3; the create's lead is its one sample.",
      "",
      "| Destination | Login | Limits | Command | first call | floor's first call | ratio | up | create's first call |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const f of r.firstCalls)
      lines.push(
        `| ${f.destination} | ${f.auth} | ${f.limits ? "60/200, window ×0.1" : "none"} | ${f.preview ? "`pulumi up --yes`" : "`up`"} | ${f.firstCallMs} ms | ${f.floorMs} ms | ${Math.round((f.firstCallMs / f.floorMs) * 100) / 100}× | ${f.upMs} ms | ${f.createFirstMs} ms |`,
      );
  }
  lines.push(
    "",
    "## State",
    "",
    "| Program | Resources | bytes per resource | of which `__provider` | floor bytes per resource |",
    "| --- | --- | --- | --- | --- |",
  );
  for (const s of r.sizes)
    lines.push(
      `| ${s.program ?? "javascript"} | ${s.resources} | ${s.state.perResource} | ${s.state.provider} | ${s.state.floorPerResource} |`,
    );
  if (r.rateLimits.length) {
    lines.push(
      "",
      "## Rate limits",
      "",
      "`up` of 200 syncs with the package's defaults (the duplicate-destination check on: 200 checks in the read bucket, 200 creates in the write bucket), the emulator enforcing limits in a 15 s window and advertising them in `x-ratelimit-*`; the client's caps unset, so it paces by what it learns. A bucket of n requests over a limit L can send its last request no earlier than k = ceil(n / L) - 1 windows after its first, plus the time its last n - kL requests take at the pace the program asks for them without limits; the fraction is that minimum over the span the client took, both from the emulator's request log.",
      "",
      "| Limits (read/write per window) | reads | writes | 429s | binding bucket | its minimum span | its span | fraction of the ceiling | up (without limits) |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const x of r.rateLimits)
      lines.push(
        `| ${x.limits.read}/${x.limits.write} | ${x.reads} | ${x.writes} | ${x.rateLimited} | ${x.bucket} | ${x.pacingFloorMs} ms | ${x.pacedMs} ms | ${Math.round(x.fraction * 100)} % | ${x.achievedMs} ms (${x.unlimitedMs} ms) |`,
      );
  }
  if (r.realLimits?.length) {
    lines.push(
      "",
      "## At the service's real limits",
      "",
      `A platform team's stack (half secret syncs with the default options, so \`waitForSync\` and the duplicate-destination check on; a quarter rotations; a quarter certificate profiles), the emulator enforcing the service's default limits of 60 reads and 200 writes per window, the window compressed to ${(60_000 * WINDOW_FACTOR) / 1000} s with the budget per window unchanged, advertised in \`x-ratelimit-*\`; the client's caps unset. "At the limits": the least time the operation's calls take there, spread evenly, max(reads / 60, writes / 200) windows (the service counts in fixed windows, so calls that fit in one window's budget can take less: a ratio below 1 is possible). "Floor": the same operation on as many no-op dynamic resources. The ratio is the wall time over the larger of the two.${(r.samples ?? 1) > 1 ? ` \`preview\`, \`refresh\` and \`preview --refresh\` ran ${r.samples} times each, alternating with the floor; their medians count.` : ""}`,
      "",
      "| Resources | Operation | reads | writes | 429s | wall time | at the limits | floor | ratio |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    );
    for (const x of r.realLimits)
      for (const op of REAL_OPERATIONS) {
        const o = x.operations[op];
        lines.push(
          `| ${x.resources} | ${op} | ${o.reads} | ${o.writes} | ${o.rateLimited} | ${o.ms} ms | ${o.limitsMs} ms | ${o.floorMs} ms | ${o.ratio}× |`,
        );
      }
  }
  if (r.audit.length) {
    lines.push(
      "",
      "## Audit-log iteration",
      "",
      "Each walk in a child process of its own, pages of 1000, a full garbage collection after each page (so the figures are what the walk keeps).",
      "",
      "| Entries | peak RSS | peak heap after collection |",
      "| --- | --- | --- |",
    );
    for (const a of r.audit) lines.push(`| ${a.entries} | ${a.peakRssMb} MB | ${a.peakHeapMb} MB |`);
  }
  lines.push("", "## Budgets", "", "| Budget | Result |", "| --- | --- |");
  for (const b of r.budgets) lines.push(`| ${b.name} | ${b.ok ? "met" : "**missed**"}: ${b.detail} |`);
  if (r.emulator) lines.push("", "## Emulator", "", "```json", JSON.stringify(r.emulator), "```");
  if (r.native?.length) lines.push("", nativeMarkdown(r.native, r.repeat));
  if (r.vendor) lines.push("", vendorMarkdown(r.vendor));
  return lines.join("\n") + "\n";
}

interface Report {
  date: string;
  repeat: number;
  /** Samples per cycle of the operations that leave the state as it was (absent: 1, older runs). */
  samples?: number;
  machine: { cpu: string; cpus: number; memoryGb: number; node: string };
  sizes: SizeResult[];
  typeCheck?: TypeCheckResult[];
  firstCalls?: FirstCallVariantResult[];
  rateLimits: RateLimitResult[];
  realLimits?: RealLimitResult[];
  audit: { entries: number; peakRssMb: number; peakHeapMb: number }[];
  emulator?: unknown;
  native?: NativeSizeResult[];
  vendor?: VendorResult;
  budgets: { name: string; ok: boolean; detail: string }[];
}

function budgets(r: Report): Report["budgets"] {
  const out: Report["budgets"] = [];
  // Issues 41 and 50: every operation within 1.2× the floor, `refresh` aside (its gap is reporting
  // the service's object, and it is no longer a goal), at 200 and 1,000, both programs.
  const opsOf = (ops: readonly string[]) => ops.filter((op) => op !== "refresh");
  for (const s of r.sizes) {
    const bound = 1.2;
    const worst = Math.max(...opsOf(OPERATIONS).map((op) => s.operations[op as Operation].ratio));
    out.push({
      name: `${s.program ?? "javascript"}: ≤ ${bound}× the floor at ${s.resources} resources, refresh aside`,
      ok: worst <= bound,
      detail: `worst ${worst}×`,
    });
  }
  for (const s of r.sizes.filter((x) => (x.program ?? "javascript") === "javascript")) {
    const o = s.operations;
    const n = s.resources;
    const calls = [
      o.up.writes === n && o.up.checks === 2 * n,
      o.preview.reads + o.preview.writes === 0,
      o.upNoChange.reads + o.upNoChange.writes === 0,
      o.refresh.reads <= 2 && o.refresh.writes === 0,
    ];
    out.push({
      name: `call counts at ${n}: create ${n} writes and ${2 * n} check-destination (before each create, and after it for a rival), no-change preview and up 0, refresh ≤ 2 reads (one list call)`,
      ok: calls.every(Boolean),
      detail: `create ${o.up.writes}w/${o.up.reads}r (${o.up.checks} check-destination), preview ${o.preview.reads + o.preview.writes}, no-change up ${o.upNoChange.reads + o.upNoChange.writes}, refresh ${o.refresh.reads}r/${o.refresh.writes}w`,
    });
    out.push({
      name: `≤ 4 KB of state per resource at ${n}`,
      ok: s.state.perResource <= 4096,
      detail: `${s.state.perResource} bytes`,
    });
  }
  for (const x of r.rateLimits)
    out.push({
      name: `≥ 90 % of the ceiling at ${x.limits.read}/${x.limits.write}, no 429`,
      ok: x.fraction >= 0.9 && x.rateLimited === 0,
      detail: `${Math.round(x.fraction * 100)} %, ${x.rateLimited} answered 429`,
    });
  for (const x of r.realLimits ?? []) {
    const worst = Math.max(...opsOf(REAL_OPERATIONS).map((op) => x.operations[op as RealOperation].ratio));
    const refused = REAL_OPERATIONS.reduce((n, op) => n + x.operations[op].rateLimited, 0);
    out.push({
      name: `at the real limits, ${x.resources} resources: every operation ≤ 1.2× the least time, refresh aside, no 429`,
      ok: worst <= 1.2 && refused === 0,
      detail: `worst ${worst}×, ${refused} answered 429`,
    });
  }
  if (r.audit.length === 2)
    out.push({
      name: "audit memory flat (within 10 %) from 10k to 100k entries",
      ok: r.audit[1]!.peakRssMb <= r.audit[0]!.peakRssMb * 1.1,
      detail: `${r.audit[0]!.peakRssMb} MB → ${r.audit[1]!.peakRssMb} MB`,
    });
  return out;
}

async function main(): Promise<void> {
  const workDirs = Object.fromEntries(LANGUAGES.map((l) => [l, userProgram(l)])) as Record<Language, string>;
  const workDir = workDirs.javascript ?? userProgram("javascript");
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 20 });
  const report: Report = {
    date: new Date().toISOString().slice(0, 10),
    repeat: REPEAT,
    samples: SAMPLES,
    machine: {
      cpu: os.cpus()[0]?.model ?? "unknown",
      cpus: os.cpus().length,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    sizes: [],
    rateLimits: [],
    audit: [],
    budgets: [],
  };
  try {
    if (!SKIP.has("engine"))
      for (const n of SIZES)
        for (const language of LANGUAGES) report.sizes.push(await benchSize(workDirs[language], emu, n, language));
  } finally {
    await emu.stop();
  }
  if (!SKIP.has("firstcall")) report.firstCalls = await benchFirstCalls();
  if (!SKIP.has("typecheck") && workDirs.typescript) report.typeCheck = benchTypeCheck(workDirs.typescript);
  if (!SKIP.has("ratelimit")) report.rateLimits = await benchRateLimits(workDir);
  if (!SKIP.has("reallimits")) report.realLimits = await benchRealLimits(workDir);
  if (!SKIP.has("audit")) report.audit = await benchAudit();
  if (!SKIP.has("emulator")) report.emulator = benchEmulator();
  if (!SKIP.has("native")) report.native = await benchNative();
  if (!SKIP.has("vendor")) report.vendor = await benchVendor(workDir);
  report.budgets = budgets(report);
  writeDoc(report);
  for (const dir of new Set([workDir, ...Object.values(workDirs)])) fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(report) + "\n");
}

/** Runs the steps one after another: the timings must not overlap. */
async function sequence<T>(steps: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (const step of steps) out.push(await step());
  return out;
}

/**
 * The sections of the doc as it was that this run has none of (a part it skipped), each kept under
 * a line giving the run it came from, so a run of some parts does not drop the others' figures.
 */
function carriedSections(before: string, now: string): string[] {
  const sections = (doc: string) => doc.split(/^(?=## )/m).filter((x) => x.startsWith("## "));
  const titles = new Set(sections(now).map((x) => x.split("\n")[0]));
  const date = /, (\d{4}-\d{2}-\d{2})\. One run/.exec(before)?.[1] ?? "an earlier date";
  return sections(before)
    .filter((x) => !titles.has(x.split("\n")[0]))
    .map((x) => {
      if (x.includes(CARRIED)) return x.trimEnd();
      const [title, ...rest] = x.trimEnd().split("\n");
      return [title, "", `${CARRIED} ${date} (this run skipped it).`, ...rest].join("\n");
    });
}
const CARRIED = "_Not measured in this run_: from the run of";

function writeDoc(report: Report): void {
  const doc = path.join(repoRoot, "docs/benchmarks.md");
  const now = markdown(report);
  const before = fs.existsSync(doc) ? fs.readFileSync(doc, "utf8") : "";
  fs.writeFileSync(doc, [now.trimEnd(), ...carriedSections(before, now)].join("\n\n") + "\n");
  runSync("npx", ["prettier", "--write", doc], { cwd: repoRoot, timeoutMs: TIMEOUTS.quick });
  say("wrote docs/benchmarks.md");
}

if (process.argv[2] === "--audit-child") {
  void auditChild(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
} else if (process.argv[2] === "--render") {
  // `npm run bench -- --render out.json`: docs/benchmarks.md again from a run's saved output (its
  // last line), the least times, ratios and budgets derived again from what was measured.
  const report = JSON.parse(fs.readFileSync(process.argv[3]!, "utf8").trim().split("\n").pop()!) as Report;
  for (const x of report.realLimits ?? [])
    for (const op of REAL_OPERATIONS) x.operations[op] = atTheLimits(x.operations[op], x.limits);
  report.budgets = budgets(report);
  writeDoc(report);
} else {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
