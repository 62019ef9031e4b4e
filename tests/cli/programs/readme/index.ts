// The README's program ("AppConnection makes a connection in code"), as a user writes it: TypeScript,
// no tsconfig.json, no ts-node installed (the engine, and `secretops check`, use the ones
// @pulumi/pulumi vendors when the program has none).
import * as pulumi from "@pulumi/pulumi";
import { AppConnection, SecretRotation } from "secretops-pulumi";

const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";

const db = new AppConnection("orders-db", {
  app: "postgres",
  name: "orders-db",
  projectId,
  method: "username-and-password",
  credentials: {
    host: "db.internal",
    port: 5432,
    database: "orders",
    username: "rotator",
    password: config.requireSecret("ordersDbPassword"),
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});
new SecretRotation("orders-db-rotation", {
  type: "postgres-credentials",
  name: "orders-db",
  projectId,
  connectionId: db.id,
  environment: "prod",
  secretPath: "/app/db",
  rotationInterval: 30,
  parameters: { username1: "orders_a", username2: "orders_b" },
  secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
});

export const connectionId = db.id;
