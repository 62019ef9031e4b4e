import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installPacked } from "../../scripts/packed-install";
import { repoRoot } from "./harness";

/**
 * What a program in another Pulumi language needs on PATH to reach the native provider: the
 * language hosts (scripts/ensure-pulumi.sh --languages, built once and cached), and the plugin
 * `pulumi-resource-secretops` where npm puts it, node_modules/.bin. No PulumiPlugin.yaml: the
 * engine finds it on PATH.
 */
let languagesBin: string | undefined;
export function languagesBinDir(): string {
  languagesBin ??= execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-pulumi.sh"), "--languages"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop()!;
  return languagesBin;
}

/**
 * The plugin as a user's install has it: this package installed from `npm pack` into a directory
 * of its own (scripts/packed-install.ts), whose node_modules/.bin holds `pulumi-resource-secretops`.
 * `dir` is that bin directory; removed with `dispose`.
 */
export function pluginBinDir(): { dir: string; dispose(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-install-"));
  installPacked(repoRoot, root);
  const dir = path.join(root, "node_modules", ".bin");
  if (!fs.existsSync(path.join(dir, "pulumi-resource-secretops")))
    throw new Error(`no pulumi-resource-secretops in ${dir}`);
  return { dir, dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** The environment of a stack whose program reaches the native provider. */
export function nativeEnv(pluginDir: string): Record<string, string> {
  return { PATH: [languagesBinDir(), pluginDir, process.env.PATH].join(path.delimiter) };
}

/** A copy of a program directory (its Pulumi.yaml edited by `edit`), to run a variant of it; removed with `dispose`. */
export function programVariant(from: string, edit: (text: string) => string): { dir: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-program-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), edit(fs.readFileSync(path.join(from, "Pulumi.yaml"), "utf8")));
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
