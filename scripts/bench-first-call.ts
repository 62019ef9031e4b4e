/**
 * The lead before an `up`'s first call (issue 49): `up` of a change to the description of 10 of
 * 100 syncs, from its start to the service's first request (the emulator's request log), for one
 * variant: destination, credentials (a static token, or universal auth, whose login is then the
 * first request), the emulator at the service's default limits or none; beside it the engine's
 * floor (the same args on no-op dynamic resources), their `up`s alternating with ours so that both
 * see the machine's load alike. The program is a user's: JavaScript, the package installed from
 * `npm pack`. `preview` runs `pulumi up --yes` as a user types it, its preview first; otherwise the
 * Automation API's `up`, which skips the preview (as the bench does).
 *
 * `npm run bench:first-call`. FIRST_CALL_DESTINATIONS=azure-key-vault,vercel,
 * FIRST_CALL_AUTH=universal-auth,token and FIRST_CALL_LIMITS=on,off pick the variants (each list's
 * first by default), FIRST_CALL_PREVIEW=1 the preview, FIRST_CALL_SAMPLES the `up`s of each (3);
 * FIRST_CALL_TRACE=1 prints each `up`'s first requests, FIRST_CALL_NODE_OPTIONS is the engine's
 * NODE_OPTIONS (a CPU profile's `-r` preload). One JSON line per variant.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { promisify } from "node:util";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, startEmulator } from "../emulator";
import { type BenchStack, binDir, benchStack, fixtureLogin, median, repoRoot, timed } from "./bench-stack";
import { installPacked } from "./packed-install";

export interface FirstCallVariant {
  destination: "vercel" | "azure-key-vault";
  auth: "token" | "universal-auth";
  /** The service's default limits (60 reads, 200 writes a minute), the window compressed by `timeFactor`. */
  limits: boolean;
}

export interface FirstCallVariantResult extends FirstCallVariant {
  preview: boolean;
  /** From the start of each `up` to the service's first request. */
  samplesMs: number[];
  firstCallMs: number;
  upMs: number;
  /** The create's (the first `up`'s) lead. */
  createFirstMs: number;
  /** The same on the floor, its `up`s alternating with ours (the machine's load the same for both). */
  floorSamplesMs: number[];
  floorMs: number;
}

const execFileAsync = promisify(execFile);

const PROGRAM = `const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config("lead");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") ?? 0;
const target = config.requireObject("target");
// The engine's own floor: dynamic resources with the same args whose provider (noop-provider.js)
// does nothing but call the service once from update, so the emulator's log shows when the first
// update ran. Its \`__provider\` is written as the package writes its own (a module required by
// path, provider/program-side.ts), so the program serializes no closure either.
class Noop extends pulumi.CustomResource {
  constructor(name, args) {
    const provider = [
      "exports.handler = __f0;",
      "const provider = require(" + JSON.stringify(require("node:path").join(__dirname, "noop-provider.js")) + ");",
      "function __f0() { return provider; }",
    ].join("\\n");
    super("pulumi-nodejs:dynamic:Resource", name, { ...args, __provider: provider });
  }
}
const { SecretSync } = target.noop ? {} : require("secretops-pulumi");
for (let i = 0; i < count; i++) {
  const args = {
    destination: target.destination,
    name: \`lead-\${i}\`,
    projectId: target.projectId,
    connectionId: target.connectionId,
    environment: "dev",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig:
      target.destination === "vercel"
        ? { app: \`lead-app-\${i}\`, appName: \`lead-\${i}\`, env: "production", teamId: "team" }
        : { vaultBaseUrl: \`https://lead-\${i}.vault.azure.net\` },
    description: i < changed ? "changed" : "initial",
  };
  if (target.noop) new Noop(\`sync-\${i}\`, { ...args, ping: target.ping });
  else new SecretSync(\`sync-\${i}\`, args);
}
`;

const NOOP_PROVIDER = `exports.create = async (inputs) => ({ id: require("node:crypto").randomUUID(), outs: inputs });
exports.update = async (_id, _olds, news) => {
  await fetch(news.ping + "/api/v1/noop-update");
  return { outs: news };
};
`;

/** A program directory with the package from `npm pack` (one per run of the measure). */
export function firstCallProgram(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-first-call-"));
  installPacked(repoRoot, dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: first-call\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "index.js"), PROGRAM);
  fs.writeFileSync(path.join(dir, "noop-provider.js"), NOOP_PROVIDER);
  return dir;
}

/**
 * On an emulator of its own: creates `count` syncs, and the floor's `count` resources, then
 * `samples` times an `up` of each changing the description of a tenth of them (to "changed" and
 * back), ours and the floor's alternating, each timed from its start to the service's first request.
 */
export async function benchFirstCallVariant(
  workDir: string,
  variant: FirstCallVariant,
  { count = 100, samples = 3, timeFactor = 0.1, preview = false, extraEnv = {} as Record<string, string> } = {},
): Promise<FirstCallVariantResult> {
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 20 });
  const admin = new EmulatorAdmin(emu.url);
  const served = async () => (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
  try {
    if (variant.limits) await admin.setRateLimits({ read: 60, write: 200, timeFactor });
    const target = {
      destination: variant.destination,
      projectId: emu.summary.projects[0]!.id,
      connectionId: emu.summary.connections.find((c) => c.app === variant.destination)!.id,
    };
    const login = fixtureLogin();
    // benchStack stores the token and the client secret as secrets.
    const credentials: Record<string, string> =
      variant.auth === "token"
        ? { "secretops:token": emu.token }
        : { "secretops:clientId": login.clientId, "secretops:clientSecret": login.clientSecret };
    const stackOf = (floor: boolean) =>
      benchStack(
        workDir,
        {
          "lead:count": String(count),
          "lead:target": JSON.stringify(floor ? { ...target, noop: true, ping: emu.url } : target),
          "lead:changed": "0",
          "secretops:apiUrl": emu.url,
          ...credentials,
          ...(!variant.limits && { "secretops:readsPerMinute": "1000000", "secretops:writesPerMinute": "1000000" }),
        },
        extraEnv,
      );
    const ours = await stackOf(false);
    const floor = await stackOf(true);
    /** The lead of one `up`: from its start to the first request the emulator logged. */
    const lead = async (b: BenchStack, changed?: number): Promise<{ leadMs: number; upMs: number }> => {
      if (changed !== undefined) await b.stack.setConfig("lead:changed", { value: String(changed) });
      await admin.clearRequests();
      const start = Date.now();
      const upMs = await timed(() =>
        preview
          ? // As a user runs it: `pulumi up --yes`, its preview first.
            execFileAsync(
              path.join(binDir(), "pulumi"),
              ["up", "--yes", "--non-interactive", "--stack", b.stack.name],
              {
                cwd: workDir,
                env: { ...process.env, ...b.env },
                timeout: 300_000,
              },
            )
          : b.stack.up(),
      );
      const log = await served();
      if (process.env.FIRST_CALL_TRACE)
        process.stderr.write(
          log
            .slice(0, 4)
            .map((r) => `  +${Date.parse(r.at) - start} ${r.method} ${r.path} ${r.status}\n`)
            .join(""),
        );
      return { leadMs: Math.min(...log.map((r) => Date.parse(r.at))) - start, upMs };
    };
    const createFirstMs = (await lead(ours)).leadMs;
    await floor.stack.up();
    const oursRuns: { leadMs: number; upMs: number }[] = [];
    const floorRuns: number[] = [];
    for (let sample = 0; sample < samples; sample++) {
      const changed = sample % 2 === 0 ? count / 10 : 0;
      oursRuns.push(await lead(ours, changed));
      floorRuns.push((await lead(floor, changed)).leadMs);
    }
    for (const b of [ours, floor]) {
      await b.stack.destroy();
      await b.stack.workspace.removeStack(b.stack.name);
    }
    const firsts = oursRuns.map((r) => r.leadMs);
    return {
      ...variant,
      preview,
      createFirstMs,
      samplesMs: firsts,
      firstCallMs: median(firsts),
      upMs: median(oursRuns.map((r) => r.upMs)),
      floorSamplesMs: floorRuns,
      floorMs: median(floorRuns),
    };
  } finally {
    await emu.stop();
  }
}

async function main(): Promise<void> {
  const pick = (name: string, values: string[]) => (process.env[name] ?? values[0]!).split(",");
  const dir = firstCallProgram();
  try {
    for (const destination of pick("FIRST_CALL_DESTINATIONS", ["azure-key-vault"]))
      for (const auth of pick("FIRST_CALL_AUTH", ["universal-auth"]))
        for (const limits of pick("FIRST_CALL_LIMITS", ["on"])) {
          const r = await benchFirstCallVariant(
            dir,
            {
              destination: destination as FirstCallVariant["destination"],
              auth: auth as FirstCallVariant["auth"],
              limits: limits === "on",
            },
            {
              preview: process.env.FIRST_CALL_PREVIEW === "1",
              samples: Number(process.env.FIRST_CALL_SAMPLES ?? 3),
              extraEnv: process.env.FIRST_CALL_NODE_OPTIONS
                ? { NODE_OPTIONS: process.env.FIRST_CALL_NODE_OPTIONS }
                : {},
            },
          );
          process.stdout.write(JSON.stringify(r) + "\n");
        }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module)
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
