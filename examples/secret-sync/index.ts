import * as pulumi from "@pulumi/pulumi";
import { SecretSync } from "secretops-pulumi";

/**
 * Secret syncs: push the secrets of an environment folder to the systems that consume them.
 *
 *  - the web app's secrets to Vercel, one sync per environment (staging → preview, prod → production);
 *  - the API's prod secrets to Azure App Configuration, renamed `APP_<key>` under a label;
 *  - the infrastructure secrets to Azure Key Vault, removed from the vault again on destroy.
 *
 * It targets the local emulator by default: the ids below are those of the emulator's default
 * fixture (`npm run emulator -- --json` prints them). Against your own service, set them:
 *   pulumi config set projectId <id>   (and vercelConnectionId, appConfigurationConnectionId, keyVaultConnectionId)
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";
const vercelConnectionId = config.get("vercelConnectionId") ?? "50000000-0000-4000-8000-000000000012";
const appConfigurationConnectionId =
  config.get("appConfigurationConnectionId") ?? "50000000-0000-4000-8000-000000000013";
const keyVaultConnectionId = config.get("keyVaultConnectionId") ?? "50000000-0000-4000-8000-000000000014";

// Where the secrets go. Nothing here is secret: the connections hold the credentials.
const vercelTeamId = config.get("vercelTeamId") ?? "team_platform";
const vercelProjectId = config.get("vercelProjectId") ?? "prj_storefront";
const configurationUrl = config.get("configurationUrl") ?? "https://storefront-config.azconfig.io";
const vaultBaseUrl = config.get("vaultBaseUrl") ?? "https://storefront-infra.vault.azure.net";

const managedBy = `Managed by Pulumi (${pulumi.getProject()}/${pulumi.getStack()})`;

// 1. Vercel: one sync per environment of the web app. Production is authoritative (the service
//    overwrites whatever is in Vercel); preview first imports what Vercel already has, the
//    service's values winning on conflicts, and never deletes keys it does not know.
const vercelTargets: { environment: string; target: "preview" | "production"; branch?: string }[] = [
  { environment: "staging", target: "preview", branch: "main" },
  { environment: "prod", target: "production" },
];
const vercelSyncs = vercelTargets.map(
  ({ environment, target, branch }) =>
    new SecretSync(`storefront-${environment}-vercel`, {
      destination: "vercel",
      name: `storefront-${environment}-vercel`,
      projectId,
      connectionId: vercelConnectionId,
      environment,
      secretPath: "/app",
      destinationConfig: {
        app: vercelProjectId,
        appName: "storefront",
        env: target,
        teamId: vercelTeamId,
        ...(branch ? { branch } : {}),
      },
      syncOptions:
        target === "production"
          ? { initialSyncBehavior: "overwrite-destination" }
          : { initialSyncBehavior: "import-prioritize-source", disableSecretDeletion: true },
      description: `Storefront ${environment} secrets → Vercel ${target}. ${managedBy}`,
    }),
);

// 2. Azure App Configuration: the API's prod secrets become `APP_<secretKey>` key-values under
//    the `prod` label, next to the settings other teams keep in the same store.
const appConfigurationSync = new SecretSync("api-prod-app-configuration", {
  destination: "azure-app-configuration",
  name: "api-prod-app-configuration",
  projectId,
  connectionId: appConfigurationConnectionId,
  environment: "prod",
  secretPath: "/app",
  destinationConfig: { configurationUrl, label: "prod" },
  syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "APP_{{secretKey}}" },
  description: `API prod secrets → App Configuration (label prod). ${managedBy}`,
});

// 3. Azure Key Vault: the infrastructure secrets of prod. Certificates already in the vault are
//    not imported back; on `pulumi destroy` the synced secrets are removed from the vault too,
//    and the delete waits up to two minutes for that remove job.
const keyVaultSync = new SecretSync("infra-prod-key-vault", {
  destination: "azure-key-vault",
  name: "infra-prod-key-vault",
  projectId,
  connectionId: keyVaultConnectionId,
  environment: "prod",
  secretPath: "/infra",
  destinationConfig: { vaultBaseUrl },
  syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true },
  description: `Infrastructure prod secrets → Key Vault. ${managedBy}`,
  removeSecrets: true,
  syncTimeoutSeconds: 120,
});

// A destination newer than this package (one it has no row for) goes through GenericSecretSync
// with the service's slug for it: `destinationConfig` and `syncOptions` are passed through as
// given (the common rules, such as `initialSyncBehavior` and `keySchema`, still apply). The
// emulator serves only the destinations this package types, so this one is left commented out:
//
// import { GenericSecretSync } from "secretops-pulumi";
// const newDestinationSync = new GenericSecretSync("infra-prod-new-destination", {
//   destination: "new-destination", // the service's slug
//   name: "infra-prod-new-destination",
//   projectId,
//   connectionId: config.require("newDestinationConnectionId"),
//   environment: "prod",
//   secretPath: "/infra",
//   destinationConfig: { region: "eu-west-1" }, // the destination's fields, as the service takes them
//   syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "storefront/{{secretKey}}" },
// });

const allSyncs = [...vercelSyncs, appConfigurationSync, keyVaultSync];

export const syncIds = pulumi
  .all(allSyncs.map((s) => pulumi.all([s.name, s.id])))
  .apply((pairs) => Object.fromEntries(pairs));
/** `succeeded` for each sync once its first job ran (the provider waits for it). */
export const syncStatuses = pulumi
  .all(allSyncs.map((s) => pulumi.all([s.name, s.syncStatus])))
  .apply((pairs) => Object.fromEntries(pairs));
export const appConfigurationKeySchema = appConfigurationSync.syncOptions.apply((o) => o.keySchema);
export const keyVaultLastSyncedAt = keyVaultSync.lastSyncedAt;
