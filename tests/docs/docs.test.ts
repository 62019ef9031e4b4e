import * as fs from "node:fs";
import * as path from "node:path";
import { markdownAnchors } from "../../scripts/markdown-anchors";
import { compileSnippets } from "./helpers/compile";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * The user guide tells the truth: its TypeScript examples compile against the package's types,
 * every relative link in the documents the package ships points to a file the package ships, and
 * every `#anchor` of those links to a heading (or HTML anchor) of its page, as GitHub renders it.
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
      `import { Project, ProjectEnvironment, SecretFolder, Secret, SecretSync, SecretRotation, CertificateProfile, AppConnection, AppConnectionSettings, getAuditLogsOutput } from "secretops-pulumi";`,
      ...imports.filter((l) => !l.includes('"secretops-pulumi"')),
      "declare const projectId: string, connectionId: string, certificatePolicyId: string, caId: string;",
      // pulumi.Config, as far as the examples use it (a secret is an Output<string>, an Input<string>).
      "declare const config: { requireSecret(key: string): string };",
      "export {};",
      body,
    ].join("\n");
    const problems = compileSnippets({ readme: source }).readme!.map((d) => d.message);
    expect({ problems, source }).toEqual({ problems: [], source });
  }, 120_000);
});

/** The README is the user guide's front page: details live in docs/ (issue 28: at most 300 lines). */
test("README.md is at most 300 lines", () => {
  expect(read("README.md").split("\n").length).toBeLessThanOrEqual(300);
});

describe("links of the shipped documents", () => {
  const shipped = new Set(
    (
      JSON.parse(
        runSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
          cwd: repoRoot,
          timeoutMs: TIMEOUTS.quick,
        }),
      ) as { files: { path: string }[] }[]
    )[0]!.files.map((f) => f.path),
  );
  const documents = [...shipped].filter((f) => f.endsWith(".md"));

  /** A document's relative links: the file each points to (relative to the package) and its `#anchor`, if any. */
  const relativeLinks = (doc: string) => {
    // Code blocks and inline code are not links (a pattern like `^[a-z]([a-z-]*)$` looks like one).
    const text = read(doc)
      .replace(/```[\s\S]*?```/g, "")
      .replace(/`[^`\n]*`/g, "");
    return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .map((target) => {
        const [file, anchor] = target.split("#") as [string, string | undefined];
        const resolved = file === "" ? doc : path.posix.normalize(path.posix.join(path.posix.dirname(doc), file));
        return { target, file: resolved, anchor };
      });
  };

  test("the package ships the user guide, docs/ and examples/", () => {
    expect(documents).toEqual(expect.arrayContaining(["README.md", "docs/resources.md", "examples/ci/README.md"]));
  });

  test("the package ships its LICENSE, the Apache-2.0 text package.json names, and CHANGELOG.md", () => {
    expect([...shipped]).toEqual(expect.arrayContaining(["LICENSE", "CHANGELOG.md"]));
    expect(JSON.parse(read("package.json")).license).toBe("Apache-2.0");
    expect(read("LICENSE")).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(read("LICENSE")).toContain("END OF TERMS AND CONDITIONS");
  });

  test.each(documents)("%s: every relative link points to a file the package ships", (doc) => {
    const dead = relativeLinks(doc)
      .filter(
        ({ file }) => !shipped.has(file) && ![...shipped].some((f) => f.startsWith(`${file.replace(/\/$/, "")}/`)),
      )
      .map(({ target }) => target);
    expect(dead).toEqual([]);
  });

  const anchorsOf = new Map<string, Set<string>>();
  test.each(documents)("%s: every #anchor, in the page or another, is a heading or HTML anchor there", (doc) => {
    // Anchors into markdown pages only: GitHub's `#L12` line anchors of a source file are not headings.
    const broken = relativeLinks(doc)
      .filter(({ file, anchor }) => anchor !== undefined && file.endsWith(".md") && shipped.has(file))
      .filter(({ file, anchor }) => {
        if (!anchorsOf.has(file)) anchorsOf.set(file, markdownAnchors(read(file)));
        return !anchorsOf.get(file)!.has(decodeURIComponent(anchor!));
      })
      .map(({ target }) => target);
    expect(broken).toEqual([]);
  });
});

/** The anchors the test above expects are GitHub's: its slugs for headings it renders. */
describe("GitHub's heading anchors", () => {
  test.each([
    ["## Quick start", "quick-start"],
    [
      "### Bringing existing objects under code: `secretops import`",
      "bringing-existing-objects-under-code-secretops-import",
    ],
    ["## Large stacks and the service's rate limits", "large-stacks-and-the-services-rate-limits"],
    ["## `getAuditLogs` / `getAuditLogsOutput`", "getauditlogs--getauditlogsoutput"],
    ["## How to add…", "how-to-add"],
    ["### 2.1 App connection", "21-app-connection"],
    ["## auth0: method `client-credentials`", "auth0-method-client-credentials"],
    ["## `secretops check [dir] [--stack S] [--config k=v]…`", "secretops-check-dir---stack-s---config-kv"],
    [
      "# exchange.bind_headers(exchange, routing [, bindCallback])",
      "exchangebind_headersexchange-routing--bindcallback",
    ],
    ["# heading with a - dash", "heading-with-a---dash"],
    ["# *emphasis* and [a link](x.md) and <code>html</code>", "emphasis-and-a-link-and-html"],
    ["# _under_ snake_case", "under-snake_case"],
    ["# Привет non-latin 你好", "привет-non-latin-你好"],
    ["Setext\n======", "setext"],
    ['<a id="explicit"></a>', "explicit"],
  ])("%s → #%s", (markdown, anchor) => {
    expect([...markdownAnchors(markdown)]).toEqual([anchor]);
  });

  test("a repeated heading gets the next free suffix, a heading in a code block none", () => {
    const page = ["# echo", "# echo", "```sh", "# echo", "```", "# echo 1", "# echo-1", "# echo"].join("\n");
    expect([...markdownAnchors(page)]).toEqual(["echo", "echo-1", "echo-1-1", "echo-1-2", "echo-2"]);
  });
});
