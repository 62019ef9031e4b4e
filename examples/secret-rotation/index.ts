import * as pulumi from "@pulumi/pulumi";
import { SecretRotation } from "secretops-pulumi";

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
 * `deleteSecrets` and `revokeGeneratedCredentials` say what `pulumi destroy` (or a replacement)
 * does besides deleting the rotation. Both default to false: the secrets stay in the folder and
 * the credentials stay valid. Every rotation here deletes its secrets: a rotation can only be
 * created where none of its mapped secret names exist yet, so leftover secrets would make the
 * next `pulumi up` fail with `The following secrets already exist at the path …`.
 *
 * It targets the local emulator by default: the ids below are those of the emulator's default
 * fixture (`npm run emulator -- --json` prints them). Against your own service, set them:
 *   pulumi config set projectId <id>   (and postgresConnectionId, mysqlConnectionId, redisConnectionId, azureConnectionId)
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";
const postgresConnectionId = config.get("postgresConnectionId") ?? "50000000-0000-4000-8000-000000000002";
const mysqlConnectionId = config.get("mysqlConnectionId") ?? "50000000-0000-4000-8000-000000000004";
const redisConnectionId = config.get("redisConnectionId") ?? "50000000-0000-4000-8000-000000000005";
const azureConnectionId = config.get("azureConnectionId") ?? "50000000-0000-4000-8000-000000000006";
// The app registration whose client secret is rotated (its object id and application id).
const azureAppObjectId = config.get("azureAppObjectId") ?? "3f2c1b9e-5a7d-4e8f-9b6a-2d4c8e1f0a35";
const azureAppClientId = config.get("azureAppClientId") ?? "9d8e7f60-1a2b-4c3d-8e9f-0a1b2c3d4e5f";

// 1. PostgreSQL: two existing users are used alternately, so the one apps currently use is never
//    changed under them. The password policy avoids characters that need quoting in URLs. On
//    destroy the written secrets are deleted and the generated passwords revoked in the database.
const ordersDb = ["staging", "prod"].map(
  (environment) =>
    new SecretRotation(`orders-db-${environment}`, {
      type: "postgres-credentials",
      name: "orders-db",
      projectId,
      connectionId: postgresConnectionId,
      environment,
      secretPath: "/app/db",
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

// 2. MySQL: the statement keeps each user's host pattern. On destroy the secrets are deleted but
//    the credentials stay valid (the default), so report jobs that already read them finish.
const reportingDb = new SecretRotation("reporting-db", {
  type: "mysql-credentials",
  name: "reporting-db",
  projectId,
  connectionId: mysqlConnectionId,
  environment: "prod",
  secretPath: "/app/db",
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

// 3. Redis: the service creates an ACL user with these permissions (ACL rule syntax) and writes
//    its name and password.
const cache = new SecretRotation("storefront-cache", {
  type: "redis-credentials",
  name: "storefront-cache",
  projectId,
  connectionId: redisConnectionId,
  environment: "prod",
  secretPath: "/infra",
  rotationInterval: 30,
  parameters: {
    permissionScope: "~cache:* &cache:* +@read +@write -@dangerous",
    passwordRequirements: { length: 64, required: { lowercase: 1, uppercase: 1, digits: 1, symbols: 0 } },
  },
  secretsMapping: { username: "CACHE_REDIS_USER", password: "CACHE_REDIS_PASSWORD" },
  deleteSecrets: true,
});

// 4. Azure app registration: a new client secret every 90 days (Azure caps their lifetime),
//    revoked in Azure when the rotation is destroyed.
const ciClientSecret = new SecretRotation("ci-deployer-client-secret", {
  type: "azure-client-secret",
  name: "ci-deployer-client-secret",
  projectId,
  connectionId: azureConnectionId,
  environment: "prod",
  secretPath: "/infra",
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
