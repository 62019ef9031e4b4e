// Run by tests/provider/output-origins.test.ts in a process of its own (the Node SDK's closure
// serialization cannot run inside jest): declares a folder and secrets under Pulumi's mocks, in
// preview, and prints as JSON the hidden `__outputOrigins` each resource registered beside its args.
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(__dirname, "..", "..", "..");
const pulumi = require(path.join(root, "node_modules", "@pulumi", "pulumi"));
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

const registered = {};
(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered[a.name] = a.inputs.__outputOrigins ?? null;
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "project",
    "stack",
    true,
  );
  const { Project, SecretFolder, Secret } = require(path.join(root, "provider"));
  const project = new Project("app", { projectName: "app", type: "secret-manager" });
  const folder = new SecretFolder("db", { projectId: project.id, environment: "dev", name: "db" });
  const place = { projectId: project.id, environment: "dev" };
  // Read twice from the folder: one Output object, one token.
  new Secret("a", { ...place, secretPath: folder.secretPath, secretName: "K", secretValue: "v" });
  new Secret("b", { ...place, secretPath: folder.secretPath, secretName: "K", secretValue: "v" });
  // A new Output of the same value: another token.
  new Secret("c", { ...place, secretPath: folder.secretPath.apply((p) => p), secretName: "K", secretValue: "v" });
  // No Output among the args: nothing registered beside them.
  new Secret("d", { projectId: "p", environment: "dev", secretPath: "/", secretName: "K", secretValue: "v" });
  // The registrations run after the constructors' synchronous part.
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(JSON.stringify(registered));
  process.exit(0);
})();
