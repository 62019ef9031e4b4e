import * as pulumi from "@pulumi/pulumi";
import {
  AppConnection,
  CertificateAuthority,
  CertificatePolicy,
  CertificateProfile,
  Project,
  ProjectEnvironment,
  Secret,
  SecretFolder,
  SecretRotation,
  SecretSync,
  getAuditLogsOutput,
} from "secretops-pulumi";

/**
 * Quickstart: everything from nothing. A project with an environment, a folder and two secrets; a
 * connection and a sync that pushes those secrets; a database connection and a rotation of its
 * credentials; a certificate-manager project with a CA, a policy and a profile; and an audit query.
 *
 * It targets the local emulator by default. Against your own service:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 * and the secret values below (`pulumi config set --secret <key> <value>`). Project slugs are
 * unique in an organization: `projectSlug` and `pkiProjectSlug` choose others.
 */
const config = new pulumi.Config();

// 1. The project. Its template makes the environments dev, staging and prod (declare one as a
//    ProjectEnvironment to manage it); this program adds one of its own.
const project = new Project("app", {
  projectName: "Quickstart app",
  slug: config.get("projectSlug") ?? "quickstart-app",
  projectDescription: "Made by the secretops-pulumi quickstart",
});
const projectId = project.id;
const environment = new ProjectEnvironment("demo", { projectId, name: "Demo", slug: "demo" });

// 2. A folder and two secrets in it. The values come from secret config: encrypted in state,
//    never an output, masked in previews. Naming the folder by its `secretPath` output makes the
//    engine create it first.
const web = new SecretFolder("web", { projectId, environment: environment.slug, name: "web" });
const secrets = [
  { name: "api-url", key: "API_URL", value: config.requireSecret("apiUrl") },
  { name: "api-key", key: "API_KEY", value: config.requireSecret("apiKey") },
].map(
  (s) =>
    new Secret(s.name, {
      projectId,
      environment: environment.slug,
      secretPath: web.secretPath,
      secretName: s.key,
      secretValue: s.value,
    }),
);

// 3. A connection to a deployment platform, and a sync that pushes the folder's secrets there.
//    It waits for the secrets (dependsOn), so its first job carries them.
const vercel = new AppConnection("vercel", {
  app: "vercel",
  name: "quickstart-vercel",
  projectId,
  method: "api-token",
  credentials: { apiToken: config.requireSecret("vercelToken") },
});
const sync = new SecretSync(
  "web-to-vercel",
  {
    destination: "vercel",
    name: "web-to-vercel",
    projectId,
    connectionId: vercel.id,
    environment: environment.slug,
    secretPath: web.secretPath,
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { app: "prj_web", appName: "web", env: "production", teamId: "team_platform" },
    description: "Web app secrets, managed by Pulumi",
  },
  { dependsOn: secrets },
);

// 4. A database connection, and a rotation of the application's credentials every 30 days at
//    03:30 UTC, written as DB_USER and DB_PASSWORD in the folder /web/db.
const database = new AppConnection("database", {
  app: "postgres",
  name: "quickstart-db",
  projectId,
  method: "username-and-password",
  credentials: {
    host: config.get("databaseHost") ?? "db.internal.example.com",
    port: 5432,
    database: "app",
    username: "secretops_rotator",
    password: config.requireSecret("databasePassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});
const dbFolder = new SecretFolder("db", {
  projectId,
  environment: environment.slug,
  name: "db",
  path: web.secretPath,
});
const rotation = new SecretRotation("app-db-credentials", {
  type: "postgres-credentials",
  name: "app-db-credentials",
  projectId,
  connectionId: database.id,
  environment: environment.slug,
  secretPath: dbFolder.secretPath,
  rotationInterval: 30,
  rotateAtUtc: { hours: 3, minutes: 30 },
  parameters: { username1: "app_blue", username2: "app_green" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
  // The quickstart cleans up after itself (and its folder can then go); the default (false)
  // leaves the secrets in place.
  deleteSecrets: true,
});

// 5. Certificates: a certificate-manager project, its root CA, a policy and a profile issuing TLS
//    server certificates through the API.
const pki = new Project("pki", {
  projectName: "Quickstart PKI",
  slug: config.get("pkiProjectSlug") ?? "quickstart-pki",
  type: "cert-manager",
});
const ca = new CertificateAuthority("root-ca", {
  projectId: pki.id,
  name: "quickstart-root",
  configuration: { type: "root", commonName: "Quickstart Root CA", notAfter: "2036-01-01T00:00:00Z" },
});
const policy = new CertificatePolicy("web-servers", {
  projectId: pki.id,
  name: "web-servers",
  subject: [{ type: "common_name", allowed: ["*.example.com"] }],
  sans: [{ type: "dns_name", allowed: ["*.example.com"] }],
  extendedKeyUsages: { allowed: ["server_auth"] },
  validity: { max: "90d" },
});
const profile = new CertificateProfile("web-servers", {
  projectId: pki.id,
  certificatePolicyId: policy.id,
  caId: ca.id,
  slug: "web-servers",
  enrollmentType: "api",
  apiConfig: { autoRenew: true, renewBeforeDays: 14 },
  defaults: { ttlDays: 90, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["server_auth"] },
});

// Today's sync changes in the project, newest first. Taking the project from the sync makes the
// query run once the sync exists.
const recent = getAuditLogsOutput({
  projectId: sync.projectId,
  eventType: ["create-secret-sync", "update-secret-sync"],
  maxEntries: 20,
});

export const projectSlug = project.slug;
export const folderPath = web.secretPath;
export const syncStatus = sync.syncStatus;
export const rotationNextRotationAt = rotation.nextRotationAt;
export const caStatus = ca.status;
export const profileId = profile.id;
export const recentSyncEvents = recent.apply((r) => r.entries.map((e) => `${e.createdAt} ${e.event.type}`));
