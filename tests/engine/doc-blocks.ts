import * as fs from "node:fs";
import * as path from "node:path";
import { TIMEOUTS, runAsync } from "../../scripts/run-sync";
import { pulumiBinDir } from "./harness";
import { languagesBinDir } from "./native";

/**
 * The shell blocks of a page, run as written, as a newcomer copies them: a shell runs a block's
 * lines one by one and stops at the first that fails. What a machine of the tests has in place of
 * a user's: `npm install secretops-pulumi` and `npm install <clone>/secretops-pulumi-<version>.tgz`
 * install this checkout's `npm pack` tarball (the package is not on a registry), the emulator's
 * URL is the test's own emulator's instead of port 8787, and the backend is the directory itself
 * (what `pulumi login --local` would give).
 */

/** The first ```sh block of the section `## heading` of the markdown file `file`. */
export function shBlock(file: string, heading: string): string {
  const section = fs
    .readFileSync(file, "utf8")
    .split(/^## /m)
    .find((s) => s.startsWith(`${heading}\n`));
  const code = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`no sh block under "## ${heading}" in ${file}`);
  return code;
}

/** What stands in for the user's package and service. */
export interface DocMachine {
  /** This checkout's `npm pack` tarball. */
  tarball: string;
  /** The emulator the block's `http://127.0.0.1:8787` means. */
  emulatorUrl: string;
}

/**
 * Runs `code` in `dir` (which exists) as written but for the stand-ins; resolves to what it
 * printed. Not synchronous: the block's programs talk to the test's emulator, in this process.
 */
export function runShBlock(dir: string, code: string, machine: DocMachine): Promise<string> {
  const script = code
    .replace(
      /npm install (secretops-pulumi|<clone>\/secretops-pulumi-<version>\.tgz)(?=\s|$)/,
      `npm install --no-audit --no-fund ${machine.tarball}`,
    )
    .replaceAll("http://127.0.0.1:8787", machine.emulatorUrl);
  if (script === code) throw new Error("the block neither installs the package nor names the emulator");
  return runAsync("bash", ["-e", "-c", `${script}\n`], {
    cwd: dir,
    timeoutMs: TIMEOUTS.build,
    env: {
      ...process.env,
      // The engine and the language hosts of this machine (scripts/ensure-pulumi.sh --languages).
      PATH: [languagesBinDir(), pulumiBinDir(), process.env.PATH].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${dir}`,
      PULUMI_CONFIG_PASSPHRASE: "doc-blocks-passphrase",
      PULUMI_HOME: path.join(dir, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  });
}
