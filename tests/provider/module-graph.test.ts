import * as fs from "node:fs";
import * as path from "node:path";

// A provider process serving only secret syncs (a refresh of a stack of syncs) loads the sync
// family's schemas and route rows, not the other families' kind tables: each of its modules costs
// CPU time in every operation the engine runs (provider/provider-process.ts, sdk/client.ts,
// sdk/schemas/operations/). This follows the static imports that run when a module loads; a
// `require` inside a function (a definition or a family's API, loaded on first use) is not one.

const root = path.resolve(__dirname, "..", "..");

/** The repository's modules a module's top-level imports load (type-only imports load nothing). */
function staticImports(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers = [
    ...source.matchAll(/^import\s+(?!type\s)[^;]*?\bfrom\s+"([^"]+)";/gms),
    ...source.matchAll(/^import\s+"([^"]+)";/gm),
    ...source.matchAll(/^export\s+(?!type\s)[^;]*?\bfrom\s+"([^"]+)";/gms),
  ]
    // `import { type A, type B } from` is elided by the compiler.
    .filter((m) => !/^import\s+\{(\s*type\s+\w+\s*,?)+\}/.test(m[0]))
    .map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith(".")).map((s) => resolve(path.dirname(file), s));
}

function resolve(dir: string, specifier: string): string {
  const base = path.resolve(dir, specifier);
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts")]) if (fs.existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve ${specifier} from ${dir}`);
}

function loaded(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    staticImports(file).forEach(visit);
  };
  entries.map((e) => path.join(root, e)).forEach(visit);
  return new Set([...seen].map((f) => path.relative(root, f)));
}

test("a provider process serving secret syncs loads no other family's kind table", () => {
  // What a refresh of syncs runs: the serialized provider's module, the sync definition and the
  // SDK's client with its sync API.
  const modules = loaded([
    "provider/runtime/SecretSync.ts",
    "provider/secret-sync.ts",
    "sdk/client.ts",
    "sdk/secret-syncs.ts",
  ]);
  expect(modules).toContain("sdk/schemas/secret-syncs.ts");
  expect(modules).toContain("sdk/schemas/sync-destinations/vercel.ts");
  const others = [...modules].filter(
    (m) =>
      m.startsWith("sdk/schemas/rotation-types/") ||
      m.startsWith("sdk/schemas/connection-kinds/index") ||
      /^sdk\/schemas\/(index|app-connections|secret-rotations|certificate-profiles|audit-logs|event-types)\.ts$/.test(
        m,
      ) ||
      /^sdk\/schemas\/operations\/(index|app-connections|secret-rotations|certificate-profiles|audit-logs)\.ts$/.test(
        m,
      ) ||
      /^sdk\/(index|app-connections|secret-rotations|certificate-profiles|audit-logs)\.ts$/.test(m),
  );
  expect(others).toEqual([]);
});

test("the import follower sees what it must: the barrel loads every family", () => {
  const modules = loaded(["sdk/schemas/index.ts"]);
  expect(modules).toContain("sdk/schemas/connection-kinds/index.ts");
  expect(modules).toContain("sdk/schemas/rotation-types/index.ts");
  expect(modules).toContain("sdk/schemas/operations/certificate-profiles.ts");
});

test("a program loads no definition, schema or API client: its classes are built from a table", () => {
  // What `require("secretops-pulumi")` runs in the program: the entry and what it imports. The
  // definitions, their schemas (and zod) and the SDK load only in the provider process; the
  // audit-log query loads its own on first use.
  const modules = [...loaded(["index.ts"])].sort();
  expect(modules).toEqual([
    "index.ts",
    "provider/config.ts",
    "provider/index.ts",
    "provider/program-resources.ts",
    "provider/program-side.ts",
    "provider/setting-sources.ts",
    "provider/values.ts",
  ]);
});
