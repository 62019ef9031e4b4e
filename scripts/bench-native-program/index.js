// The native provider benchmark's program (scripts/bench-native.ts). `bench:kind` says which of
// four stacks of N secret syncs with the same args this is:
//   "dynamic"      the package's SecretSync class (a dynamic provider);
//   "native"       the same syncs as `secretops:index:SecretSync`, served by the native provider
//                  plugin `pulumi-resource-secretops`, as a generated SDK would register them;
//   "dynamicNoop"  a dynamic resource whose provider does nothing (the dynamic path's floor);
//   "nativeNoop"   a resource of the plugin `pulumi-resource-benchnoop`, which does nothing (the
//                  native path's floor).
// The program is the same JavaScript for all four, so the rows compare the providers, not languages.
const crypto = require("node:crypto");
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const kind = config.require("kind");
const count = config.requireNumber("count");
const target = config.requireObject("target");

const syncArgs = (i) => ({
  destination: "vercel",
  name: `native-bench-${i}`,
  projectId: target.projectId,
  connectionId: target.connectionId,
  environment: "dev",
  secretPath: "/",
  waitForSync: false,
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: `native-app-${i}`, appName: `native-${i}`, env: "production", teamId: "team" },
});

class Native extends pulumi.CustomResource {
  constructor(type, name, args) {
    super(type, name, args);
  }
}
const noopProvider = {
  async create(inputs) {
    return { id: crypto.randomUUID(), outs: inputs };
  },
};
class DynamicNoop extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(noopProvider, name, args);
  }
}

for (let i = 0; i < count; i++) {
  const name = `sync-${i}`;
  if (kind === "dynamic") new (require("secretops-pulumi").SecretSync)(name, syncArgs(i));
  else if (kind === "native") new Native("secretops:index:SecretSync", name, syncArgs(i));
  else if (kind === "dynamicNoop") new DynamicNoop(name, syncArgs(i));
  else if (kind === "nativeNoop") new Native("benchnoop:index:Thing", name, syncArgs(i));
  else throw new Error(`bench:kind: unknown kind ${kind}`);
}
