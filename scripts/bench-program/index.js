// The engine benchmark's program (scripts/bench.ts). `bench:kind` is "secretops" (N SecretSyncs)
// or "noop" (N dynamic resources with the same args whose provider does nothing: the engine's own
// floor). `bench:changed` of them get another description, as a pull request would change them.
const crypto = require("node:crypto");
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const kind = config.require("kind");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") ?? 0;
const target = config.requireObject("target");
const extra = config.getObject("extra") ?? {};

const noopProvider = {
  async create(inputs) {
    return { id: crypto.randomUUID(), outs: inputs };
  },
  async update(_id, _olds, news) {
    return { outs: news };
  },
};
class Noop extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(noopProvider, name, args);
  }
}

const { SecretSync } = kind === "secretops" ? require("secretops-pulumi") : {};
for (let i = 0; i < count; i++) {
  const args = {
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
    ...extra,
  };
  if (kind === "secretops") new SecretSync(`sync-${i}`, args);
  else new Noop(`sync-${i}`, args);
}
