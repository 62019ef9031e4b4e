// The engine benchmark's program (scripts/bench.ts). `bench:kind` is "secretops" (N SecretSyncs),
// "mixed" (a platform team's stack: half syncs with the default options, a quarter rotations, a
// quarter certificate profiles) or "noop" (N dynamic resources with the same args whose provider
// does nothing: the engine's own floor). `bench:changed` of them get another description, as a pull
// request would change them.
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
