import * as fs from "node:fs";
import * as path from "node:path";
import { Command } from "commander";
import { type ResourceType, resourceTypes } from "../provider/definition";
import { provider } from "../provider/provider-process";
import { UNKNOWN } from "../provider/values";
import { Failure, UsageError, counted, warn } from "./common";
import { loadProgram, programOf } from "./run-program";

/**
 * Every secretops resource's type token starts with this (`TYPE_MODULE` in provider/program-side.ts,
 * not imported: that module loads the CLI's own @pulumi/pulumi).
 */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/secretops:";
export const RESOURCE_TYPES: readonly ResourceType[] = resourceTypes;

/**
 * What a `secure:` config value reads as: the engine alone can decrypt it, so to `check` it is
 * unknown, as an output before apply is (the engine's unknown sentinel), and its rules are left to
 * `pulumi preview`. A placeholder string would be judged, and refused wherever a rule wants a form.
 */
export const SECRET_CONFIG_VALUE = UNKNOWN;

interface CheckOptions {
  stack?: string;
  config?: string[];
}

const collect = (v: string, acc: string[] | undefined) => [...(acc ?? []), v];

export function checkCommand(): Command {
  return new Command("check")
    .description(
      "Run a Pulumi program with Pulumi's mocks (no engine, no service, no credentials) and report every invalid " +
        "field of every secretops resource, in the words of `pulumi preview`. Exit 1 when any is invalid.",
    )
    .argument("[dir]", "the program's directory (holding Pulumi.yaml)", ".")
    .option("--stack <name>", "read config from Pulumi.<name>.yaml (default: the only Pulumi.*.yaml, if there is one)")
    .option(
      "--config <key=value>",
      "set a config value (repeatable; a key without a namespace gets the project's)",
      collect,
    )
    .addHelpText(
      "after",
      `
Stack config: plain values of Pulumi.yaml and Pulumi.<stack>.yaml are passed to the program.
The program runs as a preview in which every resource is to be created: ids and computed outputs
are unknown, and a field built from one (connectionId: db.id) is checked by \`pulumi up\`, as in a
preview. Secret values (secure:) cannot be decrypted without the engine: they are unknown too (the
program reads the engine's unknown value, ${SECRET_CONFIG_VALUE}), and \`pulumi preview\`
checks them. TypeScript is loaded as the engine loads it: the program's typescript and ts-node,
else those @pulumi/pulumi vendors, and its tsconfig.json if any.
A program that calls getAuditLogs queries the service only when its endpoint and token are set;
its failure is printed as a warning and does not change the exit code.`,
    )
    .action(async (dir: string, o: CheckOptions) => {
      const failures = await checkProgram(path.resolve(dir), o);
      if (failures.lines.length > 0) {
        for (const l of failures.lines) process.stdout.write(`${l}\n`);
        throw new Failure(
          `${failures.invalid} of ${counted(failures.checked, "secretops resource")} invalid (${counted(failures.lines.length, "problem")})`,
        );
      }
      process.stdout.write(`${counted(failures.checked, "secretops resource")} checked, all valid\n`);
    });
}

/** js-yaml, a dependency of @pulumi/pulumi (which reads Pulumi.yaml with it). */
function loadYaml(pulumiDir: string): (text: string) => unknown {
  const yaml = require(require.resolve("js-yaml", { paths: [pulumiDir] })) as { load(t: string): unknown };
  return (t) => yaml.load(t);
}

function readYaml(file: string, parse: (t: string) => unknown): Record<string, unknown> {
  try {
    return (parse(fs.readFileSync(file, "utf8")) ?? {}) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

const hasSecure = (v: unknown): boolean =>
  typeof v === "object" && v !== null && ("secure" in v || Object.values(v).some(hasSecure));

/** The config map the runtime reads from PULUMI_CONFIG, and its secret keys. */
function programConfig(
  dir: string,
  project: Record<string, unknown>,
  parse: (t: string) => unknown,
  o: CheckOptions,
): { config: Record<string, string>; secretKeys: string[]; stack: string } {
  const projectName = String(project.name ?? "project");
  const fullKey = (k: string) => (k.includes(":") ? k : `${projectName}:${k}`);
  const config: Record<string, string> = {};
  const secretKeys: string[] = [];
  const put = (k: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (hasSecure(v)) {
      config[fullKey(k)] = SECRET_CONFIG_VALUE;
      secretKeys.push(fullKey(k));
    } else config[fullKey(k)] = typeof v === "string" ? v : JSON.stringify(v);
  };
  // Project-level config: `key: value` or `key: { default: value }` / `{ value: value }`.
  for (const [k, v] of Object.entries((project.config ?? {}) as Record<string, unknown>)) {
    const d = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    put(k, d ? (d.value ?? d.default) : v);
  }
  let stack = o.stack;
  if (!stack) {
    const files = fs.readdirSync(dir).filter((f) => /^Pulumi\.[^.]+\.ya?ml$/.test(f));
    if (files.length === 1) stack = files[0]!.split(".")[1];
    else if (files.length > 1) warn(`several stack config files, none read: pass --stack (${files.join(", ")})`);
  }
  if (stack) {
    const file = ["yaml", "yml"].map((e) => path.join(dir, `Pulumi.${stack}.${e}`)).find((f) => fs.existsSync(f));
    if (!file) {
      if (o.stack) throw new UsageError(`--stack: no Pulumi.${stack}.yaml in ${dir}`);
    } else {
      const stackConfig = (readYaml(file, parse).config ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(stackConfig)) put(k, v);
    }
  }
  for (const kv of o.config ?? []) {
    const i = kv.indexOf("=");
    if (i <= 0) throw new UsageError(`--config: expected key=value, got "${kv.split("=")[0]}"`);
    config[fullKey(kv.slice(0, i))] = kv.slice(i + 1);
  }
  if (secretKeys.length > 0) {
    warn(
      `secret config values are not decrypted (no engine): ${secretKeys.join(", ")} unknown, their rules left to pulumi preview`,
    );
  }
  return { config, secretKeys, stack: stack ?? "stack" };
}

/**
 * A registered input as the engine passes it to the provider's `check`: secrets unwrapped (rpc.js's
 * `specialSecretSig`; our providers do not accept secrets), and a value unknown until apply (the
 * mocks' `unknown`, from rpc.js's deserializeProperty at preview) as the engine's unknown sentinel.
 */
function engineValue(v: unknown, rpc: Rpc, isUnknown: (v: unknown) => boolean): unknown {
  if (isUnknown(v)) return UNKNOWN;
  if (Array.isArray(v)) return v.map((x) => engineValue(x, rpc, isUnknown));
  if (typeof v !== "object" || v === null) return v;
  const o = v as Record<string, unknown>;
  if (o[rpc.specialSigKey] === rpc.specialSecretSig) return engineValue(o.value, rpc, isUnknown);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, engineValue(x, rpc, isUnknown)]));
}

interface Rpc {
  specialSigKey: string;
  specialSecretSig: string;
}

export interface CheckResult {
  checked: number;
  invalid: number;
  lines: string[];
}

/**
 * Runs the program under Pulumi's mocks as a preview and checks each secretops resource's inputs
 * with its provider's `check`, where the engine would call it: at registration, in order.
 *
 * Every resource is one `pulumi preview` would create: the engine gives it no id and, as its
 * outputs, the inputs it was given (a provider without previews, as dynamic providers are:
 * provider_plugin.go's Create), so in the program its id and computed outputs are unknown, and so
 * is whatever is built from them. Such a value reaches `check` as the engine's unknown sentinel,
 * and the rules on it wait for `up`, as in a preview.
 */
export async function checkProgram(dir: string, o: CheckOptions): Promise<CheckResult> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`no such directory: ${dir}`);
  let pulumiPkg: string;
  try {
    pulumiPkg = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [dir] }));
  } catch {
    throw new UsageError(`@pulumi/pulumi is not installed for the program in ${dir}: run npm install there`);
  }
  const parse = loadYaml(pulumiPkg);
  const projectFile = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  const project = projectFile ? readYaml(projectFile, parse) : {};
  const program = programOf(dir, project);
  const { config, secretKeys, stack } = programConfig(dir, project, parse, o);

  // The runtime reads config from these on first use, as under the language host.
  process.env.PULUMI_CONFIG = JSON.stringify(config);
  process.env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(secretKeys);

  // The program's own copy of @pulumi/pulumi: mocks set on another copy would not reach it.
  const pulumi = require(pulumiPkg) as typeof import("@pulumi/pulumi");
  const rpc = require(path.join(pulumiPkg, "runtime", "rpc")) as Rpc;
  const settings = require(path.join(pulumiPkg, "runtime", "settings")) as { waitForRPCs(): Promise<void> };
  const result: CheckResult = { checked: 0, invalid: 0, lines: [] };
  let registered = 0;
  const check = async (type: string, name: string, given: Record<string, unknown>) => {
    if (!type.startsWith(TYPE_PREFIX)) return;
    const kind = type.slice(TYPE_PREFIX.length) as ResourceType;
    if (!RESOURCE_TYPES.includes(kind)) {
      warn(`warning: ${name} has type ${type}, unknown to this version of secretops: not checked`);
      return;
    }
    const inputs = engineValue(given, rpc, pulumi.isUnknown) as Record<string, unknown>;
    result.checked += 1;
    const { failures = [] } = await provider(kind).check!({}, inputs);
    if (failures.length > 0) result.invalid += 1;
    for (const f of failures) {
      result.lines.push(f.property ? `${kind} ${name}: ${f.property}: ${f.reason}` : `${kind} ${name}: ${f.reason}`);
    }
  };
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        registered += 1;
        await check(args.type, args.name, args.inputs as Record<string, unknown>);
        // A read (`get`) has its id; a resource to create has none: unknown, as in a preview.
        return { id: args.id || undefined, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    String(project.name ?? "project"),
    stack,
    true,
  );

  const programErrors: string[] = [];
  const onRejection = (e: unknown) => programErrors.push(e instanceof Error ? e.message : String(e));
  process.on("unhandledRejection", onRejection);
  const cwd = process.cwd();
  try {
    // The language host runs the program in its directory (tsconfig.json is read from there too).
    process.chdir(dir);
    try {
      await loadProgram(pulumiPkg, program);
    } catch (e) {
      if (e instanceof UsageError || e instanceof Failure) throw e;
      throw new Failure(`the program failed: ${(e as Error).message ?? e}`);
    }
    // Registrations run asynchronously; wait until no more arrive.
    for (let seen = -1; seen !== registered;) {
      seen = registered;
      await settings.waitForRPCs();
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    process.chdir(cwd);
    process.off("unhandledRejection", onRejection);
  }
  for (const m of programErrors) warn(`warning: the program reported: ${m}`);
  return result;
}
