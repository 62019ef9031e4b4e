// Three secretops resources, each with an invalid field, for `secretops check`. The ids only need
// to be well formed: check runs under Pulumi's mocks and never reaches the service.
const pulumi = require("@pulumi/pulumi");
const secretops = require("secretops-pulumi");

const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "0b7d3c5e-6f0a-4a59-9f0e-8c2b1d4e5f60";
const connectionId = "7f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

new secretops.SecretSync("bad-sync", {
  destination: "azure-key-vault",
  name: "Bad_Name",
  projectId,
  connectionId,
  environment: "dev",
  secretPath: "/",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
});

new secretops.SecretRotation("bad-rotation", {
  type: "redis-credentials",
  name: "cache",
  projectId,
  connectionId,
  environment: "dev",
  secretPath: "/",
  rotationInterval: 0,
  parameters: { permissionScope: "~* +@all" },
  secretsMapping: { username: "REDIS_USER", password: "REDIS_PASSWORD" },
});

new secretops.CertificateProfile("bad-profile", {
  projectId,
  certificatePolicyId: "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98",
  slug: "Not A Slug",
  issuerType: "self-signed",
  enrollmentType: "api",
  apiConfig: { autoRenew: true, renewBeforeDays: 10 },
});
