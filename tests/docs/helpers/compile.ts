import * as path from "node:path";
import * as ts from "typescript";
import { virtualProgram } from "../../../scripts/virtual-program";

/**
 * Compiles small programs against the package's types, as a user's editor and `tsc` would, and
 * returns what the compiler says about each: one TypeScript program for all of them, with each
 * snippet a file of its own that imports from "secretops-pulumi" (mapped to this checkout's
 * `index.ts`, so no build is needed). Only the snippets are checked, so the package's own files
 * cost only what the snippets' types need.
 */

const repoRoot = path.resolve(__dirname, "..", "..", "..");

/** One diagnostic of a snippet: its 1-based line and its message, chained messages joined by newlines. */
export interface SnippetDiagnostic {
  line: number;
  code: number;
  message: string;
}

export function compileSnippets(snippets: Record<string, string>): Record<string, SnippetDiagnostic[]> {
  return compile(snippets).diagnostics;
}

/** What the compiler made to check one program: the types and instantiations it created, and its messages. */
export interface CheckCost {
  types: number;
  instantiations: number;
  diagnostics: SnippetDiagnostic[];
}

/** Checks one program against the package's types, alone in its compiler, and counts what that took. */
export function checkCost(program: string): CheckCost {
  const { diagnostics, program: compiled } = compile({ program });
  return {
    types: compiled.getTypeCount(),
    instantiations: compiled.getInstantiationCount(),
    diagnostics: diagnostics.program!,
  };
}

function compile(snippets: Record<string, string>): {
  diagnostics: Record<string, SnippetDiagnostic[]>;
  program: ts.Program;
} {
  const dir = path.join(repoRoot, "tests", "docs", "__snippets__");
  const files = new Map(Object.entries(snippets).map(([name, text]) => [path.join(dir, `${name}.ts`), text]));
  const program = virtualProgram(files, { baseUrl: repoRoot, paths: { "secretops-pulumi": ["index.ts"] } });
  const out: Record<string, SnippetDiagnostic[]> = {};
  // Problems of no file (options, global types) belong to every snippet: none compiles without them.
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const [file, _] of files) {
    const source = program.getSourceFile(file)!;
    const diagnostics = [
      ...global,
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    out[path.basename(file, ".ts")] = diagnostics.map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
      code: d.code,
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    }));
  }
  return { diagnostics: out, program };
}
