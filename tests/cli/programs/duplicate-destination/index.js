// Two syncs to one Vercel app and environment: they differ only in `appName`, a label the
// service's duplicate check ignores. `secretops check` sees every resource's check in one process.
const secretops = require("secretops-pulumi");

for (const name of ["web-a", "web-b"]) {
  new secretops.SecretSync(name, {
    destination: "vercel",
    name,
    projectId: "0b7d3c5e-6f0a-4a59-9f0e-8c2b1d4e5f60",
    connectionId: "7f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0",
    environment: "dev",
    secretPath: "/",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { app: "prj_web", appName: name, env: "production", teamId: "team_1" },
  });
}
