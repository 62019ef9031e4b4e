import * as fs from "node:fs";
import * as path from "node:path";
import { Command } from "commander";
import type { ResourceType } from "../provider/definition";
import { provider } from "../provider/provider-process";
import { Failure, UsageError, warn } from "./common";

/**
 * Every secretops resource's type token starts with this (`TYPE_MODULE` in provider/program-side.ts,
 * not imported: that module loads the CLI's own @pulumi/pulumi).
 */
export const TYPE_PREFIX = "pulumi-nodejs:dynamic/secretops:";
export const RESOURCE_TYPES: readonly ResourceType[] = [
  "SecretSync",
  "SecretRotation",
  "CertificateProfile",
  "AppConnection",
  "AppConnectionSettings",
];

/** What a `secure:` config value reads as: the engine alone can decrypt it. */
export const SECRET_PLACEHOLDER = "[secret]";

interface CheckOptions {
  stack?: string;
  config?: string[];
}

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
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
Stack config: plain values of Pulumi.yaml and Pulumi.<stack>.yaml are passed to the program. Secret
values (secure:) cannot be decrypted without the engine: the program sees "${SECRET_PLACEHOLDER}" instead,
so a rule on a secret read from config may report a wrong value. Resources read outputs of other
resources as the mocks give them (their inputs and an id "<name>-id"); computed outputs are undefined.
TypeScript programs need ts-node installed beside the program (as \`pulumi\` itself does).
A program that calls getAuditLogs queries the service only when its endpoint and token are set;
its failure is printed as a warning and does not change the exit code.`,
    )
    .action(async (dir: string, o: CheckOptions) => {
      const failures = await checkProgram(path.resolve(dir), o);
      if (failures.lines.length > 0) {
        for (const l of failures.lines) process.stdout.write(`${l}\n`);
        throw new Failure(
          `${failures.invalid} of ${failures.checked} secretops resources invalid (${failures.lines.length} problems)`,
        );
      }
      process.stdout.write(`${failures.checked} secretops resources checked, all valid\n`);
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
      config[fullKey(k)] = SECRET_PLACEHOLDER;
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
      `secret config values are not decrypted (no engine): ${secretKeys.join(", ")} read as "${SECRET_PLACEHOLDER}"`,
    );
  }
  return { config, secretKeys, stack: stack ?? "stack" };
}

/** The file the language host would run: Pulumi.yaml's `main`, package.json's `main`, index.js or index.ts. */
function entryPoint(dir: string, project: Record<string, unknown>): string {
  let base = dir;
  if (typeof project.main === "string") {
    base = path.resolve(dir, project.main);
    if (fs.existsSync(base) && fs.statSync(base).isFile()) return base;
  }
  const pkgFile = path.join(base, "package.json");
  if (fs.existsSync(pkgFile)) {
    const main = (JSON.parse(fs.readFileSync(pkgFile, "utf8")) as { main?: string }).main;
    if (main) {
      const p = path.resolve(base, main);
      for (const c of [p, `${p}.js`, `${p}.ts`, path.join(p, "index.js"), path.join(p, "index.ts")]) {
        if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
      }
    }
  }
  for (const f of ["index.js", "index.ts"]) if (fs.existsSync(path.join(base, f))) return path.join(base, f);
  throw new UsageError(`no program in ${base}: no package.json main, index.js or index.ts`);
}

/** Values as the provider gets them from the engine: secrets unwrapped (rpc.js's `specialSecretSig`). */
function unwrapSecrets(v: unknown, sigKey: string, secretSig: string): unknown {
  if (Array.isArray(v)) return v.map((x) => unwrapSecrets(x, sigKey, secretSig));
  if (typeof v !== "object" || v === null) return v;
  const o = v as Record<string, unknown>;
  if (o[sigKey] === secretSig) return unwrapSecrets(o.value, sigKey, secretSig);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, unwrapSecrets(x, sigKey, secretSig)]));
}

export interface CheckResult {
  checked: number;
  invalid: number;
  lines: string[];
}

/** Runs the program under mocks and checks each secretops resource's inputs with its provider's `check`. */
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
  const main = entryPoint(dir, project);
  const { config, secretKeys, stack } = programConfig(dir, project, parse, o);

  // The runtime reads config from these on first use, as under the language host.
  process.env.PULUMI_CONFIG = JSON.stringify(config);
  process.env.PULUMI_CONFIG_SECRET_KEYS = JSON.stringify(secretKeys);

  if (main.endsWith(".ts")) {
    let tsNode: string;
    try {
      tsNode = require.resolve("ts-node", { paths: [dir, pulumiPkg] });
    } catch {
      throw new UsageError(
        `${path.relative(process.cwd(), main) || main} is TypeScript and ts-node is not installed: ` +
          "npm install --save-dev ts-node typescript in the program's directory, or check the compiled JavaScript",
      );
    }
    (require(tsNode) as { register(o: object): void }).register({ transpileOnly: true });
  }

  // The program's own copy of @pulumi/pulumi: mocks set on another copy would not reach it.
  const pulumi = require(pulumiPkg) as typeof import("@pulumi/pulumi");
  const rpc = require(path.join(pulumiPkg, "runtime", "rpc")) as { specialSigKey: string; specialSecretSig: string };
  const settings = require(path.join(pulumiPkg, "runtime", "settings")) as { waitForRPCs(): Promise<void> };
  const registered: Registered[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    String(project.name ?? "project"),
    stack,
    false,
  );

  const programErrors: string[] = [];
  const onRejection = (e: unknown) => programErrors.push(e instanceof Error ? e.message : String(e));
  process.on("unhandledRejection", onRejection);
  const cwd = process.cwd();
  try {
    process.chdir(dir);
    let exported: unknown;
    try {
      exported = require(main);
      if (typeof exported === "function") await (exported as () => unknown)();
      else if (typeof (exported as { default?: unknown })?.default === "function") {
        await (exported as { default: () => unknown }).default();
      }
    } catch (e) {
      throw new Failure(`the program failed: ${(e as Error).message ?? e}`);
    }
    // Registrations run asynchronously; wait until no more arrive.
    for (let seen = -1; seen !== registered.length;) {
      seen = registered.length;
      await settings.waitForRPCs();
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    process.chdir(cwd);
    process.off("unhandledRejection", onRejection);
  }
  for (const m of programErrors) warn(`warning: the program reported: ${m}`);

  const lines: string[] = [];
  let checked = 0;
  let invalid = 0;
  for (const r of registered) {
    if (!r.type.startsWith(TYPE_PREFIX)) continue;
    const type = r.type.slice(TYPE_PREFIX.length) as ResourceType;
    if (!RESOURCE_TYPES.includes(type)) {
      warn(`warning: ${r.name} has type ${r.type}, unknown to this version of secretops: not checked`);
      continue;
    }
    const inputs = unwrapSecrets(r.inputs, rpc.specialSigKey, rpc.specialSecretSig) as Record<string, unknown>;
    checked += 1;
    const { failures = [] } = await provider(type).check!({}, inputs);
    if (failures.length > 0) invalid += 1;
    for (const f of failures)
      lines.push(f.property ? `${type} ${r.name}: ${f.property}: ${f.reason}` : `${type} ${r.name}: ${f.reason}`);
  }
  return { checked, invalid, lines };
}
