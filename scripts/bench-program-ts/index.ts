// The engine benchmark's TypeScript program (scripts/bench.ts), as a user writes one: N secret
// syncs, `bench:changed` of them with another description, as scripts/bench-program/index.js
// declares them, typed and run through the engine's TypeScript path, which type-checks it on every
// run. Its floor is floor/index.ts.
import * as pulumi from "@pulumi/pulumi";
import { SecretSync } from "secretops-pulumi";

const config = new pulumi.Config("bench");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") ?? 0;
const target = config.requireObject<{ projectId: string; connectionId: string }>("target");

for (let i = 0; i < count; i++) {
  new SecretSync(`sync-${i}`, {
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
  });
}
