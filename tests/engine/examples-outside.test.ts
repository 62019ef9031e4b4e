import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { packInto } from "../../scripts/packed-install";
import { type DocMachine, runShBlock, shBlock } from "./doc-blocks";
import { repoRoot } from "./harness";

/**
 * Every example, copied out of the repository and installed as its README says, previews: the
 * first block of its README's "Run it against the emulator", run as written in the copy
 * (./doc-blocks.ts: the packed package and the test's emulator stand in for the registry's and
 * port 8787's). The TypeScript examples are type-checked, as a plain `pulumi preview` does, with
 * the TypeScript their own `npm install` brings. (examples/python and examples/go are copied from
 * the installed package by docs/native-provider.md's blocks: tests/engine/native-docs.test.ts;
 * examples/policy is a policy pack: tests/policy/packed.test.ts.)
 */
jest.setTimeout(30 * 60_000);

const SECTION = "Run it against the emulator";
const examples = fs
  .readdirSync(path.join(repoRoot, "examples"))
  .filter((name) => {
    const readme = path.join(repoRoot, "examples", name, "README.md");
    return fs.existsSync(readme) && fs.readFileSync(readme, "utf8").includes(`## ${SECTION}\n`);
  })
  .sort();

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let machine: DocMachine;
let work: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, rateLimits: false, syncJobDelayMs: 50 });
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-examples-outside-"));
  machine = { tarball: path.join(work, packInto(repoRoot, work)), emulatorUrl: emulator.url };
});
afterAll(async () => {
  await emulator?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("every program example has the section", () => {
  expect(examples).toEqual(
    expect.arrayContaining(["app-connection", "ci", "quickstart", "secret-sync", "secret-rotation", "yaml"]),
  );
});

test.each(examples)("examples/%s, copied out and installed as its README says, previews", async (name) => {
  const source = path.join(repoRoot, "examples", name);
  const copy = path.join(work, name);
  // What a user copies: the example's files, not what this checkout made in it.
  fs.cpSync(source, copy, {
    recursive: true,
    filter: (f) => !/node_modules|Pulumi\.[^/]+\.yaml$|package-lock\.json$/.test(path.relative(source, f)),
  });
  const out = await runShBlock(copy, shBlock(path.join(source, "README.md"), SECTION), machine);
  expect(out).toContain("Previewing update");
  expect(out).not.toMatch(/error:/);
});
