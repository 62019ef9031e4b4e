// An ES module program: the engine imports it (run.js), and so does `secretops check`.
import pulumi from "@pulumi/pulumi";
import secretops from "secretops-pulumi";

const db = new secretops.AppConnection("orders-db", {
  app: "postgres",
  name: "orders-db",
  projectId: "10000000-0000-4000-8000-000000000001",
  method: "username-and-password",
  credentials: {
    host: "db.internal",
    port: 5432,
    database: "orders",
    username: "rotator",
    password: pulumi.secret("a-password"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

new secretops.SecretRotation("orders-db-rotation", {
  type: "postgres-credentials",
  name: "Orders_DB",
  projectId: "10000000-0000-4000-8000-000000000001",
  connectionId: db.id,
  environment: "prod",
  secretPath: "/app/db",
  rotationInterval: 30,
  parameters: { username1: "orders_a", username2: "orders_b" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
});

export const connectionId = db.id;
