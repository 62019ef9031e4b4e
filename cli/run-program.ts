import * as fs from "node:fs";
import { createRequire, register } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Failure, UsageError } from "./common";

/**
 * Loads a Pulumi program as the engine's Node.js language host does: the entry point, TypeScript
 * and ES modules, following the program's own copy of @pulumi/pulumi (`cmd/run/run.js`, whose
 * `run` cannot be called in-process: loading it starts its command line). What that copy exports
 * for this (`tsutils.js`: which typescript and ts-node, and the tsconfig's compilerOptions) is
 * called; the few lines of `run` that assemble ts-node's options are repeated here, in its order.
 */

/** Pulumi.yaml's `runtime.options` that the language host turns into the program's environment. */
interface RuntimeOptions {
  typescript?: boolean;
  tsconfig?: string;
}

export interface Program {
  /** What the language host runs: a file, or a directory to resolve as Node does. */
  entry: string;
  /** package.json says `"type": "module"`: the entry is imported, not required. */
  isModule: boolean;
  runtime: RuntimeOptions;
}

function runtimeOptions(project: Record<string, unknown>): RuntimeOptions {
  const runtime = project.runtime;
  if (typeof runtime !== "object" || runtime === null) return {};
  const options = (runtime as { options?: unknown }).options;
  return typeof options === "object" && options !== null ? (options as RuntimeOptions) : {};
}

/** The directory of the nearest package.json at or above `from` (run.js's npmPackageRootFromProgramPath). */
function packageRoot(from: string, stop: string): string | undefined {
  let dir = fs.statSync(from, { throwIfNoEntry: false })?.isDirectory() ? from : path.dirname(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const up = path.dirname(dir);
    if (up === dir || !up.startsWith(stop)) return undefined;
    dir = up;
  }
}

/**
 * The program the language host runs in `dir`: Pulumi.yaml's `main`, else package.json's
 * `exports` (`.`) or `main`, else the directory itself (index.js, or index.ts once TypeScript is
 * registered).
 */
export function programOf(dir: string, project: Record<string, unknown>): Program {
  const hasMain = typeof project.main === "string";
  let entry = hasMain ? path.resolve(dir, project.main as string) : dir;
  if (!fs.existsSync(entry)) throw new UsageError(`no program in ${dir}: Pulumi.yaml's main ${entry} does not exist`);
  const root = packageRoot(entry, dir) ?? dir;
  const pkgFile = path.join(root, "package.json");
  const pkg = fs.existsSync(pkgFile) ? (JSON.parse(fs.readFileSync(pkgFile, "utf8")) as Record<string, unknown>) : {};
  if (!hasMain) {
    const exported = pkg.exports;
    const dot =
      typeof exported === "object" && exported !== null ? (exported as Record<string, unknown>)["."] : exported;
    const fromObject = (o: Record<string, unknown>) => o.default ?? o.require ?? o.import;
    const named = typeof dot === "object" && dot !== null ? fromObject(dot as Record<string, unknown>) : dot;
    const candidate = typeof named === "string" ? named : typeof pkg.main === "string" ? pkg.main : undefined;
    // As run.js: an entry point that does not exist falls back to the directory.
    if (candidate && fs.existsSync(path.join(root, candidate))) entry = path.join(root, candidate);
  }
  return { entry, isModule: pkg.type === "module", runtime: runtimeOptions(project) };
}

interface TsUtils {
  loadTypeScriptCompilerOptions(tsConfigPath: string): Record<string, unknown>;
  typeScriptRequireStrings(): { tsnodeRequire: string; typescriptRequire: string };
}

/** TypeScript ≥ `major.minor`. */
function atLeast(version: string, major: number, minor: number, inclusive: boolean): boolean {
  const [a = 0, b = 0, c = 0] = version.split(/[.-]/).map(Number);
  if (a !== major) return a > major;
  if (b !== minor) return b > minor;
  return inclusive || c > 0;
}

/**
 * Registers TypeScript as run.js does, with the process in the program's directory: the
 * program's typescript and ts-node if it has them (else the ones @pulumi/pulumi vendors), its
 * tsconfig (or `runtime.options.tsconfig`) if there is one, compilerOptions `nodenext` from
 * TypeScript 4.7 (`commonjs`/`node` below), type checking unless the tsconfig says `noCheck` or
 * PULUMI_NODEJS_TRANSPILE_ONLY is set, and ts-node's ESM hooks for a `"type": "module"` program.
 */
export function registerTypeScript(pulumiPkg: string, program: Program): void {
  // run.js's `require` and `require.resolve` are relative to run.js itself.
  const runRequire = createRequire(path.join(pulumiPkg, "cmd", "run", "run.js"));
  const tsutils = runRequire("../../tsutils") as TsUtils;
  const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? program.runtime.tsconfig ?? "tsconfig.json";
  const skipProject = !fs.existsSync(tsConfigPath);
  if (skipProject && tsConfigPath !== "tsconfig.json") {
    throw new UsageError(`tsconfig path was set to ${tsConfigPath} but the file was not found`);
  }
  const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
  const transpileOnlyEnv = process.env.PULUMI_NODEJS_TRANSPILE_ONLY;
  const transpileOnly = transpileOnlyEnv ? transpileOnlyEnv === "true" : compilerOptions.noCheck;
  const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
  const options = {
    compiler: typescriptRequire,
    transpileOnly,
    project: tsConfigPath,
    skipProject,
    compilerOptions: {} as Record<string, unknown>,
  };
  const ts = runRequire(typescriptRequire) as { version: string; createProgram?: unknown };
  const tsVersion = ts.version;
  if (typeof ts.createProgram !== "function") {
    // TypeScript 7, the native compiler, exports its version only: ts-node fails on it, under the
    // engine too ("Cannot read properties of undefined (reading 'readFile')").
    throw new Failure(
      `the program's typescript ${tsVersion} has no compiler API (the native compiler): neither ts-node nor ` +
        "pulumi can run a TypeScript program with it; install typescript@6 (npm install --save-dev typescript@6)",
    );
  }
  let tsNodeEsm: string | undefined;
  try {
    tsNodeEsm = runRequire.resolve("ts-node/esm");
  } catch {
    // Only recent ts-node has it (not the vendored 7.0.1).
  }
  const hasLoaders = process.execArgv.some((a) => a === "--loader" || a === "--import" || a === "--require");
  if (program.isModule && atLeast(tsVersion, 4, 7, false) && !hasLoaders && tsNodeEsm) {
    options.compilerOptions = {
      target: "ES2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      sourceMap: "true",
      ...compilerOptions,
    };
    register(pathToFileURL(path.join(pulumiPkg, "cmd", "run", "hooks.js")), { data: options });
    return;
  }
  const nodeNext = atLeast(tsVersion, 4, 7, true);
  options.compilerOptions = {
    target: "ES2020",
    module: nodeNext ? "nodenext" : "commonjs",
    moduleResolution: nodeNext ? "nodenext" : "node",
    sourceMap: "true",
    ...compilerOptions,
  };
  (runRequire(tsnodeRequire) as { register(o: object): void }).register(options);
}

/** `import()` kept as is: TypeScript compiles it to `require` in a CommonJS module (as run.js works around). */
const dynamicImport = new Function("u", "return import(u)") as (u: string) => Promise<Record<string, unknown>>;

/**
 * Runs the program, with the process in its directory (TypeScript registered first when the
 * project has it on, as the language host's default): required, or imported for an ES module; an
 * exported function is called and awaited, as run.js does.
 */
export async function loadProgram(pulumiPkg: string, program: Program): Promise<void> {
  // The language host's `typescript` option (default true) sets PULUMI_NODEJS_TYPESCRIPT.
  if (program.runtime.typescript !== false) registerTypeScript(pulumiPkg, program);
  let exported: unknown;
  if (program.isModule) {
    let main = fs.realpathSync(program.entry);
    if (fs.statSync(main).isDirectory()) {
      const index = ["index.js", "index.mjs", "index.ts", "index.mts"].find((f) => fs.existsSync(path.join(main, f)));
      if (!index) throw new UsageError(`no program in ${main}: no index.js, index.mjs, index.ts or index.mts`);
      main = path.join(main, index);
    }
    exported = await dynamicImport(pathToFileURL(main).href);
    if (Object.getOwnPropertyDescriptor(exported, "default") !== undefined) {
      exported = (exported as { default: unknown }).default;
    }
  } else {
    const entry = fs.statSync(program.entry).isDirectory() ? `${program.entry}${path.sep}` : program.entry;
    exported = require(entry);
  }
  if (exported instanceof Function) await exported();
}
