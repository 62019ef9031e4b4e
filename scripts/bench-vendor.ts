/**
 * The bench beside the vendor's Terraform provider (part of `npm run bench`): the five operations a
 * user compares (create, a no-change plan, refresh, a change to a tenth of the syncs, destroy) on N
 * azure-key-vault syncs with the default options (`waitForSync` and the duplicate-destination check
 * on), the emulator at the service's default limits (60 reads, 200 writes a minute, the window ×0.1,
 * advertised), the provider logging in by universal auth, the program in JavaScript from `npm pack`.
 * For each: its time, its calls, and the time from its start to its first call.
 *
 * The vendor's side needs OpenTofu and `terraform-provider-infisical`, built from the Go module
 * proxy by scripts/ensure-terraform.sh. Where the provider cannot be built (this machine: the proxy
 * refuses the module), the section says so with the script's own answer, and measures ours alone:
 * there is no vendor column to fill and no ratio to print.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { EmulatorAdmin, type RequestLogEntry, startEmulator } from "../emulator";
import { benchStack, callCounts, fixtureLogin, median, repoRoot, timed } from "./bench-stack";
import { runSync } from "./run-sync";

const SIZES = (process.env.BENCH_VENDOR_SIZES ?? "100,300").split(",").map(Number);
const REPEAT = Number(process.env.BENCH_VENDOR_REPEAT ?? 2);
/** The service's 60 s window, compressed as the user who filed issue 49 measured it. */
const TIME_FACTOR = 0.1;
const say = (s: string) => process.stderr.write(`[bench] ${s}\n`);

export const VENDOR_OPERATIONS = ["create", "plan", "refresh", "change", "destroy"] as const;
export type VendorOperation = (typeof VENDOR_OPERATIONS)[number];

interface Measured {
  ms: number;
  /** From the operation's start to the service's first request; undefined when it made none. */
  firstCallMs?: number;
  reads: number;
  writes: number;
  rateLimited: number;
}

export interface VendorResult {
  /** The vendor's tools: whether they could be built here, their versions, or why not. */
  vendor: { available: boolean; tofu?: string; detail: string };
  timeFactor: number;
  repeat: number;
  sizes: { resources: number; operations: Record<VendorOperation, Measured> }[];
}

/**
 * The vendor's tools, as scripts/ensure-terraform.sh builds them (cached); its exit 2 says the
 * provider cannot be built, and its last lines say why.
 */
function vendorTools(): VendorResult["vendor"] {
  const script = path.join(repoRoot, "scripts/ensure-terraform.sh");
  try {
    const bin = runSync("bash", [script], { timeoutMs: 30 * 60_000 })
      .trim()
      .split("\n")
      .pop()!;
    const tofu = runSync(path.join(bin, "tofu"), ["version"], { timeoutMs: 60_000 }).split("\n")[0]!;
    return { available: true, tofu, detail: `built in ${bin}` };
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    const lines = text
      .split("\n")
      .filter((l) => l.startsWith("[ensure-terraform]"))
      .map((l) => l.replace("[ensure-terraform] ", ""));
    // Where the script keeps its builds (scripts/engine/common.sh).
    const cache =
      process.env.SECRETOPS_PULUMI_CACHE ??
      path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? "", ".cache"), "secretops-pulumi");
    const tofuBin = fs.existsSync(cache)
      ? fs
          .readdirSync(cache)
          .map((d) => path.join(cache, d, "bin", "tofu"))
          .find((f) => fs.existsSync(f))
      : undefined;
    const tofu = tofuBin ? runSync(tofuBin, ["version"], { timeoutMs: 60_000 }).split("\n")[0] : undefined;
    // The proxy's answer and the script's conclusion.
    const why = lines.filter((l) => /403|cannot be built/.test(l)).map((l) => l.replace(/^go: /, ""));
    return { available: false, tofu, detail: why.join("; ") || text.slice(0, 400) };
  }
}

/** An operation's calls, and the time from its start to the first. */
function counts(rs: RequestLogEntry[], start: number): Omit<Measured, "ms"> {
  const { reads, writes, rateLimited } = callCounts(rs);
  const times = rs.map((r) => Date.parse(r.at));
  return { firstCallMs: times.length ? Math.min(...times) - start : undefined, reads, writes, rateLimited };
}

async function oursAt(workDir: string, count: number): Promise<VendorResult["sizes"][number]> {
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false });
  const admin = new EmulatorAdmin(emu.url);
  try {
    const login = fixtureLogin();
    const target = {
      projectId: emu.summary.projects[0]!.id,
      connectionId: emu.summary.connections.find((c) => c.app === "azure-key-vault" && !c.projectId)!.id,
    };
    const b = await benchStack(workDir, {
      "bench:kind": "secretops",
      "bench:count": String(count),
      "bench:target": JSON.stringify(target),
      "bench:changed": "0",
      "bench:destination": "azure-key-vault",
      // The default options: wait for each sync's job.
      "bench:extra": JSON.stringify({ waitForSync: true }),
      "secretops:apiUrl": emu.url,
      "secretops:clientId": login.clientId,
      "secretops:clientSecret": login.clientSecret,
    });
    await admin.setRateLimits({ read: 60, write: 200, timeFactor: TIME_FACTOR });
    const samples = new Map<VendorOperation, Measured[]>();
    const measure = async (op: VendorOperation, run: () => Promise<unknown>) => {
      await admin.clearRequests();
      const start = Date.now();
      const ms = await timed(run);
      const m = { ms, ...counts(await admin.requests(), start) };
      samples.set(op, [...(samples.get(op) ?? []), m]);
      say(
        `beside the vendor, ours at ${count}: ${op} ${ms} ms, first call ${m.firstCallMs ?? "—"} ms, ${m.reads} reads, ${m.writes} writes`,
      );
    };
    for (let cycle = 0; cycle < REPEAT; cycle++) {
      await b.stack.setConfig("bench:changed", { value: "0" });
      await measure("create", () => b.stack.up());
      await measure("plan", () => b.stack.preview());
      await measure("refresh", () => b.stack.refresh());
      await b.stack.setConfig("bench:changed", { value: String(Math.round(count / 10)) });
      await measure("change", () => b.stack.up());
      await measure("destroy", () => b.stack.destroy());
    }
    await b.stack.workspace.removeStack(b.stack.name);
    const operations = {} as Record<VendorOperation, Measured>;
    for (const op of VENDOR_OPERATIONS) {
      const s = samples.get(op)!;
      const firsts = s.flatMap((x) => (x.firstCallMs === undefined ? [] : [x.firstCallMs]));
      operations[op] = {
        ms: median(s.map((x) => x.ms)),
        firstCallMs: firsts.length ? median(firsts) : undefined,
        reads: Math.max(...s.map((x) => x.reads)),
        writes: Math.max(...s.map((x) => x.writes)),
        rateLimited: s.reduce((n, x) => n + x.rateLimited, 0),
      };
    }
    return { resources: count, operations };
  } finally {
    await emu.stop();
  }
}

export async function benchVendor(workDir: string): Promise<VendorResult> {
  say("the vendor's tools: scripts/ensure-terraform.sh");
  const vendor = vendorTools();
  say(
    vendor.available
      ? `the vendor's tools: ${vendor.detail}`
      : `the vendor's provider cannot be built: ${vendor.detail}`,
  );
  const sizes = [];
  for (const count of SIZES) sizes.push(await oursAt(workDir, count));
  return { vendor, timeFactor: TIME_FACTOR, repeat: REPEAT, sizes };
}

export function vendorMarkdown(r: VendorResult): string {
  const lines = [
    "## Beside the vendor's Terraform provider",
    "",
    `N azure-key-vault syncs with the default options (\`waitForSync\` and the duplicate-destination check on), the program in JavaScript from \`npm pack\`, the provider logging in by universal auth; the emulator enforcing the service's default limits (60 reads, 200 writes a window) with the window ×${r.timeFactor}, advertised in \`x-ratelimit-*\`, the client's caps unset. The medians of ${r.repeat} cycles of the five operations; calls are the most one cycle made; "first call" is from the operation's start to the service's first request (the emulator's log).`,
    "",
  ];
  if (r.vendor.available)
    lines.push(
      `The vendor's tools: ${r.vendor.tofu} and terraform-provider-infisical (${r.vendor.detail}). Their side is not measured by this bench yet.`,
    );
  else
    lines.push(
      `**The vendor's provider cannot be built on this machine**, so this section measures ours alone and prints no ratio. scripts/ensure-terraform.sh answered: ${r.vendor.detail}${r.vendor.tofu ? ` (the CLI builds: ${r.vendor.tofu})` : ""}`,
    );
  lines.push(
    "",
    "| Resources | Operation | ours | first call | reads | writes | 429s | the vendor's |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  );
  for (const s of r.sizes)
    for (const op of VENDOR_OPERATIONS) {
      const o = s.operations[op];
      lines.push(
        `| ${s.resources} | ${op} | ${o.ms} ms | ${o.firstCallMs === undefined ? "no call" : `${o.firstCallMs} ms`} | ${o.reads} | ${o.writes} | ${o.rateLimited} | ${r.vendor.available ? "not measured" : "cannot be built here"} |`,
      );
    }
  return lines.join("\n");
}
