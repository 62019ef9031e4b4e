import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { secretops } from "./run";

// `secretops check` on programs whose resources use each other's outputs (issue 26): a value the
// engine does not know at preview (an id, or what is built from one) is not judged, as `pulumi
// preview` does not judge it; a known value still is. TypeScript is loaded as the engine loads it.
jest.setTimeout(5 * 60_000);

const programs = path.join(__dirname, "programs");
const repoRoot = path.resolve(__dirname, "..", "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-check-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * A copy of a program outside this checkout, with `edits` made to its entry file, resolving
 * secretops-pulumi and @pulumi/pulumi from the checkout's node_modules as an installed program
 * does. (Inside the checkout, TypeScript's nodenext resolution would find the package's own
 * package.json above the program: TS2209.)
 */
function copyOf(program: string, entry: string, edits: [string, string][] = []): string {
  const dir = fs.mkdtempSync(path.join(tmp, `${program}-`));
  fs.cpSync(path.join(programs, program), dir, { recursive: true });
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  let source = fs.readFileSync(path.join(dir, entry), "utf8");
  for (const [from, to] of edits) {
    expect(source).toContain(from);
    source = source.replace(from, to);
  }
  fs.writeFileSync(path.join(dir, entry), source);
  return dir;
}

describe("connections made in code (connectionId: conn.id)", () => {
  it("passes: ids and what is built from them are unknown, secret config too, and the rest is checked", async () => {
    const r = await secretops(["check", path.join(programs, "connections")]);
    expect(r.stdout).toBe("7 secretops resources checked, all valid\n");
    // The Heroku token is `secure:` config: not decrypted, so unknown; its rule ("HRKU-…") waits for preview.
    expect(r.stderr).toBe(
      "secret config values are not decrypted (no engine): connections:herokuToken unknown, their rules left to pulumi preview\n",
    );
    expect(r.code).toBe(0);
  });

  it("still reports every known invalid value, beside the unknown ones", async () => {
    const dir = copyOf("connections", "index.js", [
      ["connectionId: ordersDb.id,", 'connectionId: "not-a-uuid",'],
      ['name: "web-vercel"', 'name: "Web_Vercel"'],
      ['  name: "vercel",', '  name: "Vercel Connection!",'],
    ]);
    const r = await secretops(["check", dir]);
    expect(r.code).toBe(1);
    const nameRule =
      'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")';
    expect(r.stdout.trim().split("\n").sort()).toEqual([
      `AppConnection vercel: name: ${nameRule}`,
      "SecretRotation orders-db-rotation: connectionId: must be a UUID",
      // Its connectionId (from the id) is unknown; its name is known.
      `SecretSync web-vercel: name: ${nameRule}`,
    ]);
    expect(r.stderr).toContain("secretops: 3 of 7 secretops resources invalid (3 problems)\n");
  });
});

describe("the README's program: TypeScript, no tsconfig.json, no ts-node", () => {
  it("is the README's code: its AppConnection example, verbatim", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((code) => code.includes('new AppConnection("orders-db"'));
    expect(block).toBeDefined();
    expect(fs.readFileSync(path.join(programs, "readme", "index.ts"), "utf8")).toContain(block!);
  });

  it("has no ts-node to find: the one @pulumi/pulumi vendors is used, as by the engine", () => {
    expect(() => require.resolve("ts-node", { paths: [repoRoot] })).toThrow();
  });

  it("passes, and reports a known invalid value in the words of preview, in the singular for one", async () => {
    const valid = await secretops(["check", copyOf("readme", "index.ts"), "--config", "ordersDbPassword=p"]);
    expect(valid.stderr).toBe("");
    expect(valid.stdout).toBe("2 secretops resources checked, all valid\n");
    expect(valid.code).toBe(0);

    const invalid = await secretops([
      "check",
      copyOf("readme", "index.ts", [["rotationInterval: 30", "rotationInterval: 0"]]),
      "--config",
      "ordersDbPassword=p",
    ]);
    expect(invalid.stdout).toBe("SecretRotation orders-db-rotation: rotationInterval: must be at least 1 (days)\n");
    expect(invalid.stderr).toBe("secretops: 1 of 2 secretops resources invalid (1 problem)\n");
    expect(invalid.code).toBe(1);
  });

  it("fails a program that does not compile, as the engine does (ts-node type-checks)", async () => {
    const dir = copyOf("readme", "index.ts", [["rotationInterval: 30", 'rotationInterval: "30"']]);
    const r = await secretops(["check", dir, "--config", "ordersDbPassword=p"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^secretops: the program failed: ⨯ Unable to compile TypeScript:\n/);
    expect(r.stderr).toMatch(/index\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type/);
  });
});

describe("an ES module program (package.json type module)", () => {
  it("is imported, as the engine does, and checked the same way", async () => {
    const r = await secretops(["check", copyOf("esm", "index.js")]);
    // The rotation's connectionId is the connection's id (unknown); its name is known, and invalid.
    expect(r.stdout).toBe(
      'SecretRotation orders-db-rotation: name: name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")\n',
    );
    expect(r.stderr).toBe("secretops: 1 of 2 secretops resources invalid (1 problem)\n");
    expect(r.code).toBe(1);
  });
});
