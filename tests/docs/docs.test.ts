import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";

/**
 * The user guide tells the truth: its TypeScript examples compile against the package's types,
 * and every relative link in the documents the package ships points to a file the package ships.
 */

const repoRoot = path.resolve(__dirname, "..", "..");
const read = (f: string) => fs.readFileSync(path.join(repoRoot, f), "utf8");

describe("README's TypeScript examples", () => {
  test("compile against the package's types", () => {
    const blocks = [...read("README.md").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // Each block in a scope of its own; its imports hoisted; the ids it leaves to the reader declared.
    const imports = blocks.flatMap((b) => b.split("\n").filter((l) => l.startsWith("import ")));
    const body = blocks.map((b) => `{\n${b.replace(/^import .*$/gm, "")}\n}`).join("\n");
    const source = [
      `import { SecretSync, SecretRotation, CertificateProfile, AppConnection, AppConnectionSettings, getAuditLogsOutput } from "secretops-pulumi";`,
      ...imports.filter((l) => !l.includes('"secretops-pulumi"')),
      "declare const projectId: string, connectionId: string, certificatePolicyId: string, caId: string;",
      // pulumi.Config, as far as the examples use it (a secret is an Output<string>, an Input<string>).
      "declare const config: { requireSecret(key: string): string };",
      "export {};",
      body,
    ].join("\n");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-readme-"));
    try {
      const file = path.join(dir, "readme.ts");
      fs.writeFileSync(file, source);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        moduleResolution: ts.ModuleResolutionKind.Node10,
        esModuleInterop: true,
        types: [],
        baseUrl: repoRoot,
        paths: { "secretops-pulumi": ["index.ts"] },
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file || d.file === undefined)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      expect({ problems, source }).toEqual({ problems: [], source });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("links of the shipped documents", () => {
  const shipped = new Set(
    (
      JSON.parse(
        execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot, encoding: "utf8" }),
      ) as { files: { path: string }[] }[]
    )[0]!.files.map((f) => f.path),
  );
  const documents = [...shipped].filter((f) => f.endsWith(".md"));

  test("the package ships the user guide, docs/ and examples/", () => {
    expect(documents).toEqual(expect.arrayContaining(["README.md", "docs/resources.md", "examples/ci/README.md"]));
  });

  test.each(documents)("%s: every relative link points to a file the package ships", (doc) => {
    // Code blocks and inline code are not links (a pattern like `^[a-z]([a-z-]*)$` looks like one).
    const text = read(doc)
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, "");
    const dead: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith("#")) continue;
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target!.split("#")[0]!));
      const isDir = [...shipped].some((f) => f.startsWith(`${file.replace(/\/$/, "")}/`));
      if (!shipped.has(file) && !isDir) dead.push(target!);
    }
    expect(dead).toEqual([]);
  });
});
