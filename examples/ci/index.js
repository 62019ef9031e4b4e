// The program the pull-request pipeline (.github/workflows/secretops.yml) checks, previews and deploys:
// a secret sync, a secret rotation and a certificate profile.
//
// Plain JavaScript (a TypeScript program works the same: `npx secretops check` loads it as the
// engine does).
//
// The ids default to the local emulator's fixture (`npx secretops emulator --json` prints them).
// Against your own service, set them in the stack's config and commit Pulumi.<stack>.yaml:
//   pulumi config set projectId <id>   (and vercelConnectionId, redisConnectionId, certificatePolicyId, caId)
//   pulumi config set --secret estPassphrase <passphrase>
// The endpoint and the token come from the environment of the CI job (SECRETOPS_API_URL, SECRETOPS_TOKEN).
const pulumi = require("@pulumi/pulumi");
const { CertificateProfile, SecretRotation, SecretSync } = require("secretops-pulumi");

const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";
const vercelConnectionId = config.get("vercelConnectionId") ?? "50000000-0000-4000-8000-000000000012";
const redisConnectionId = config.get("redisConnectionId") ?? "50000000-0000-4000-8000-000000000005";
const certificatePolicyId = config.get("certificatePolicyId") ?? "70000000-0000-4000-8000-000000000001";
const caId = config.get("caId") ?? "60000000-0000-4000-8000-000000000001";

// The web app's prod secrets → its Vercel production environment.
const sync = new SecretSync("web-prod", {
  destination: "vercel",
  name: "web-prod",
  projectId,
  connectionId: vercelConnectionId,
  environment: "prod",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj_web", appName: "web", env: "production", teamId: "team_platform" },
  description: "Web app prod secrets",
});

// The cache's credentials, rotated every 30 days at 04:00 UTC.
const rotation = new SecretRotation("cache-credentials", {
  type: "redis-credentials",
  name: "cache-credentials",
  projectId,
  connectionId: redisConnectionId,
  environment: "prod",
  secretPath: "/infra",
  rotationInterval: 30,
  rotateAtUtc: { hours: 4, minutes: 0 },
  parameters: { permissionScope: "~cache:* +@all" },
  secretsMapping: { username: "CACHE_USER", password: "CACHE_PASSWORD" },
});

// Certificates for network devices over EST. The passphrase is secret config: encrypted in the
// stack file and in state, shown as [secret] in every preview.
const profile = new CertificateProfile("network-devices", {
  projectId,
  certificatePolicyId,
  caId,
  slug: "network-devices",
  description: "Router and switch identities (EST)",
  enrollmentType: "est",
  estConfig: { passphrase: config.requireSecret("estPassphrase") },
  defaults: { ttlDays: 365, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["client_auth"] },
});

exports.syncStatus = sync.syncStatus;
exports.nextRotationAt = rotation.nextRotationAt;
exports.profileId = profile.id;
