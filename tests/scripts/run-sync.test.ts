import { runAsync, runSync } from "../../scripts/run-sync";

// Every child a test or a script starts runs through runSync (or has a timeout of its own): a hung
// one fails its test within the timeout, with its whole process tree killed, and the run goes on.

/** Whether a process is still there (a zombie awaiting its parent counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !runSync("ps", ["-o", "stat=", "-p", String(pid)], { timeoutMs: 10_000 })
      .trim()
      .startsWith("Z");
  } catch {
    return false;
  }
}

test("a hung child and the child it started are killed at the timeout; the error names it and its last output", () => {
  // A child that starts a grandchild, prints its pid and hangs, as a stalled `npm install` does.
  const script =
    "const c = require('node:child_process').spawn('sleep', ['300'], { stdio: 'ignore' });" +
    "console.log('grandchild ' + c.pid); setInterval(() => {}, 1000);";
  const started = Date.now();
  let message = "";
  try {
    runSync(process.execPath, ["-e", script], { timeoutMs: 1_500 });
  } catch (e) {
    message = (e as Error).message;
  }
  const took = Date.now() - started;
  expect(message).toContain(`${process.execPath} -e`);
  expect(message).toContain("timed out after 2 s and was killed with its child processes; it last printed:");
  const grandchild = Number(/grandchild (\d+)/.exec(message)?.[1]);
  expect(grandchild).toBeGreaterThan(0);
  // SIGTERM at 2 s reaches the whole group; SIGKILL would follow 5 s later.
  expect(took).toBeLessThan(8_000);
  expect(alive(grandchild)).toBe(false);
});

test("runAsync, its twin for a child that talks to the test's own server, kills the same way", async () => {
  const script =
    "const c = require('node:child_process').spawn('sleep', ['300'], { stdio: 'ignore' });" +
    "console.log('grandchild ' + c.pid); setInterval(() => {}, 1000);";
  const started = Date.now();
  const message = await runAsync(process.execPath, ["-e", script], { timeoutMs: 1_500 }).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(message).toContain("timed out after 2 s and was killed with its child processes; it last printed:");
  expect(Date.now() - started).toBeLessThan(8_000);
  const grandchild = Number(/grandchild (\d+)/.exec(message)?.[1]);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(alive(grandchild)).toBe(false);
  expect(await runAsync("bash", ["-c", "cat"], { timeoutMs: 10_000, input: "piped" })).toBe("piped");
});

test("a failing child's error names it, its exit code and what it printed; a good one returns its output", () => {
  expect(() => runSync("bash", ["-c", "echo to-stdout; echo to-stderr >&2; exit 3"], { timeoutMs: 10_000 })).toThrow(
    /bash -c .* failed \(exit code 3\); it last printed:\nto-stdout\nto-stderr/,
  );
  expect(runSync("bash", ["-c", "cat"], { timeoutMs: 10_000, input: "piped" })).toBe("piped");
});

test("no synchronous child in tests/ or scripts/ runs without a timeout", () => {
  // execFileSync, spawnSync and execSync block their jest worker: each call needs a `timeout`
  // option, or runs through coreutils' `timeout` (runSync, scripts/demo.js).
  const ts = require("typescript") as typeof import("typescript");
  const fs = require("node:fs") as typeof import("node:fs");
  const path = require("node:path") as typeof import("node:path");
  const root = path.resolve(__dirname, "..", "..");
  const files = ["tests", "scripts"].flatMap((dir) =>
    fs
      .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(ts|js)$/.test(f) && !f.includes("node_modules"))
      .map((f) => path.join(dir, f)),
  );
  const unbounded: string[] = [];
  let calls = 0;
  for (const file of files) {
    const source = ts.createSourceFile(
      file,
      fs.readFileSync(path.join(root, file), "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: import("typescript").Node) => {
      if (ts.isCallExpression(node) && /^(execFileSync|spawnSync|execSync)$/.test(node.expression.getText(source))) {
        calls++;
        const [first] = node.arguments;
        const underTimeout = first !== undefined && ts.isStringLiteral(first) && first.text === "timeout";
        const withOption = node.arguments.some(
          (a) => ts.isObjectLiteralExpression(a) && a.properties.some((p) => p.name?.getText(source) === "timeout"),
        );
        if (!underTimeout && !withOption) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          unbounded.push(`${file}:${line}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(calls).toBeGreaterThan(0);
  expect(unbounded).toEqual([]);
});
