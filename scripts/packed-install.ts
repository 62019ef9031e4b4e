import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * Installs this package as a user would, from `npm pack`, into `dir` (a program directory of its
 * own, beside the @pulumi/pulumi version this checkout uses). Shared by the benchmark and the
 * packed-package engine test.
 */
export function installPacked(repoRoot: string, dir: string): void {
  const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  const pulumiVersion = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "user-program",
      private: true,
      dependencies: { "secretops-pulumi": `file:./${tarball}`, "@pulumi/pulumi": pulumiVersion },
    }),
  );
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    stdio: "inherit",
  });
}
