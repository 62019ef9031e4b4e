import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

// The emulator's modules depend on each other in one direction: no file imports, directly or
// through others, a file that imports it. A loop makes a module's load order decide which of its
// imports are still undefined while it runs (a CommonJS cycle), and ties files that should be read
// apart. Type-only imports count too: a loop through a type is still two files that each need the
// other. (tests/provider/module-graph.test.ts follows the imports that load at run time.)

const root = path.resolve(__dirname, "..", "..");
const emulatorDir = path.join(root, "emulator");

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? tsFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .filter((f) => f.endsWith(".ts"));
}

/** The files under `within` that `file` imports or re-exports from, type-only ones included. */
function imports(file: string, within = emulatorDir): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?\bfrom\s+"(\.[^"]+)";/gms)].map((m) => m[1]!);
  return specifiers
    .map((s) => {
      const base = path.resolve(path.dirname(file), s);
      return [`${base}.ts`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
    })
    .filter((f): f is string => f !== undefined && f.startsWith(within + path.sep));
}

/** Every loop of the graph a depth-first walk meets, each as the files along it. */
function loops(files: readonly string[], within = emulatorDir): string[][] {
  const graph = new Map(files.map((f) => [f, imports(f, within)]));
  const done = new Set<string>();
  const onPath: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      found.push([...onPath.slice(at), file].map((f) => path.relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  files.forEach(visit);
  return found;
}

test("the walk reads imports: the store is imported by the records, and the records by the fixtures", () => {
  const files = tsFiles(emulatorDir);
  expect(files.length).toBeGreaterThan(30);
  const rel = (f: string) => imports(path.join(emulatorDir, f)).map((x) => path.relative(emulatorDir, x));
  // a type-only import, and a value import
  expect(rel("records.ts")).toContain("store.ts");
  expect(rel("fixtures.ts")).toContain("records.ts");
  expect(rel("routes/secrets.ts")).toContain("records.ts");
});

test("the walk finds a loop when there is one", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "loop-check-"));
  try {
    fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = b;\n');
    fs.writeFileSync(path.join(dir, "b.ts"), 'import type { A } from "./a";\nexport const b = 1 as unknown as A;\n');
    const found = loops([path.join(dir, "a.ts"), path.join(dir, "b.ts")], dir);
    expect(found.map((l) => l.map((f) => path.basename(f)))).toEqual([["a.ts", "b.ts", "a.ts"]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("no file of emulator/ imports, through any chain, a file that imports it", () => {
  expect(loops(tsFiles(emulatorDir))).toEqual([]);
});
