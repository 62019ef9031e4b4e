import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/**
 * The length of every function in the product's folders, for the rule "no function over about 80
 * lines in provider/, sdk/ or emulator/, data tables aside" (docs/ARCHITECTURE.md). A function's
 * length is its lines from the first to the last, less the lines of the data tables it holds: an
 * object or array literal with no function in it (a row, a list of names) counts as one line. A
 * function nested in another counts in both, as a closure is read with the function holding it.
 *
 * tests/docs/function-lengths.test.ts holds the rule. To list the functions over `limit` lines (40
 * unless given), longest first, from the repository's root:
 *
 *   npx tsc scripts/function-lengths.ts --outDir node_modules/.cache/lengths --module commonjs \
 *     --target es2022 --types node --skipLibCheck && node node_modules/.cache/lengths/function-lengths.js 60
 */

export const PRODUCT_FOLDERS = ["provider", "sdk", "emulator"] as const;
export const FUNCTION_LINE_LIMIT = 80;

export interface FunctionLength {
  /** `folder/file.ts:line`, the function's first line. */
  at: string;
  /** The function's name, as the code calls it (`<anonymous>` for a callback). */
  name: string;
  lines: number;
}

const isFunction = (node: ts.Node): node is ts.SignatureDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

const isLiteral = (node: ts.Node) => ts.isObjectLiteralExpression(node) || ts.isArrayLiteralExpression(node);

function holdsFunction(node: ts.Node): boolean {
  return isFunction(node) || (ts.forEachChild(node, (child) => holdsFunction(child) || undefined) ?? false);
}

/** The name a function goes by: its own, or the variable, property or argument slot it fills. */
function nameOf(fn: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(file);
  const parent = fn.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(file).slice(0, 40)}>`;
  return "<anonymous>";
}

/** The lines of the function, less those of the data tables in it. */
function linesOf(fn: ts.Node, file: ts.SourceFile): number {
  const line = (pos: number) => file.getLineAndCharacterOfPosition(pos).line;
  let tableLines = 0;
  const visit = (node: ts.Node) => {
    if (isLiteral(node) && !holdsFunction(node)) {
      tableLines += line(node.getEnd()) - line(node.getStart(file));
      return;
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn, visit);
  return line(fn.getEnd()) - line(fn.getStart(file)) + 1 - tableLines;
}

/** Every function of one source file, with its length. */
export function functionLengths(fileName: string, text: string, label = fileName): FunctionLength[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && "body" in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      out.push({ at: `${label}:${start}`, name: nameOf(node, file), lines: linesOf(node, file) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The TypeScript files under a folder, tests and declarations left out. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /(?<!\.d|\.test)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Every function of the product's folders under `root`, longest first. */
export function productFunctionLengths(root: string): FunctionLength[] {
  return PRODUCT_FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)))
    .flatMap((file) => functionLengths(file, fs.readFileSync(file, "utf8"), path.relative(root, file)))
    .sort((a, b) => b.lines - a.lines || a.at.localeCompare(b.at));
}

if (require.main === module) {
  const limit = Number(process.argv[2] ?? 40);
  for (const f of productFunctionLengths(process.cwd()).filter((f) => f.lines > limit))
    console.log(`${String(f.lines).padStart(4)}  ${f.at}  ${f.name}`);
}
