// The TypeScript program's floor (scripts/bench.ts): the same N resources with the same args, as
// no-op dynamic resources served as the package serves its own (scripts/bench-floor), typed as a
// program types its own. It does not load secretops-pulumi: it is the engine's own time for such a
// program.
import * as pulumi from "@pulumi/pulumi";
import { Noop } from "secretops-bench-floor";

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") ?? 0;
const target = config.requireObject<{ projectId: string; connectionId: string }>("target");

interface NoopArgs {
  destination: pulumi.Input<"vercel">;
  name: pulumi.Input<string>;
  projectId: pulumi.Input<string>;
  connectionId: pulumi.Input<string>;
  environment: pulumi.Input<string>;
  secretPath: pulumi.Input<string>;
  syncOptions: pulumi.Input<{ initialSyncBehavior: pulumi.Input<"overwrite-destination"> }>;
  destinationConfig: pulumi.Input<{ app: string; appName: string; env: string; teamId: string }>;
  description?: pulumi.Input<string>;
  waitForSync?: pulumi.Input<boolean>;
}

for (let i = 0; i < count; i++) {
  const args: NoopArgs = {
    destination: "vercel",
    name: `bench-${i}`,
    projectId: target.projectId,
    connectionId: target.connectionId,
    environment: "dev",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { app: `bench-app-${i}`, appName: `bench-${i}`, env: "production", teamId: "team" },
    description: i < changed ? "changed" : "initial",
    waitForSync: false,
  };
  new Noop(`sync-${i}`, args);
}
