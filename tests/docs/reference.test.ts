import * as fs from "node:fs";
import * as path from "node:path";
import { referenceDocs } from "../../scripts/reference-docs";

const repoRoot = path.resolve(__dirname, "..", "..");
/** What `npm run docs` would write today, built once for the tests (a TypeScript program and a prettier run per page). */
let generated: Record<string, string> | undefined;
const expectedDocs = () => (generated ??= referenceDocs(repoRoot));

/** docs/reference/ is what `npm run docs` writes from the schemas today. */
test("docs/reference/ is up to date with the schemas (else run `npm run docs`)", () => {
  const dir = path.join(repoRoot, "docs", "reference");
  const expected = expectedDocs();
  expect(fs.readdirSync(dir).sort()).toEqual(Object.keys(expected).sort());
  for (const [file, text] of Object.entries(expected)) {
    expect({ file, text: fs.readFileSync(path.join(dir, file), "utf8") }).toEqual({ file, text });
  }
}, 120_000);

/** The tables of a page: each one's first-column names, and the list right under it (name → text). */
function tablesOf(text: string): { names: string[]; notes: Map<string, string> }[] {
  const blocks = text.split(/\n\s*\n/);
  return blocks.flatMap((block, i) => {
    const rows = block.split("\n").filter((l) => l.startsWith("| `"));
    if (rows.length === 0) return [];
    const names = rows.map((l) => l.split("|")[1]!.trim().replace(/^`|`$/g, ""));
    const notes = new Map(
      (blocks[i + 1] ?? "")
        .split(/\n(?=- )/)
        .map((l) => /^- `([^`]+)`(?: \([^\n]*?\))?: ([\s\S]*)$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1]!, m[2]!.trim()]),
    );
    return [{ names, notes }];
  });
}

/** Every arg is documented where it is declared, on its schema, so a new field without a doc fails here. */
test("every arg and option in a reference table has its description under the table", () => {
  const undocumented = Object.entries(expectedDocs())
    .filter(([file]) => file !== "kinds.md")
    .flatMap(([file, text]) =>
      tablesOf(text).flatMap(({ names, notes }) =>
        names.filter((n) => (notes.get(n) ?? "") === "").map((n) => `${file}: ${n}`),
      ),
    );
  expect([...new Set(undocumented)]).toEqual([]);
}, 120_000);

/** Tables read as plain markdown: prettier pads every row to the widest, so one long cell widens them all. */
test("every reference table row is at most 200 characters", () => {
  const wide = Object.entries(expectedDocs()).flatMap(([file, text]) =>
    text
      .split("\n")
      .filter((line) => line.startsWith("|") && line.length > 200)
      .map((line) => `${file}: ${line.length}: ${line.slice(0, 60)}…`),
  );
  expect([...new Set(wide)]).toEqual([]);
}, 120_000);

/** The args every kind shares are written once per page, not under each kind. */
test("no arg's row and description are repeated under every kind", () => {
  for (const [file, text] of Object.entries(expectedDocs())) {
    if (file === "kinds.md") continue;
    const tables = tablesOf(text);
    const sections = tables.length;
    const counts = new Map<string, number>();
    for (const t of tables) for (const n of new Set(t.names)) counts.set(n, (counts.get(n) ?? 0) + 1);
    const everywhere = [...counts].filter(([, n]) => sections > 3 && n === sections).map(([name]) => name);
    expect({ file, everywhere }).toEqual({ file, everywhere: [] });
    expect({ file, nullOrNull: text.includes("null or null") }).toEqual({ file, nullOrNull: false });
  }
}, 120_000);
