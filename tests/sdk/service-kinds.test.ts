import { appConnectionApps, rotationTypeSlugs, syncDestinationSlugs } from "../../sdk/schemas";

/**
 * The service's kinds, quoted from its own enums (Infisical/infisical, read on 2026-11-25), against
 * the kinds this package types. Every slug the service lists must be typed here; a kind the package
 * types beyond the quoted enum must be named below with where it comes from, so neither list can
 * drift unnoticed.
 */

/** `backend/src/services/secret-sync/secret-sync-enums.ts` (commit 0584c33e): `SecretSync`, 44 values. */
const serviceSyncDestinations = [
  "aws-parameter-store",
  "aws-secrets-manager",
  "github",
  "gcp-secret-manager",
  "azure-key-vault",
  "azure-app-configuration",
  "azure-devops",
  "databricks",
  "humanitec",
  "terraform-cloud",
  "camunda",
  "vercel",
  "windmill",
  "hashicorp-vault",
  "teamcity",
  "oci-vault",
  "1password",
  "heroku",
  "render",
  "flyio",
  "trigger-dev",
  "gitlab",
  "cloudflare-pages",
  "cloudflare-workers",
  "supabase",
  "zabbix",
  "railway",
  "checkly",
  "digital-ocean-app-platform",
  "netlify",
  "northflank",
  "bitbucket",
  "laravel-forge",
  "chef",
  "octopus-deploy",
  "circleci",
  "azure-entra-id-scim",
  "external-infisical",
  "ovh",
  "devin",
  "ona",
  "travis-ci",
  "snowflake",
  "qovery",
];

/** `backend/src/services/app-connection/app-connection-enums.ts` (commit 00392e9c): `AppConnection`, 50 values. */
const serviceConnectionKinds = [
  "github",
  "github-radar",
  "aws",
  "databricks",
  "gcp",
  "azure-key-vault",
  "azure-app-configuration",
  "azure-client-secrets",
  "azure-devops",
  "azure-adcs",
  "humanitec",
  "terraform-cloud",
  "vercel",
  "postgres",
  "mssql",
  "mysql",
  "camunda",
  "windmill",
  "auth0",
  "hashicorp-vault",
  "ldap",
  "teamcity",
  "oci",
  "oracledb",
  "1password",
  "heroku",
  "render",
  "flyio",
  "gitlab",
  "cloudflare",
  "dns-made-easy",
  "zabbix",
  "railway",
  "bitbucket",
  "checkly",
  "supabase",
  "digital-ocean",
  "netlify",
  "okta",
  "redis",
  "mongodb",
  "laravel-forge",
  "chef",
  "northflank",
  "octopus-deploy",
  "ssh",
  "smb",
  "open-router",
  "circleci",
  "coolify",
];

/** `backend/src/ee/services/secret-rotation-v2/secret-rotation-v2-enums.ts` (newest stored version): `SecretRotation`, 15 values. */
const serviceRotationTypes = [
  "postgres-credentials",
  "mssql-credentials",
  "mysql-credentials",
  "oracledb-credentials",
  "auth0-client-secret",
  "azure-client-secret",
  "ldap-password",
  "aws-iam-user-secret",
  "okta-client-secret",
  "redis-credentials",
  "mongodb-credentials",
  "databricks-service-principal-secret",
  "unix-linux-local-account",
  "windows-local-account",
  "open-router-api-key",
];

/**
 * Kinds typed beyond the quoted enums, each read from its own folder in the service's source:
 * newer than the enum versions stored, or (venafi) from docs/service-api.md §1. Kinds whose
 * folder is in the stored source but that are not typed, and why: `azure` (connection, one stored
 * version, since split into the azure-* kinds), `service-now` (connection, one stored version
 * without a method enum: an earlier draft of `servicenow`), `easydns` and `alibaba-cloud`
 * (connections, with the `alibaba-cloud-kms` destination: one stored version of each file, no
 * documentation page, and for `easydns` no `index.ts`: not known to have shipped).
 */
const beyondTheEnums = {
  // `services/secret-sync/<destination>/` folders newer than the stored enum (the folder of
  // `cloud-66` is `cloud66/`, of `keeper-password-manager` `keeper/`)
  syncDestinations: [
    "cloud-66",
    "cloudflare-secrets-store",
    "convex",
    "coolify",
    "daytona",
    "gitea",
    "hasura-cloud",
    "keeper-password-manager",
    "koyeb",
    "portainer",
    "rundeck",
    "spacelift",
  ] as string[],
  connectionKinds: [
    "venafi",
    // needed by destinations of the sync enum: newer than the connection enum stored
    "azure-entra-id",
    "trigger-dev",
    "external-infisical",
    "ovh",
    "devin",
    "ona",
    "travis-ci",
    "snowflake",
    "qovery",
    // needed by rotation types of the source's folders
    "azure-certificate",
    "dbt",
    "fireworks",
    "litellm",
    "convex",
    "datadog",
    // in an earlier version of the connection enum (commit 305dbc54), with its own folder
    "azure-dns",
    // needed by rotation types of the source's folders: `services/app-connection/<app>/`
    "openai",
    "salesforce",
    "stripe",
    // needed by destinations of the source's folders: `services/app-connection/<app>/`
    "cloud-66",
    "daytona",
    "gitea",
    "hasura-cloud",
    "keeper",
    "koyeb",
    "portainer",
    "rundeck",
    "spacelift",
    // the rest of `services/app-connection/<app>/` (certificate authorities and DNS providers,
    // appliances, and others no sync or rotation of this package uses yet)
    "adcs",
    "anthropic",
    "digicert",
    "doppler",
    "f5-big-ip",
    "godaddy",
    "hpe-ilo",
    "kemp-loadmaster",
    "microsoft-intune",
    "netscaler",
    "nutanix-prism-central",
    "palo-alto-networks",
    "powerdns",
    "s3-compatible",
    "servicenow",
    "ultradns",
    "venafi-tpp",
    "winrm",
  ],
  // `ee/services/secret-rotation-v2/<type>/` folders newer than the stored enum
  rotationTypes: [
    "gcp-service-account-key",
    "databricks-service-account-secret",
    "azure-certificate",
    "dbt-service-token",
    "fireworks-api-key",
    "cloudflare-api-token",
    "cloudflare-r2-access-key",
    "litellm-api-key",
    "hp-ilo-local-account",
    "convex-access-key",
    "datadog-api-key",
    "datadog-application-key-secret",
    // `ee/services/secret-rotation-v2/<type>/` folders, each with its router in
    // `ee/routes/v2/secret-rotation-v2-routers/<type>-rotation-router.ts`
    "supabase-api-key",
    "salesforce-oauth-credentials",
    "openai-admin-api-key",
    "openai-service-account",
    "snowflake-user-key-pair",
    "ssh-password",
    "stripe-api-key",
  ],
};

const sorted = (xs: readonly string[]) => [...xs].sort();

test.each([
  ["sync destinations", syncDestinationSlugs, serviceSyncDestinations, beyondTheEnums.syncDestinations, 44],
  ["connection kinds", appConnectionApps, serviceConnectionKinds, beyondTheEnums.connectionKinds, 50],
  ["rotation types", rotationTypeSlugs, serviceRotationTypes, beyondTheEnums.rotationTypes, 15],
] as const)("every one of the service's %s is typed", (_, typed, service, beyond, count) => {
  expect(service).toHaveLength(count);
  expect(new Set(service).size).toBe(count);
  expect(service.filter((s) => !(typed as readonly string[]).includes(s))).toEqual([]);
  expect(sorted(typed)).toEqual(sorted([...service, ...beyond]));
  expect(typed).toHaveLength(count + beyond.length);
});
