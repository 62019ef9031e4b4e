import * as pulumi from "@pulumi/pulumi";
import {
  AppConnectionSettings,
  CertificateProfile,
  SecretRotation,
  SecretSync,
  getAuditLogsOutput,
} from "secretops-pulumi";

/**
 * Quickstart: one of each resource, and an audit query.
 *
 * It targets the local emulator by default: the ids below are those of the emulator's default
 * fixture (`npm run emulator -- --json` prints them). Against your own service, set them:
 *   pulumi config set projectId <id>   (and vercelConnectionId, postgresConnectionId, …)
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";
const environment = config.get("environment") ?? "dev";
const vercelConnectionId = config.get("vercelConnectionId") ?? "50000000-0000-4000-8000-000000000012";
const postgresConnectionId = config.get("postgresConnectionId") ?? "50000000-0000-4000-8000-000000000002";
const certificatePolicyId = config.get("certificatePolicyId") ?? "70000000-0000-4000-8000-000000000001";
const caId = config.get("caId") ?? "60000000-0000-4000-8000-000000000001";

// Push the secrets of /app in the environment to a deployment platform project.
const sync = new SecretSync("web-to-vercel", {
  destination: "vercel",
  name: "web-to-vercel",
  projectId,
  connectionId: vercelConnectionId,
  environment,
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj_web", appName: "web", env: "production", teamId: "team_platform" },
  description: "Web app secrets, managed by Pulumi",
});

// Rotate the application's database credentials every 30 days at 03:30 UTC.
const rotation = new SecretRotation("app-db-credentials", {
  type: "postgres-credentials",
  name: "app-db-credentials",
  projectId,
  connectionId: postgresConnectionId,
  environment,
  secretPath: "/app/db",
  rotationInterval: 30,
  rotateAtUtc: { hours: 3, minutes: 30 },
  parameters: { username1: "app_blue", username2: "app_green" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
  // The quickstart cleans up after itself; the default (false) leaves the secrets in place.
  deleteSecrets: true,
});

// Issue TLS server certificates over EST. The passphrase is secret: encrypted in state, masked in previews.
const profile = new CertificateProfile("web-servers", {
  projectId,
  certificatePolicyId,
  caId,
  slug: "web-servers",
  enrollmentType: "est",
  estConfig: { passphrase: config.getSecret("estPassphrase") ?? pulumi.secret("change-me-please") },
  defaults: {
    ttlDays: 90,
    keyAlgorithm: "RSA_2048",
    keyUsages: ["digital_signature", "key_encipherment"],
    extendedKeyUsages: ["server_auth"],
  },
});

// Manage the description of an existing connection, found by name.
const settings = new AppConnectionSettings("postgres-settings", {
  app: "postgres",
  connectionName: config.get("postgresConnectionName") ?? "emulator-postgres",
  description: "Primary application database",
});

// Today's sync changes in the project, newest first. Taking the project from the sync makes the
// query run once the sync exists.
const recent = getAuditLogsOutput({
  projectId: sync.projectId,
  eventType: ["create-secret-sync", "update-secret-sync"],
  maxEntries: 20,
});

export const syncId = sync.id;
export const syncStatus = sync.syncStatus;
export const rotationNextRotationAt = rotation.nextRotationAt;
export const profileId = profile.id;
export const connectionVersion = settings.version;
export const recentSyncEvents = recent.apply((r) => r.entries.map((e) => `${e.createdAt} ${e.event.type}`));
