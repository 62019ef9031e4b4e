import * as pulumi from "@pulumi/pulumi";
import { AppConnection, Project, ProjectEnvironment, SecretFolder, SecretRotation } from "secretops-pulumi";

/**
 * Secret rotations: the service replaces a credential in an external system on a schedule and
 * writes the new values into secrets of a folder, where apps (and secret syncs) pick them up.
 *
 *  - the orders database (PostgreSQL) in staging and prod, with a custom rotation statement and
 *    password policy;
 *  - the reporting database (MySQL), with a statement that keeps the user's host pattern;
 *  - a Redis ACL user restricted to the cache keys;
 *  - the client secret of the Azure app registration CI deploys with.
 *
 * The program makes what the rotations hang on: the project, its staging and prod environments,
 * the folders the rotations write into, and the connections the service rotates through, their
 * credentials from secret config. Set them before the first `pulumi up`:
 *   pulumi config set --secret postgresPassword <password>   (and mysqlPassword, redisPassword)
 *   pulumi config set --secret azureRotatorClientSecret <client secret>
 * It targets the local emulator by default (which accepts any credentials). Against your own service:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 *   pulumi config set postgresHost <host>   (and mysqlHost, redisHost, azureTenantId, …)
 *
 * `deleteSecrets` and `revokeGeneratedCredentials` say what `pulumi destroy` (or a replacement)
 * does besides deleting the rotation. Both default to false: the secrets stay in the folder and
 * the credentials stay valid. Every rotation here deletes its secrets: a rotation can only be
 * created where none of its mapped secret names exist yet, so leftover secrets would make the
 * next `pulumi up` fail with `The following secrets already exist at the path …` (and the service
 * refuses to delete a folder that still holds them).
 */
const config = new pulumi.Config();
// Project slugs are unique in an organization: set another to run this program twice there.
const projectSlug = config.get("projectSlug") ?? "storefront-rotations";
const postgresHost = config.get("postgresHost") ?? "orders-db.internal.example.com";
const mysqlHost = config.get("mysqlHost") ?? "reporting-db.internal.example.com";
const redisHost = config.get("redisHost") ?? "storefront-cache.internal.example.com";
// The app registration the service signs in to Azure as (allowed to manage other registrations'
// secrets), and the one whose client secret is rotated (its object id and application id).
const azureTenantId = config.get("azureTenantId") ?? "6b1f3c2e-8d4a-4f7b-9e1c-2a5d7f9b3c41";
const azureRotatorClientId = config.get("azureRotatorClientId") ?? "e2d4f6a8-1b3c-4d5e-8f7a-9b0c1d2e3f4a";
const azureAppObjectId = config.get("azureAppObjectId") ?? "3f2c1b9e-5a7d-4e8f-9b6a-2d4c8e1f0a35";
const azureAppClientId = config.get("azureAppClientId") ?? "9d8e7f60-1a2b-4c3d-8e9f-0a1b2c3d4e5f";

// 1. The project. Its template makes the environments dev, staging and prod: declaring staging and
//    prod takes them over.
const project = new Project("storefront", {
  projectName: "Storefront credentials",
  slug: projectSlug,
  projectDescription: "Database, cache and cloud credentials, rotated by the service",
});
/** Exported: what other programs (such as examples/audit-logs) take as their `projectId`. */
export const projectId = project.id;
const staging = new ProjectEnvironment("staging", { projectId, name: "Staging", slug: "staging" });
const prod = new ProjectEnvironment("prod", { projectId, name: "Production", slug: "prod" });

// 2. The folders the rotations write into: /app/db in both environments, /infra in prod. Each
//    names its environment's slug and its parent's `secretPath`, so the engine makes them in order.
const dbFolder = (environment: ProjectEnvironment, name: string) => {
  const app = new SecretFolder(`${name}-app`, { projectId, environment: environment.slug, name: "app" });
  return new SecretFolder(`${name}-app-db`, {
    projectId,
    environment: environment.slug,
    name: "db",
    path: app.secretPath,
  });
};
const stagingDb = dbFolder(staging, "staging");
const prodDb = dbFolder(prod, "prod");
const prodInfra = new SecretFolder("prod-infra", { projectId, environment: prod.slug, name: "infra" });

// 3. The connections: the accounts the service signs in as to change the credentials. Their
//    secrets come from secret config (encrypted in state, `[secret]` in previews, never returned).
const ordersDbConnection = new AppConnection("orders-db", {
  app: "postgres",
  name: "orders-db",
  projectId,
  method: "username-and-password",
  credentials: {
    host: postgresHost,
    port: 5432,
    database: "orders",
    username: "secretops_rotator",
    password: config.requireSecret("postgresPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});
const reportingDbConnection = new AppConnection("reporting-db", {
  app: "mysql",
  name: "reporting-db",
  projectId,
  method: "username-and-password",
  credentials: {
    host: mysqlHost,
    port: 3306,
    database: "reporting",
    username: "secretops_rotator",
    password: config.requireSecret("mysqlPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});
const cacheConnection = new AppConnection("storefront-cache", {
  app: "redis",
  name: "storefront-cache",
  projectId,
  method: "username-and-password",
  credentials: {
    host: redisHost,
    port: 6380,
    username: "secretops_rotator",
    password: config.requireSecret("redisPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});
const azureConnection = new AppConnection("azure-app-registrations", {
  app: "azure-client-secrets",
  name: "azure-app-registrations",
  projectId,
  method: "client-secret",
  credentials: {
    tenantId: azureTenantId,
    clientId: azureRotatorClientId,
    clientSecret: config.requireSecret("azureRotatorClientSecret"),
  },
});

// 4. PostgreSQL: two existing users are used alternately, so the one apps currently use is never
//    changed under them. The password policy avoids characters that need quoting in URLs. On
//    destroy the written secrets are deleted and the generated passwords revoked in the database.
const ordersDb = [
  { environment: "staging", folder: stagingDb },
  { environment: "prod", folder: prodDb },
].map(
  ({ environment, folder }) =>
    new SecretRotation(`orders-db-${environment}`, {
      type: "postgres-credentials",
      name: "orders-db",
      projectId,
      connectionId: ordersDbConnection.id,
      environment: folder.environment,
      secretPath: folder.secretPath,
      // Prod rotates monthly, staging weekly so problems show up there first.
      rotationInterval: environment === "prod" ? 30 : 7,
      rotateAtUtc: { hours: 2, minutes: 15 },
      parameters: {
        username1: "orders_blue",
        username2: "orders_green",
        rotationStatement: `ALTER USER "{{username}}" WITH PASSWORD '{{password}}'`,
        passwordRequirements: {
          length: 40,
          required: { lowercase: 4, uppercase: 4, digits: 4, symbols: 2 },
          allowedSymbols: "-_.~",
        },
      },
      secretsMapping: { username: "ORDERS_DB_USER", password: "ORDERS_DB_PASSWORD" },
      description: `Orders database credentials (${environment})`,
      deleteSecrets: true,
      revokeGeneratedCredentials: true,
    }),
);

// 5. MySQL: the statement keeps each user's host pattern. On destroy the secrets are deleted but
//    the credentials stay valid (the default), so report jobs that already read them finish.
const reportingDb = new SecretRotation("reporting-db", {
  type: "mysql-credentials",
  name: "reporting-db",
  projectId,
  connectionId: reportingDbConnection.id,
  environment: prodDb.environment,
  secretPath: prodDb.secretPath,
  rotationInterval: 14,
  rotateAtUtc: { hours: 4, minutes: 0 },
  parameters: {
    username1: "reporting_a",
    username2: "reporting_b",
    rotationStatement: "ALTER USER '{{username}}'@'%' IDENTIFIED BY '{{password}}'",
    passwordRequirements: { length: 32, required: { lowercase: 2, uppercase: 2, digits: 2, symbols: 0 } },
  },
  secretsMapping: { username: "REPORTING_DB_USER", password: "REPORTING_DB_PASSWORD" },
  description: "Read-only reporting user",
  deleteSecrets: true,
  revokeGeneratedCredentials: false,
});

// 6. Redis: the service creates an ACL user with these permissions (ACL rule syntax) and writes
//    its name and password.
const cache = new SecretRotation("storefront-cache", {
  type: "redis-credentials",
  name: "storefront-cache",
  projectId,
  connectionId: cacheConnection.id,
  environment: prodInfra.environment,
  secretPath: prodInfra.secretPath,
  rotationInterval: 30,
  parameters: {
    permissionScope: "~cache:* &cache:* +@read +@write -@dangerous",
    passwordRequirements: { length: 64, required: { lowercase: 1, uppercase: 1, digits: 1, symbols: 0 } },
  },
  secretsMapping: { username: "CACHE_REDIS_USER", password: "CACHE_REDIS_PASSWORD" },
  deleteSecrets: true,
});

// 7. Azure app registration: a new client secret every 90 days (Azure caps their lifetime),
//    revoked in Azure when the rotation is destroyed.
const ciClientSecret = new SecretRotation("ci-deployer-client-secret", {
  type: "azure-client-secret",
  name: "ci-deployer-client-secret",
  projectId,
  connectionId: azureConnection.id,
  environment: prodInfra.environment,
  secretPath: prodInfra.secretPath,
  rotationInterval: 90,
  rotateAtUtc: { hours: 9, minutes: 0 },
  parameters: { objectId: azureAppObjectId, clientId: azureAppClientId, appName: "ci-deployer" },
  secretsMapping: { clientId: "AZURE_CLIENT_ID", clientSecret: "AZURE_CLIENT_SECRET" },
  description: "Client secret of the CI deployment app registration",
  deleteSecrets: true,
  revokeGeneratedCredentials: true,
});

const all = [...ordersDb, reportingDb, cache, ciClientSecret];

/** When each rotation runs next (null when auto-rotation is off), by `<environment><secretPath>/<name>`. */
export const nextRotations = pulumi
  .all(all.map((r) => pulumi.all([pulumi.interpolate`${r.environment}${r.secretPath}/${r.name}`, r.nextRotationAt])))
  .apply((pairs) => Object.fromEntries(pairs));
/** Which of the two credential sets is live: 0 or 1. */
export const ordersDbActiveIndex = ordersDb.map((r) => r.activeIndex);
export const cacheRotationStatus = cache.rotationStatus;
export const ciClientSecretMapping = ciClientSecret.secretsMapping;
