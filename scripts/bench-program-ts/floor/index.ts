// The TypeScript program's floor (scripts/bench.ts): the same N resources with the same args, as
// no-op dynamic resources whose provider does nothing, typed as a program types its own. It does
// not load secretops-pulumi: it is the engine's own time for such a program.
import * as crypto from "node:crypto";
import * as pulumi from "@pulumi/pulumi";

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

const noopProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: crypto.randomUUID(), outs: inputs };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name: string, args: NoopArgs) {
    super(noopProvider, name, { ...args });
  }
}

for (let i = 0; i < count; i++) {
  new Noop(`sync-${i}`, {
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
