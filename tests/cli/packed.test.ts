import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NEWEST_TYPESCRIPT, installPacked } from "../../scripts/packed-install";
import { alive } from "../engine/processes";
import { firstLine, run } from "./run";

// From a fresh directory: `npm install <the packed package>` beside the newest TypeScript and no
// ts-node, then `npx secretops ...`.
jest.setTimeout(10 * 60_000);

const repoRoot = path.resolve(__dirname, "..", "..");
const programs = path.join(__dirname, "programs");

/** A tsconfig.json a TypeScript 6 user writes (6 refuses moduleResolution node: TS5107). */
const TSCONFIG = {
  compilerOptions: { strict: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext" },
};

describe("secretops from the packed package", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-cli-"));
  /** A program of tests/cli/programs in a directory of the user's project (its node_modules above it). */
  const program = (name: string, from: string, edits: [string, string][] = [], tsconfig?: object) => {
    const target = path.join(dir, name);
    fs.cpSync(path.join(programs, from), target, { recursive: true });
    const entry = path.join(target, "index.ts");
    let source = fs.readFileSync(entry, "utf8");
    for (const [a, b] of edits) source = source.replace(a, b);
    fs.writeFileSync(entry, source);
    if (tsconfig) fs.writeFileSync(path.join(target, "tsconfig.json"), JSON.stringify(tsconfig));
    return name;
  };
  const check = (args: string[]) => run("npx", ["--no", "secretops", "check", ...args], { cwd: dir });

  beforeAll(() => {
    installPacked(repoRoot, dir, { devDependencies: { typescript: NEWEST_TYPESCRIPT } });
    for (const f of ["index.js", "Pulumi.yaml"]) {
      fs.copyFileSync(path.join(programs, "invalid", f), path.join(dir, f));
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("npx secretops emulator --json prints its line", async () => {
    const emu = firstLine("npx", ["--no", "secretops", "emulator", "--json", "--port", "0"], { cwd: dir });
    try {
      const summary = JSON.parse(await emu.line);
      expect(summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.token).toBeTruthy();
    } finally {
      await emu.stop();
    }
  });

  it("kill $! after `npx secretops emulator --port 0 --json &` leaves no emulator running", async () => {
    // As a script runs it: `$!` is `npm exec`'s pid, which does not pass the signal on; the server,
    // whose pid the JSON line gives, sees that it was orphaned and stops.
    const script = [
      "npx --no secretops emulator --port 0 --json > line.json &",
      "pid=$!",
      "for i in $(seq 1 300); do [ -s line.json ] && break; sleep 0.1; done",
      "kill $pid",
    ].join("\n");
    const r = await run("bash", ["-c", script], { cwd: dir });
    expect(r.code).toBe(0);
    const line = JSON.parse(fs.readFileSync(path.join(dir, "line.json"), "utf8"));
    expect(line.pid).toBeGreaterThan(0);
    const gone = async () => {
      for (let i = 0; i < 50; i++) {
        if (!alive(line.pid)) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    };
    expect(await gone()).toBe(true);
    await expect(fetch(`${line.url}/api/status`)).rejects.toThrow();
  });

  it("npx secretops check lists all three invalid resources and exits 1", async () => {
    const r = await check([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^SecretSync bad-sync: name: /m);
    expect(r.stdout).toMatch(/^SecretRotation bad-rotation: rotationInterval: /m);
    expect(r.stdout).toMatch(/^CertificateProfile bad-profile: slug: /m);
  });

  describe(`a TypeScript program, with TypeScript ${NEWEST_TYPESCRIPT} and no ts-node`, () => {
    it("the user's project has that TypeScript and no ts-node", () => {
      const ts = require(require.resolve("typescript/package.json", { paths: [dir] })) as { version: string };
      expect(ts.version).toBe(NEWEST_TYPESCRIPT);
      expect(() => require.resolve("ts-node", { paths: [dir] })).toThrow();
    });

    it("without a tsconfig.json: the README's program passes (its connectionId is db.id)", async () => {
      const r = await check([program("readme", "readme"), "--config", "ordersDbPassword=p"]);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("2 secretops resources checked, all valid\n");
      expect(r.code).toBe(0);
    });

    it("with a tsconfig.json: it passes, and an invalid field is named", async () => {
      const valid = await check([program("with-tsconfig", "readme", [], TSCONFIG), "--config", "ordersDbPassword=p"]);
      expect(valid.stdout + valid.stderr).toBe("2 secretops resources checked, all valid\n");
      expect(valid.code).toBe(0);
      const edits: [string, string][] = [["rotationInterval: 30", "rotationInterval: 0"]];
      const invalid = await check([program("invalid-ts", "readme", edits, TSCONFIG), "--config", "ordersDbPassword=p"]);
      expect(invalid.stdout).toBe("SecretRotation orders-db-rotation: rotationInterval: must be at least 1 (days)\n");
      expect(invalid.stderr).toBe("secretops: 1 of 2 secretops resources invalid (1 problem)\n");
      expect(invalid.code).toBe(1);
    });
  });
});
