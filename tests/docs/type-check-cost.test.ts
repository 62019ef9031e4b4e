import * as fs from "node:fs";
import * as path from "node:path";
import { syncDestinations } from "../../sdk/schemas/secret-syncs";
import { checkCost } from "./helpers/compile";

/**
 * What a TypeScript program's type-check costs the compiler because of this package: the types
 * and instantiations it creates checking a program (deterministic, unlike its time), against a
 * program that uses only `@pulumi/pulumi`. A program checks against the generated declarations
 * (provider/program-types.ts): the quickstart's share is about 3,000 of each, 200 syncs' 2,700
 * types and 600 instantiations. Checked against the derived types, as before them (this test at
 * 7ca1b8b), they were 98,456 types and 357,753 instantiations, and 57,344 and 170,152.
 * docs/benchmarks.md has the times.
 */

const repoRoot = path.resolve(__dirname, "..", "..");

/** 200 syncs, twenty to each of ten destinations, each as a program declares one. */
function twoHundredSyncs(): string {
  const destinations = Object.values(syncDestinations).slice(0, 10);
  const lines = [
    'import * as pulumi from "@pulumi/pulumi";',
    'import { SecretSync } from "secretops-pulumi";',
    "const config = new pulumi.Config();",
    'const projectId = config.require("projectId");',
  ];
  for (let i = 0; i < 200; i++) {
    const row = destinations[i % 10]!;
    lines.push(
      `new SecretSync("sync-${i}", ${JSON.stringify({
        name: `sync-${i}`,
        connectionId: "00000000-0000-4000-8000-000000000001",
        environment: "dev",
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destination: row.destination,
        destinationConfig: row.example.destinationConfig,
      }).replace(/^\{/, "{ projectId,")});`,
    );
  }
  return lines.join("\n") + "\n";
}

const baseline = checkCost(
  'import * as pulumi from "@pulumi/pulumi";\nconst config = new pulumi.Config();\nexport const value = config.requireSecret("value");\n',
);

const programs: Record<string, () => string> = {
  "the quickstart": () => fs.readFileSync(path.join(repoRoot, "examples", "quickstart", "index.ts"), "utf8"),
  "200 syncs to ten destinations": twoHundredSyncs,
};
const budget = 5_000;

test.each(Object.keys(programs))(`checking %s creates at most ${budget} types and instantiations more`, (name) => {
  const cost = checkCost(programs[name]!());
  const share = { types: cost.types - baseline.types, instantiations: cost.instantiations - baseline.instantiations };
  expect(cost.diagnostics.map((d) => d.message)).toEqual([]);
  expect(share.types).toBeLessThanOrEqual(budget);
  expect(share.instantiations).toBeLessThanOrEqual(budget);
});
