import * as pulumi from "@pulumi/pulumi";
import { AppConnection, Project, ProjectEnvironment, SecretFolder, SecretRotation, SecretSync } from "secretops-pulumi";

/**
 * App connections made in code: the platform team owns the credentials the service uses to reach
 * a database and a cloud account, and the rotation and syncs that use them, in one program.
 *
 *  - a PostgreSQL connection to the orders database, whose password comes from secret config;
 *    a rotation of the orders database users through it;
 *  - an AWS connection (an IAM user's access key, the secret key from secret config); the prod
 *    infrastructure secrets synced through it to AWS Secrets Manager, and the app's to Parameter
 *    Store.
 *
 * The rotation and the syncs take the connection's `id`, so Pulumi creates the connections before
 * them and deletes them after them (the service refuses to delete a connection a sync or rotation
 * still uses). The credentials are secret inputs: encrypted in state, `[secret]` in previews, never
 * returned by the service; a password changed elsewhere shows as drift, and the next `pulumi up`
 * puts this one back.
 *
 * The program also makes the project the connections belong to, its prod environment and the
 * folders the rotation writes into and the syncs push. The two secrets have no default; set them
 * before the first `pulumi up`:
 *   pulumi config set --secret ordersDbPassword <password>
 *   pulumi config set --secret awsSecretAccessKey <secret access key>
 * It targets the local emulator by default (which accepts any credentials). Against your own
 * service, also set:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 *   pulumi config set ordersDbHost <host>   (and awsAccessKeyId)
 */
const config = new pulumi.Config();
// Project slugs are unique in an organization: set another to run this program twice there.
const projectSlug = config.get("projectSlug") ?? "storefront-connections";
const ordersDbHost = config.get("ordersDbHost") ?? "orders-db.internal.example.com";
const awsAccessKeyId = config.get("awsAccessKeyId") ?? "AKIAIOSFODNN7EXAMPLE";

const managedBy = `Managed by Pulumi (${pulumi.getProject()}/${pulumi.getStack()})`;

// The project the connections belong to, and where the rotation writes and the syncs read: its
// template's prod environment (taken over), and the folders /app, /app/db and /infra in it.
const project = new Project("storefront", {
  projectName: "Storefront platform",
  slug: projectSlug,
  projectDescription: `Connections, rotations and syncs of the storefront. ${managedBy}`,
});
/** Exported: what other programs (such as examples/audit-logs) take as their `projectId`. */
export const projectId = project.id;
const prod = new ProjectEnvironment("prod", { projectId, name: "Production", slug: "prod" });
// The Parameter Store sync imports what is already there into /app: secrets this program does not
// declare, which the service would refuse to delete the folder over on destroy without `forceDelete`.
const app = new SecretFolder("prod-app", { projectId, environment: prod.slug, name: "app", forceDelete: true });
const db = new SecretFolder("prod-app-db", { projectId, environment: prod.slug, name: "db", path: app.secretPath });
const infra = new SecretFolder("prod-infra", { projectId, environment: prod.slug, name: "infra" });

// 1. PostgreSQL: the service connects as `secretops_rotator`, a user allowed to change the
//    passwords of the application's users. The connection belongs to the project (not the whole
//    organization): only this project's syncs and rotations can use it.
const ordersDb = new AppConnection("orders-db", {
  app: "postgres",
  name: "orders-db",
  projectId,
  description: `Orders database (primary), for credential rotation. ${managedBy}`,
  method: "username-and-password",
  credentials: {
    host: ordersDbHost,
    port: 5432,
    database: "orders",
    username: "secretops_rotator",
    password: config.requireSecret("ordersDbPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

// The orders service's database users `orders_blue` and `orders_green`, rotated monthly through
// that connection; the current one lands in prod /app/db as ORDERS_DB_USER and ORDERS_DB_PASSWORD.
const ordersDbCredentials = new SecretRotation("orders-db-credentials", {
  type: "postgres-credentials",
  name: "orders-db-credentials",
  projectId,
  connectionId: ordersDb.id,
  environment: db.environment,
  secretPath: db.secretPath,
  rotationInterval: 30,
  rotateAtUtc: { hours: 2, minutes: 30 },
  parameters: { username1: "orders_blue", username2: "orders_green" },
  secretsMapping: { username: "ORDERS_DB_USER", password: "ORDERS_DB_PASSWORD" },
  description: `Orders database credentials (prod). ${managedBy}`,
  // A rotation cannot be made over existing secrets: delete them with it, so the next `up` works.
  deleteSecrets: true,
});

// 2. AWS: an IAM user's access key. (The other method, `assume-role`, takes a role ARN instead.)
const awsProd = new AppConnection("aws-prod", {
  app: "aws",
  name: "aws-prod",
  projectId,
  description: `Production AWS account: secret syncs. ${managedBy}`,
  method: "access-key",
  credentials: {
    accessKeyId: awsAccessKeyId,
    secretAccessKey: config.requireSecret("awsSecretAccessKey"),
  },
});

// The prod infrastructure secrets, one AWS secret each, named `storefront/<key>` and tagged.
const infraToSecretsManager = new SecretSync("infra-prod-aws-secrets-manager", {
  destination: "aws-secrets-manager",
  name: "infra-prod-aws-secrets-manager",
  projectId,
  connectionId: awsProd.id,
  environment: infra.environment,
  secretPath: infra.secretPath,
  destinationConfig: { region: "eu-west-1", mappingBehavior: "one-to-one" },
  syncOptions: {
    initialSyncBehavior: "overwrite-destination",
    keySchema: "storefront/{{secretKey}}",
    tags: [{ key: "managed-by", value: "secretops" }],
  },
  description: `Infrastructure prod secrets → AWS Secrets Manager. ${managedBy}`,
});

// The app's prod secrets as parameters under /storefront/prod/; the values already there are
// imported first (the service's values win on conflicts).
const appToParameterStore = new SecretSync("app-prod-parameter-store", {
  destination: "aws-parameter-store",
  name: "app-prod-parameter-store",
  projectId,
  connectionId: awsProd.id,
  environment: app.environment,
  secretPath: app.secretPath,
  destinationConfig: { region: "eu-west-1", path: "/storefront/prod/" },
  syncOptions: { initialSyncBehavior: "import-prioritize-source" },
  description: `Storefront prod secrets → AWS Parameter Store. ${managedBy}`,
});

/** name → id of each connection: what other programs refer to. */
export const connectionIds = pulumi
  .all([ordersDb, awsProd].map((c) => pulumi.all([c.name, c.id])))
  .apply((pairs) => Object.fromEntries(pairs));
export const nextRotationAt = ordersDbCredentials.nextRotationAt;
/** `succeeded` for each sync once its first job ran (the provider waits for it). */
export const syncStatuses = pulumi
  .all([infraToSecretsManager, appToParameterStore].map((s) => pulumi.all([s.name, s.syncStatus])))
  .apply((pairs) => Object.fromEntries(pairs));
