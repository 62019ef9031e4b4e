import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { packInto } from "../../scripts/packed-install";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";
import { pulumiBinDir, repoRoot } from "./harness";
import { languagesBinDir } from "./native";

/**
 * docs/native-provider.md's Python and Go blocks, run as written, in order, each in a fresh
 * directory, as a newcomer copies them: a shell runs the block's lines one by one and stops at the
 * first that fails. Three things a machine of the tests has in place of a user's: `npm install
 * secretops-pulumi` installs this checkout's `npm pack` tarball (the package is not on a registry,
 * as the page says), the emulator's URL is the test's own emulator's instead of port 8787, and the
 * backend is a local directory (the environment `pulumi login` would leave). The block ends in a
 * preview, which must plan the example's resources.
 */
jest.setTimeout(20 * 60_000);

const page = fs.readFileSync(path.join(repoRoot, "docs", "native-provider.md"), "utf8");

/** The first ```sh block of the page's section `heading`. */
function block(heading: string): string {
  const section = page.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  const code = section && /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error(`no sh block under "## ${heading}" in docs/native-provider.md`);
  return code;
}

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let tarball: string;
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 50 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-docs-"));
  tarball = path.join(work, packInto(repoRoot, work));
});
afterAll(async () => {
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Runs a block of the page in a fresh directory; returns what it printed. */
function runBlock(name: string, code: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  const script = code
    .replace(
      "npm install secretops-pulumi",
      `npm install --no-audit --no-fund ${tarball} @pulumi/pulumi@${pulumiVersion()}`,
    )
    .replaceAll("http://127.0.0.1:8787", emulator.url);
  expect(script).not.toBe(code);
  return runSync("bash", ["-e", "-c", `${script}\n`], {
    cwd: dir,
    timeoutMs: TIMEOUTS.build,
    env: {
      ...process.env,
      // The engine and the language hosts of this machine (scripts/ensure-pulumi.sh --languages).
      PATH: [languagesBinDir(), pulumiBinDir(), process.env.PATH].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${dir}`,
      PULUMI_CONFIG_PASSPHRASE: "native-docs-passphrase",
      PULUMI_HOME: path.join(dir, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    },
  });
}

const pulumiVersion = () =>
  JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;

test("the Python block runs as written and the example previews", () => {
  const out = runBlock("python", block("Python"));
  expect(out).toMatch(/secretops:index:SecretSync\s+web-to-vercel/);
  expect(out).toMatch(/\+ 5 to create|5 to create/);
});

test("the Go block runs as written and the example previews", () => {
  const out = runBlock("go", block("Go"));
  expect(out).toMatch(/secretops:index:SecretSync\s+web-to-vercel/);
  expect(out).toMatch(/3 to create/);
});
