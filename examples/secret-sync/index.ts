import * as pulumi from "@pulumi/pulumi";
import { AppConnection, Project, ProjectEnvironment, Secret, SecretFolder, SecretSync } from "secretops-pulumi";

/**
 * Secret syncs: push the secrets of an environment folder to the systems that consume them.
 *
 *  - the web app's secrets to Vercel, one sync per environment (staging → preview, prod → production);
 *  - the API's prod secrets to Azure App Configuration, renamed `APP_<key>` under a label;
 *  - the infrastructure secrets to Azure Key Vault, removed from the vault again on destroy.
 *
 * The program makes everything the syncs hang on: the project, its staging and prod environments,
 * the folders and the secrets in them, and the connections the syncs push through. Every value
 * that is a secret comes from secret config; set them before the first `pulumi up`:
 *   pulumi config set --secret stagingStripeSecretKey <key>    (and prodStripeSecretKey, cdnSigningKey)
 *   pulumi config set --secret vercelApiToken <token>
 *   pulumi config set --secret azureClientSecret <client secret>
 * It targets the local emulator by default (which accepts any credentials). Against your own service:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 *   pulumi config set azureTenantId <id>   (and azureClientId, vercelTeamId, vercelProjectId, …)
 */
const config = new pulumi.Config();
// Project slugs are unique in an organization: set another to run this program twice there.
const projectSlug = config.get("projectSlug") ?? "storefront-syncs";

// Where the secrets go. Nothing here is secret: the connections hold the credentials.
const vercelTeamId = config.get("vercelTeamId") ?? "team_platform";
const vercelProjectId = config.get("vercelProjectId") ?? "prj_storefront";
const configurationUrl = config.get("configurationUrl") ?? "https://storefront-config.azconfig.io";
const vaultBaseUrl = config.get("vaultBaseUrl") ?? "https://storefront-infra.vault.azure.net";
// The Azure app registration the service signs in as, to both App Configuration and Key Vault.
const azureTenantId = config.get("azureTenantId") ?? "6b1f3c2e-8d4a-4f7b-9e1c-2a5d7f9b3c41";
const azureClientId = config.get("azureClientId") ?? "c4e8a1d2-7b3f-4a6e-8c9d-1f2e3a4b5c6d";

const managedBy = `Managed by Pulumi (${pulumi.getProject()}/${pulumi.getStack()})`;

// 1. The project. Its template makes the environments dev, staging and prod: declaring staging and
//    prod takes them over, and what is in them names their slugs, so the engine orders the work.
const project = new Project("storefront", {
  projectName: "Storefront",
  slug: projectSlug,
  projectDescription: `The storefront's secrets and where they are synced. ${managedBy}`,
});
/** Exported: what other programs (such as examples/audit-logs) take as their `projectId`. */
export const projectId = project.id;
const staging = new ProjectEnvironment("staging", { projectId, name: "Staging", slug: "staging" });
const prod = new ProjectEnvironment("prod", { projectId, name: "Production", slug: "prod" });

// 2. The folders the syncs push. The staging sync imports what Vercel already has into its folder:
//    secrets this program does not declare, which the service would refuse to delete the folder
//    over on destroy without `forceDelete`.
const stagingApp = new SecretFolder("staging-app", {
  projectId,
  environment: staging.slug,
  name: "app",
  forceDelete: true,
});
const prodApp = new SecretFolder("prod-app", { projectId, environment: prod.slug, name: "app" });
const prodInfra = new SecretFolder("prod-infra", { projectId, environment: prod.slug, name: "infra" });

// 3. The secrets in them, each value from secret config: encrypted in state, never an output,
//    masked in previews. Each names its folder by its outputs, so the folder comes first.
const secret = (name: string, folder: SecretFolder, secretName: string, configKey: string) =>
  new Secret(name, {
    projectId,
    environment: folder.environment,
    secretPath: folder.secretPath,
    secretName,
    secretValue: config.requireSecret(configKey),
  });
const stagingSecrets = [secret("staging-stripe-key", stagingApp, "STRIPE_SECRET_KEY", "stagingStripeSecretKey")];
const prodAppSecrets = [secret("prod-stripe-key", prodApp, "STRIPE_SECRET_KEY", "prodStripeSecretKey")];
const prodInfraSecrets = [secret("prod-cdn-signing-key", prodInfra, "CDN_SIGNING_KEY", "cdnSigningKey")];

// 4. The connections the syncs push through, their credentials from secret config. They belong to
//    the project: only its syncs can use them.
const vercel = new AppConnection("vercel", {
  app: "vercel",
  name: "storefront-vercel",
  projectId,
  description: `Vercel team ${vercelTeamId}. ${managedBy}`,
  method: "api-token",
  credentials: { apiToken: config.requireSecret("vercelApiToken") },
});
const azureCredentials = {
  tenantId: azureTenantId,
  clientId: azureClientId,
  clientSecret: config.requireSecret("azureClientSecret"),
};
const appConfiguration = new AppConnection("app-configuration", {
  app: "azure-app-configuration",
  name: "storefront-app-configuration",
  projectId,
  description: `Azure App Configuration, as the storefront's app registration. ${managedBy}`,
  method: "client-secret",
  credentials: azureCredentials,
});
const keyVault = new AppConnection("key-vault", {
  app: "azure-key-vault",
  name: "storefront-key-vault",
  projectId,
  description: `Azure Key Vault, as the storefront's app registration. ${managedBy}`,
  method: "client-secret",
  credentials: azureCredentials,
});

// 5. Vercel: one sync per environment of the web app. Production is authoritative (the service
//    overwrites whatever is in Vercel); preview first imports what Vercel already has, the
//    service's values winning on conflicts, and never deletes keys it does not know. Each sync
//    waits for its folder's secrets (dependsOn), so its first job pushes them.
const vercelTargets: {
  environment: string;
  folder: SecretFolder;
  secrets: Secret[];
  target: "preview" | "production";
  branch?: string;
}[] = [
  { environment: "staging", folder: stagingApp, secrets: stagingSecrets, target: "preview", branch: "main" },
  { environment: "prod", folder: prodApp, secrets: prodAppSecrets, target: "production" },
];
const vercelSyncs = vercelTargets.map(
  ({ environment, folder, secrets, target, branch }) =>
    new SecretSync(
      `storefront-${environment}-vercel`,
      {
        destination: "vercel",
        name: `storefront-${environment}-vercel`,
        projectId,
        connectionId: vercel.id,
        environment: folder.environment,
        secretPath: folder.secretPath,
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
      },
      { dependsOn: secrets },
    ),
);

// 6. Azure App Configuration: the API's prod secrets become `APP_<secretKey>` key-values under
//    the `prod` label, next to the settings other teams keep in the same store.
const appConfigurationSync = new SecretSync(
  "api-prod-app-configuration",
  {
    destination: "azure-app-configuration",
    name: "api-prod-app-configuration",
    projectId,
    connectionId: appConfiguration.id,
    environment: prodApp.environment,
    secretPath: prodApp.secretPath,
    destinationConfig: { configurationUrl, label: "prod" },
    syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "APP_{{secretKey}}" },
    description: `API prod secrets → App Configuration (label prod). ${managedBy}`,
  },
  { dependsOn: prodAppSecrets },
);

// 7. Azure Key Vault: the infrastructure secrets of prod. Certificates already in the vault are
//    not imported back; on `pulumi destroy` the synced secrets are removed from the vault too,
//    and the delete waits up to two minutes for that remove job.
const keyVaultSync = new SecretSync(
  "infra-prod-key-vault",
  {
    destination: "azure-key-vault",
    name: "infra-prod-key-vault",
    projectId,
    connectionId: keyVault.id,
    environment: prodInfra.environment,
    secretPath: prodInfra.secretPath,
    destinationConfig: { vaultBaseUrl },
    syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true },
    description: `Infrastructure prod secrets → Key Vault. ${managedBy}`,
    removeSecrets: true,
    syncTimeoutSeconds: 120,
  },
  { dependsOn: prodInfraSecrets },
);

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
//   environment: prodInfra.environment,
//   secretPath: prodInfra.secretPath,
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
