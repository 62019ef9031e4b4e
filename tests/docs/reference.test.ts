import * as fs from "node:fs";
import * as path from "node:path";
import { referenceDocs } from "../../scripts/reference-docs";

const repoRoot = path.resolve(__dirname, "..", "..");
/** What `npm run docs` would write today, built once for both tests (a TypeScript program and a prettier run per page). */
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
}, 60_000);

/** Every arg is documented where it is declared, on its schema, so a new field without a doc fails here. */
test("every arg and option in docs/reference/ has a description", () => {
  const undocumented = Object.entries(expectedDocs()).flatMap(([file, text]) =>
    text
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .filter((cells) => cells.at(-2) === "")
      .map((cells) => `${file}: ${cells[1]}`),
  );
  expect([...new Set(undocumented)]).toEqual([]);
}, 60_000);
