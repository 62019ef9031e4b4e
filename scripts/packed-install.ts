import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TIMEOUTS, runSync } from "./run-sync";

/**
 * The newest TypeScript with a compiler API (the `typescript` package's `latest`, 7.x, is the
 * native compiler, which ships none: neither ts-node nor the engine can run a program with it).
 */
export const NEWEST_TYPESCRIPT = "6.0.3";

export interface PackedInstallOptions {
  /** More dependencies of the user's program (`typescript`, `@types/node`). */
  devDependencies?: Record<string, string>;
}

const NPM_INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

/**
 * Installs this package as a user would, from `npm pack`, into `dir` (a program directory of its
 * own, beside the @pulumi/pulumi version this checkout uses, and `devDependencies`): `npm install`
 * of a package.json naming the tarball. Returns the tarball's file name. Shared by the benchmark
 * and the packed-package tests.
 *
 * The other packages are the same from one run to the next: the first install of a set of them is
 * kept (node_modules and package-lock.json, without this package) under
 * ~/.cache/secretops-pulumi/packed/<hash>, and later installs start from a hard-linked copy, so
 * that npm adds only the tarball (seconds, where a full install takes half a minute).
 */
export function installPacked(repoRoot: string, dir: string, options: PackedInstallOptions = {}): string {
  const tarball = packInto(repoRoot, dir);
  installTarball(repoRoot, tarball, dir, options);
  return tarball;
}

/** `npm pack` of the package in `source` into `dir`: the tarball's file name. */
export function packInto(source: string, dir: string): string {
  return runSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], {
    cwd: source,
    timeoutMs: TIMEOUTS.quick,
  })
    .trim()
    .split("\n")
    .pop()!;
}

/**
 * Installs the tarball `tarball` (a file in `dir`) into `dir` as a user's program would, beside
 * the @pulumi/pulumi version the checkout at `repoRoot` uses; over an earlier install, it replaces
 * that one (an upgrade).
 */
export function installTarball(
  repoRoot: string,
  tarball: string,
  dir: string,
  options: PackedInstallOptions = {},
): void {
  const pulumiVersion = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  const manifest = {
    name: "user-program",
    private: true,
    dependencies: { "secretops-pulumi": `file:./${tarball}`, "@pulumi/pulumi": pulumiVersion },
    ...(options.devDependencies ? { devDependencies: options.devDependencies } : {}),
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  const cached = cacheDir(repoRoot, manifest);
  if (fs.existsSync(cached) && !fs.existsSync(path.join(dir, "node_modules"))) startFrom(cached, dir);
  runSync("npm", NPM_INSTALL, { cwd: dir, timeoutMs: TIMEOUTS.install, stderr: "inherit" });
  if (!fs.existsSync(cached)) keep(dir, cached);
}

/** Where an install of these dependencies (and this package's own) is kept. */
function cacheDir(repoRoot: string, manifest: object): string {
  const own = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
  const key = createHash("sha256")
    .update(JSON.stringify([manifest, own.dependencies, own.peerDependencies, process.version]))
    .digest("hex")
    .slice(0, 16);
  const root = process.env.SECRETOPS_PULUMI_CACHE ?? path.join(os.homedir(), ".cache", "secretops-pulumi");
  return path.join(root, "packed", key);
}

const PACKAGE = path.join("node_modules", "secretops-pulumi");
const BIN = path.join("node_modules", ".bin", "secretops");

/** node_modules and the lock of a kept install, without this package (npm then adds the tarball). */
function startFrom(cached: string, dir: string): void {
  try {
    runSync("cp", ["-al", path.join(cached, "node_modules"), path.join(dir, "node_modules")], {
      timeoutMs: TIMEOUTS.quick,
    });
  } catch {
    // No hard links (another file system, or a cp without -l): a copy.
    fs.rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
    fs.cpSync(path.join(cached, "node_modules"), path.join(dir, "node_modules"), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  fs.copyFileSync(path.join(cached, "package-lock.json"), path.join(dir, "package-lock.json"));
}

/** Keeps an install, atomically (tests install in parallel): a copy without this package. */
function keep(dir: string, cached: string): void {
  const partial = `${cached}.${process.pid}.tmp`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  fs.cpSync(path.join(dir, "node_modules"), path.join(partial, "node_modules"), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => ![PACKAGE, BIN].some((p) => src === path.join(dir, p)),
  });
  const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"));
  delete lock.packages[PACKAGE.split(path.sep).join("/")];
  fs.writeFileSync(path.join(partial, "package-lock.json"), JSON.stringify(lock, null, 2));
  try {
    fs.renameSync(partial, cached);
  } catch {
    fs.rmSync(partial, { recursive: true, force: true }); // another process kept the same install first
  }
}

/**
 * The `npm pack` tarball of this package at an earlier commit of the repository at `repoRoot`
 * (its history: a clone, not a shallow one), built once and kept under
 * ~/.cache/secretops-pulumi/commits/. The commit's source is built with this checkout's
 * node_modules (the dependencies have not changed since those commits). Returns its path.
 */
export function tarballOfCommit(repoRoot: string, commit: string): string {
  const sha = runSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], {
    cwd: repoRoot,
    timeoutMs: TIMEOUTS.quick,
  }).trim();
  const root = process.env.SECRETOPS_PULUMI_CACHE ?? path.join(os.homedir(), ".cache", "secretops-pulumi");
  const kept = path.join(root, "commits", `secretops-pulumi-${sha.slice(0, 12)}.tgz`);
  if (fs.existsSync(kept)) return kept;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `secretops-commit-${sha.slice(0, 7)}-`));
  try {
    const source = path.join(work, "source");
    fs.mkdirSync(source);
    const archive = path.join(work, "source.tar");
    runSync("git", ["archive", "--output", archive, sha], { cwd: repoRoot, timeoutMs: TIMEOUTS.quick });
    runSync("tar", ["-xf", archive, "-C", source], { timeoutMs: TIMEOUTS.quick });
    fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(source, "node_modules"), "dir");
    runSync(process.execPath, [path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
      cwd: source,
      timeoutMs: TIMEOUTS.install,
    });
    const tarball = packInto(source, work);
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    fs.copyFileSync(path.join(work, tarball), `${kept}.${process.pid}.tmp`);
    fs.renameSync(`${kept}.${process.pid}.tmp`, kept);
    return kept;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
