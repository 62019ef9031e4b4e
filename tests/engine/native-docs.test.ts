import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { packInto } from "../../scripts/packed-install";
import { type DocMachine, runShBlock, shBlock } from "./doc-blocks";
import { repoRoot } from "./harness";

/**
 * docs/native-provider.md's Python and Go blocks, run as written, in order, each in a fresh
 * directory (./doc-blocks.ts: the packed package and the test's emulator stand in for the
 * registry's and port 8787's). Each ends in a preview that plans the example's resources.
 */
jest.setTimeout(20 * 60_000);

const page = path.join(repoRoot, "docs", "native-provider.md");

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let machine: DocMachine;
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 50 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-docs-"));
  machine = { tarball: path.join(work, packInto(repoRoot, work)), emulatorUrl: emulator.url };
});
afterAll(async () => {
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** The resources an example declares, and the stack: what its first preview plans to create. */
const planned = (file: string, declaration: RegExp) =>
  `${fs.readFileSync(path.join(repoRoot, "examples", file), "utf8").match(declaration)!.length + 1} to create`;

/** A fresh directory for a block. */
const fresh = (name: string) => {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  return dir;
};

test("the Python block runs as written and the example previews", async () => {
  const out = await runShBlock(fresh("python"), shBlock(page, "Python"), machine);
  expect(out).toMatch(/secretops:index:SecretSync\s+web-to-vercel/);
  expect(out).toContain(planned("python/__main__.py", /^\w+ = secretops\.[A-Z]\w*\(/gm));
});

test("the Go block runs as written and the example previews", async () => {
  const out = await runShBlock(fresh("go"), shBlock(page, "Go"), machine);
  expect(out).toMatch(/secretops:index:SecretSync\s+web-to-vercel/);
  expect(out).toContain(planned("go/main.go", /secretops\.New\w+\(ctx, "/g));
});
