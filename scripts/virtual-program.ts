import * as path from "node:path";
import * as ts from "typescript";

/**
 * A TypeScript program whose root files are held in memory (`files`: absolute path → text), beside
 * the files on disk they import, with the options a user's strict program has (`extra` adds some).
 * Shared by scripts/program-types.ts and the compile tests (tests/docs/helpers/compile.ts).
 */
export function virtualProgram(files: ReadonlyMap<string, string>, extra: ts.CompilerOptions = {}): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    types: [],
    ...extra,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  const held = (f: string) => files.get(path.resolve(f));
  host.getSourceFile = (f, v, ...rest) => {
    const text = held(f);
    return text !== undefined ? ts.createSourceFile(f, text, v) : getSourceFile.call(host, f, v, ...rest);
  };
  host.fileExists = (f) => held(f) !== undefined || fileExists.call(host, f);
  host.readFile = (f) => held(f) ?? readFile.call(host, f);
  return ts.createProgram([...files.keys()], options, host);
}
