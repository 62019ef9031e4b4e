// Run by tests/provider/program-side.test.ts in a process of its own (the Node SDK's closure
// serialization cannot run inside jest): registers SecretSyncs under Pulumi's mocks and prints, as
// JSON, what the test asserts about the SDK's debug stacks and Error.stackTraceLimit.
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(__dirname, "..", "..", "..");
const pulumi = require(path.join(root, "node_modules", "@pulumi", "pulumi"));
const state = require(path.join(root, "node_modules", "@pulumi", "pulumi", "runtime", "state"));
// The package's TypeScript sources, transpiled by swc as jest does, so the unit tests need no build.
const swc = require(path.join(root, "node_modules", "@swc", "core"));
require.extensions[".ts"] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, "utf8"), {
    filename,
    jsc: { parser: { syntax: "typescript" }, target: "es2022" },
    module: { type: "commonjs" },
  });
  module._compile(code, filename);
};
const { SecretSync, GenericSecretSync } = require(path.join(root, "provider"));

const args = {
  destination: "vercel",
  name: "sync",
  projectId: "11111111-1111-4111-8111-111111111111",
  connectionId: "22222222-2222-4222-8222-222222222222",
  environment: "dev",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "app", appName: "app", env: "production", teamId: "team" },
};

(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
    "project",
    "stack",
    false,
  );
  const limitBefore = Error.stackTraceLimit;
  new SecretSync("registered", args);
  const limitAfter = Error.stackTraceLimit;
  // The promises the SDK tagged for the resource's properties, still pending (runtime/debuggable.js).
  const tagged = [...state.getStore().leakCandidates].filter((p) =>
    String(p._debugCtx).startsWith("transferProperty(resource:registered["),
  );
  const framesPerStack = tagged.map(
    (p) =>
      String(p._debugStackTrace)
        .split("\n")
        .filter((l) => /^\s+at /.test(l)).length,
  );
  let thrown;
  try {
    new SecretSync("", args); // the SDK refuses an empty name inside the constructor
  } catch (e) {
    thrown = { message: e.message, stack: e.stack };
  }
  console.log(
    JSON.stringify({
      limitBefore,
      limitAfter,
      tagged: tagged.length,
      framesPerStack,
      thrown,
      limitAfterThrow: Error.stackTraceLimit,
      // A GenericSecretSync is a SecretSync; each class carries the name a program gives it.
      genericIsSync: new GenericSecretSync("generic", args) instanceof SecretSync,
      names: [SecretSync.name, GenericSecretSync.name],
    }),
  );
  // Exit at once: the registrations never finish under these mocks; the SDK's leak report (stderr)
  // and exit code are not what the test reads.
  process.exit(0);
})();
