import * as fs from "node:fs";
import * as path from "node:path";
import { syncDestinations } from "../sdk/schemas/secret-syncs";

/**
 * The programs whose type-check the benchmark times (scripts/bench.ts) and
 * tests/docs/type-check-cost.test.ts counts: the quickstart, 200 syncs to ten destinations as a
 * program declares them, and a program of `@pulumi/pulumi` alone, what the package's share is
 * measured against. `repoRoot` is the checkout.
 */
export function typeCheckPrograms(repoRoot: string): Record<"quickstart" | "syncs" | "baseline", string> {
  return {
    quickstart: fs.readFileSync(path.join(repoRoot, "examples", "quickstart", "index.ts"), "utf8"),
    syncs: twoHundredSyncs(),
    baseline:
      'import * as pulumi from "@pulumi/pulumi";\nconst config = new pulumi.Config();\nexport const value = config.requireSecret("value");\n',
  };
}

/** 200 syncs, twenty to each of ten destinations (each with its row's example config). */
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
    const args = {
      name: `sync-${i}`,
      connectionId: "00000000-0000-4000-8000-000000000001",
      environment: "dev",
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destination: row.destination,
      destinationConfig: row.example.destinationConfig,
    };
    lines.push(`new SecretSync("sync-${i}", ${JSON.stringify(args).replace(/^\{/, "{ projectId, ")});`);
  }
  return lines.join("\n") + "\n";
}
