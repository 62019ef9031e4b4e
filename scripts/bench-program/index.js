// The engine benchmark's program (scripts/bench.ts). `bench:kind` is "secretops" (N SecretSyncs),
// "mixed" (a platform team's stack: half syncs with the default options, a quarter rotations, a
// quarter certificate profiles) or "noop" (N dynamic resources with the same args whose provider
// does nothing, served as the package serves its own: scripts/bench-floor, the engine's own floor).
// `bench:changed` of them get another description, as a pull request would change them.
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const kind = config.require("kind");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") ?? 0;
const target = config.requireObject("target");
const extra = config.getObject("extra") ?? {};

if (kind === "mixed") {
  const { SecretSync, SecretRotation, CertificateProfile } = require("secretops-pulumi");
  const syncs = Math.ceil(count / 2);
  const rotations = Math.floor((count - syncs) / 2);
  const place = { projectId: target.projectId, environment: "dev", secretPath: "/app" };
  for (let i = 0; i < syncs; i++)
    new SecretSync(`sync-${i}`, {
      ...place,
      destination: "vercel",
      name: `mixed-${i}`,
      connectionId: target.connectionId,
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: `mixed-app-${i}`, appName: `mixed-${i}`, env: "production", teamId: "team" },
    });
  for (let i = 0; i < rotations; i++)
    new SecretRotation(`rotation-${i}`, {
      ...place,
      type: "postgres-credentials",
      name: `mixed-rotation-${i}`,
      connectionId: target.postgresConnectionId,
      rotationInterval: 30,
      parameters: { username1: "app_a", username2: "app_b" },
      secretsMapping: { username: `MIXED_USER_${i}`, password: `MIXED_PASSWORD_${i}` },
    });
  for (let i = 0; i < count - syncs - rotations; i++)
    new CertificateProfile(`profile-${i}`, {
      projectId: target.pkiProjectId,
      certificatePolicyId: target.certificatePolicyId,
      caId: target.caId,
      slug: `mixed-profile-${i}`,
      enrollmentType: "api",
      apiConfig: { autoRenew: true, renewBeforeDays: 7 },
    });
  return;
}

const { SecretSync } = kind === "secretops" ? require("secretops-pulumi") : {};
const { Noop } = kind === "noop" ? require("secretops-bench-floor") : {};
// `bench:destination`: vercel (the default), or azure-key-vault (the bench beside the vendor's provider).
const destination = config.get("destination") ?? "vercel";
const destinationConfig = {
  vercel: (i) => ({ app: `bench-app-${i}`, appName: `bench-${i}`, env: "production", teamId: "team" }),
  "azure-key-vault": (i) => ({ vaultBaseUrl: `https://bench-${i}.vault.azure.net` }),
}[destination];
for (let i = 0; i < count; i++) {
  const args = {
    destination,
    name: `bench-${i}`,
    projectId: target.projectId,
    connectionId: target.connectionId,
    environment: "dev",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: destinationConfig(i),
    description: i < changed ? "changed" : "initial",
    waitForSync: false,
    ...extra,
  };
  if (kind === "secretops") new SecretSync(`sync-${i}`, args);
  else new Noop(`sync-${i}`, args);
}
