import * as fs from "node:fs";
import * as path from "node:path";
import * as semver from "semver";

/**
 * The Node.js the package declares (`engines.node`), the README's prerequisite, the Node the
 * scripts fetch (scripts/ensure-node.sh) and what the installed dependencies declare agree: every
 * package a program or the provider process loads (the runtime dependencies and the peer
 * `@pulumi/pulumi`, with everything they load) supports every Node the package accepts, and the
 * Node the tests and the demo run under meets every installed package, the dev tools' too.
 */

const repoRoot = path.resolve(__dirname, "..", "..");

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const own = manifest(repoRoot);
const declared = own.engines?.node ?? "";

/** The directory `name` resolves to from `dir`, as Node's resolution walks up the node_modules folders. */
function installed(name: string, dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}

/** Every installed package reachable from `roots` through dependencies (optional and peer ones included). */
function closure(roots: readonly string[]): Map<string, Manifest> {
  const seen = new Map<string, Manifest>();
  const visit = (name: string, from: string) => {
    const dir = installed(name, from);
    if (!dir) return; // an optional or peer dependency not installed here is not loaded here
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    const m = manifest(real);
    seen.set(real, m);
    for (const deps of [m.dependencies, m.optionalDependencies, m.peerDependencies])
      for (const dep of Object.keys(deps ?? {})) visit(dep, real);
  };
  for (const root of roots) visit(root, repoRoot);
  return seen;
}

const runtime = closure([...Object.keys(own.dependencies ?? {}), ...Object.keys(own.peerDependencies ?? {})]);
const everything = closure([...runtime.values()].map((m) => m.name).concat(Object.keys(own.devDependencies ?? {})));

/** The NODE_VERSION and MIN_VERSION of scripts/ensure-node.sh. */
function ensureNode(): { fetched: string; minimum: string } {
  const script = fs.readFileSync(path.join(repoRoot, "scripts", "ensure-node.sh"), "utf8");
  return {
    fetched: /NODE_VERSION="\$\{SECRETOPS_NODE_VERSION:-([\d.]+)\}"/.exec(script)![1]!,
    minimum: /MIN_VERSION="([\d.]+)"/.exec(script)![1]!,
  };
}

describe("the Node.js the package declares", () => {
  test("is a lower bound of 22 or newer: Node 20 reached its end of life in April 2026", () => {
    expect(declared).toMatch(/^>=\d+(\.\d+\.\d+)?$/);
    expect(semver.minVersion(declared)!.major).toBeGreaterThanOrEqual(22);
  });

  test("is supported, whole, by every package a program or the provider process loads", () => {
    // What the walk found: the dependencies, the peer @pulumi/pulumi, and what they load.
    const names = new Set([...runtime.values()].map((m) => m.name));
    for (const expected of ["fastify", "zod", "@pulumi/pulumi", "cookie", "@grpc/grpc-js"])
      expect(names).toContain(expected);
    const narrower = [...runtime.values()]
      .filter((m) => m.engines?.node && !semver.subset(declared, m.engines.node))
      .map((m) => `${m.name}@${m.version} requires node ${m.engines!.node}`);
    expect(narrower).toEqual([]);
  });

  test("is what the README gives as the prerequisite", () => {
    const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const minimum = semver.minVersion(declared)!;
    const stated = /\*\*Prerequisites:\*\* Node\.js ≥ ([\d.]+)/.exec(readme)?.[1];
    expect(stated).toBeDefined();
    expect(semver.eq(semver.coerce(stated!)!, minimum)).toBe(true);
  });

  test("is met by the Node the scripts run the tests and the demo under, as is every installed package", () => {
    const { fetched, minimum } = ensureNode();
    expect(semver.satisfies(fetched, declared)).toBe(true);
    expect(semver.subset(`>=${minimum}`, declared)).toBe(true);
    const refused = [...everything.values()]
      .filter((m) => m.engines?.node && !semver.satisfies(fetched, m.engines.node))
      .map((m) => `${m.name}@${m.version} requires node ${m.engines!.node}`);
    expect(refused).toEqual([]);
  });
});
