import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Concurrent `npm install`s share npm's cache (two jest workers install the packed package at
 * once). The cache (cacache) takes no lock: entries are content-addressed and written to a
 * temporary file, then renamed into place, so two installs can read and fill it at once. Here two
 * installs of the same packages into two directories, at the same time, through one cache, both
 * finish; each also has its timeout, as every child of the tests (scripts/run-sync.ts).
 */
jest.setTimeout(5 * 60_000);

/** `npm install` of `packages` in `dir`, through npm's default cache, killed (with its group) after `timeoutMs`. */
function install(dir: string, packages: string[], timeoutMs: number) {
  return new Promise<{ code: number | null; ms: number }>((resolve) => {
    const started = Date.now();
    const child = spawn(
      "npm",
      ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline", ...packages],
      { cwd: dir, stdio: "ignore", detached: true },
    );
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started });
    });
  });
}

test("two npm installs at once through one cache both finish", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-npm-cache-"));
  try {
    const packages = ["zod@4", "commander@14", "axios@1"];
    const dirs = ["a", "b"].map((d) => {
      const dir = path.join(root, d);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `concurrent-${d}`, private: true }));
      return dir;
    });
    const results = await Promise.all(dirs.map((dir) => install(dir, packages, 3 * 60_000)));
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    for (const dir of dirs) expect(fs.existsSync(path.join(dir, "node_modules", "zod", "package.json"))).toBe(true);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
