// The program the pull-request pipeline (.github/workflows/secretops.yml) checks, previews and deploys:
// a secret sync, a secret rotation and a certificate profile, and what they hang on (two projects,
// an environment, two folders, two connections, a CA and a policy), all made by the program.
//
// Plain JavaScript (a TypeScript program works the same: `npx secretops check` loads it as the
// engine does).
//
// The secrets are the stack's secret config; set them once and commit Pulumi.<stack>.yaml:
//   pulumi config set --secret vercelApiToken <token>
//   pulumi config set --secret redisPassword <password>
//   pulumi config set --secret estPassphrase <passphrase>
// Project slugs are unique in an organization: `projectSlug` and `pkiProjectSlug` choose others.
// The endpoint and the login come from the environment of the CI job, not from this program:
// SECRETOPS_API_URL, and SECRETOPS_IDENTITY_ID with SECRETOPS_AUTH_METHOD=oidc-auth, an OIDC login
// with the job's GitHub id token (no stored token). Any other provider config works the same
// (a token, universal auth, secretops:* stack config).
const pulumi = require("@pulumi/pulumi");
const {
  AppConnection,
  CertificateAuthority,
  CertificatePolicy,
  CertificateProfile,
  Project,
  ProjectEnvironment,
  SecretFolder,
  SecretRotation,
  SecretSync,
} = require("secretops-pulumi");

const config = new pulumi.Config();

// The shop's project. Its template makes the environments dev, staging and prod: declaring prod
// takes it over. The folders name its slug, the sync and the rotation their folder's secretPath,
// so the engine makes each before what is in it.
const shop = new Project("shop", { projectName: "Shop", slug: config.get("projectSlug") ?? "shop-ci" });
const projectId = shop.id;
const prod = new ProjectEnvironment("prod", { projectId, name: "Production", slug: "prod" });
const app = new SecretFolder("app", { projectId, environment: prod.slug, name: "app" });
const infra = new SecretFolder("infra", { projectId, environment: prod.slug, name: "infra" });

// The connections the service pushes and rotates through, their secrets from secret config.
const vercel = new AppConnection("vercel", {
  app: "vercel",
  name: "shop-vercel",
  projectId,
  method: "api-token",
  credentials: { apiToken: config.requireSecret("vercelApiToken") },
});
const cache = new AppConnection("cache", {
  app: "redis",
  name: "shop-cache",
  projectId,
  method: "username-and-password",
  credentials: {
    host: config.get("redisHost") ?? "cache.internal.example.com",
    port: 6379,
    username: "secretops_rotator",
    password: config.requireSecret("redisPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

// The web app's prod secrets → its Vercel production environment.
const sync = new SecretSync("web-prod", {
  destination: "vercel",
  name: "web-prod",
  projectId,
  connectionId: vercel.id,
  environment: app.environment,
  secretPath: app.secretPath,
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj_shop", appName: "shop", env: "production", teamId: "team_platform" },
  description: "Web app prod secrets",
});

// The cache's credentials, rotated every 30 days at 04:00 UTC. Its secrets go with it on
// destroy: the service refuses to delete a folder that still holds them.
const rotation = new SecretRotation("cache-credentials", {
  type: "redis-credentials",
  name: "cache-credentials",
  projectId,
  connectionId: cache.id,
  environment: infra.environment,
  secretPath: infra.secretPath,
  rotationInterval: 30,
  rotateAtUtc: { hours: 4, minutes: 0 },
  parameters: { permissionScope: "~cache:* +@all" },
  secretsMapping: { username: "CACHE_USER", password: "CACHE_PASSWORD" },
  deleteSecrets: true,
});

// Certificates live in a certificate-manager project: its root CA, and the policy the devices'
// certificates follow.
const pki = new Project("pki", {
  projectName: "Shop PKI",
  slug: config.get("pkiProjectSlug") ?? "shop-ci-pki",
  type: "cert-manager",
});
const ca = new CertificateAuthority("root-ca", {
  projectId: pki.id,
  name: "shop-root",
  configuration: { type: "root", commonName: "Shop Root CA", notAfter: "2036-01-01T00:00:00Z" },
});
const policy = new CertificatePolicy("devices", {
  projectId: pki.id,
  name: "network-devices",
  extendedKeyUsages: { allowed: ["client_auth"] },
  validity: { max: "365d" },
});

// Certificates for network devices over EST. The passphrase is secret config: encrypted in the
// stack file and in state, shown as [secret] in every preview.
const profile = new CertificateProfile("network-devices", {
  projectId: pki.id,
  certificatePolicyId: policy.id,
  caId: ca.id,
  slug: "network-devices",
  description: "Router and switch identities (EST)",
  enrollmentType: "est",
  estConfig: { passphrase: config.requireSecret("estPassphrase") },
  defaults: { ttlDays: 365, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["client_auth"] },
});

exports.projectId = projectId;
exports.pkiProjectId = pki.id;
exports.syncStatus = sync.syncStatus;
exports.nextRotationAt = rotation.nextRotationAt;
exports.profileId = profile.id;
