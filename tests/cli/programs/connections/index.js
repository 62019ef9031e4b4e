// Connections made in code, and the syncs and rotations that use them by `conn.id`: an id the
// service gives at `pulumi up`, unknown before it (as in `pulumi preview`). The Heroku token is
// secret config, which `secretops check` cannot decrypt.
const pulumi = require("@pulumi/pulumi");
const { AppConnection, AppConnectionSettings, SecretRotation, SecretSync } = require("secretops-pulumi");

const config = new pulumi.Config();
const projectId = config.require("projectId");

const ordersDb = new AppConnection("orders-db", {
  app: "postgres",
  name: "orders-db",
  projectId,
  method: "username-and-password",
  credentials: {
    host: "db.internal",
    port: 5432,
    database: "orders",
    username: "rotator",
    password: pulumi.secret("a-password-for-the-rotator"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

new SecretRotation("orders-db-rotation", {
  type: "postgres-credentials",
  name: "orders-db",
  projectId,
  connectionId: ordersDb.id,
  environment: "prod",
  secretPath: "/app/db",
  rotationInterval: 30,
  parameters: { username1: "orders_a", username2: "orders_b" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
});

const heroku = new AppConnection("heroku", {
  app: "heroku",
  name: "heroku",
  projectId,
  method: "auth-token",
  credentials: { authToken: config.requireSecret("herokuToken") },
});

new SecretSync("web-heroku", {
  destination: "heroku",
  name: "web-heroku",
  projectId,
  connectionId: heroku.id,
  environment: "prod",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "00000000-0000-4000-8000-0000000000d1", appName: "web" },
});

const vercel = new AppConnection("vercel", {
  app: "vercel",
  name: "vercel",
  projectId,
  method: "api-token",
  credentials: { apiToken: pulumi.secret("a-vercel-token") },
});

// Built from the id (unknown until apply) and from the connection's name (an input, known).
new SecretSync("web-vercel", {
  destination: "vercel",
  name: "web-vercel",
  projectId,
  connectionId: vercel.id.apply((id) => id),
  environment: "prod",
  secretPath: "/app",
  description: pulumi.interpolate`through ${vercel.name}`,
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj_store", appName: "store", env: "production", teamId: "team_1" },
});

new AppConnectionSettings("vercel-settings", {
  app: "vercel",
  connectionId: vercel.id,
  description: "Vercel, managed by the platform team",
});

exports.connectionIds = { ordersDb: ordersDb.id, heroku: heroku.id, vercel: vercel.id };
