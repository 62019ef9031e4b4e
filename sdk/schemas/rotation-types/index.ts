import type { RotationType } from "./row";
import { mssqlCredentials, mysqlCredentials, postgresCredentials } from "./sql";
import { redisCredentials } from "./redis-credentials";
import { azureClientSecret } from "./azure-client-secret";
// imports of group A
import { awsIamUserSecret } from "./aws-iam-user-secret";
import { gcpServiceAccountKey } from "./gcp-service-account-key";
import { databricksServiceAccountSecret, databricksServicePrincipalSecret } from "./databricks";
// imports of group B
import { oracledbCredentials } from "./oracledb-credentials";
import { auth0ClientSecret } from "./auth0-client-secret";
import { ldapPassword } from "./ldap-password";
import { oktaClientSecret } from "./okta-client-secret";
import { mongodbCredentials } from "./mongodb-credentials";
import { azureCertificate } from "./azure-certificate";
// imports of group C
import { dbtServiceToken } from "./dbt-service-token";
// imports of group D
import { fireworksApiKey } from "./fireworks-api-key";
// imports of group E
import { cloudflareApiToken } from "./cloudflare-api-token";
import { cloudflareR2AccessKey } from "./cloudflare-r2-access-key";
// imports of group F
import { openRouterApiKey } from "./open-router-api-key";
import { litellmApiKey } from "./litellm-api-key";
// imports of group G
import { unixLinuxLocalAccount } from "./unix-linux-local-account";
import { windowsLocalAccount } from "./windows-local-account";
import { hpIloLocalAccount } from "./hp-ilo-local-account";
// imports of group H
import { convexAccessKey } from "./convex-access-key";
import { datadogApiKey } from "./datadog-api-key";
import { datadogApplicationKeySecret } from "./datadog-application-key-secret";

export type { PasswordRequirements, RotationType } from "./row";
export { defaultPasswordRequirements, passwordRequirements } from "./row";

/** The secret rotation types: one row per type, keyed by its real slug. */
export const rotationTypes = {
  "postgres-credentials": postgresCredentials,
  "mssql-credentials": mssqlCredentials,
  "mysql-credentials": mysqlCredentials,
  "redis-credentials": redisCredentials,
  "azure-client-secret": azureClientSecret,
  // group A
  "aws-iam-user-secret": awsIamUserSecret,
  "gcp-service-account-key": gcpServiceAccountKey,
  "databricks-service-principal-secret": databricksServicePrincipalSecret,
  "databricks-service-account-secret": databricksServiceAccountSecret,
  // group B
  "oracledb-credentials": oracledbCredentials,
  "auth0-client-secret": auth0ClientSecret,
  "ldap-password": ldapPassword,
  "okta-client-secret": oktaClientSecret,
  "mongodb-credentials": mongodbCredentials,
  "azure-certificate": azureCertificate,
  // group C
  "dbt-service-token": dbtServiceToken,
  // group D
  "fireworks-api-key": fireworksApiKey,
  // group E
  "cloudflare-api-token": cloudflareApiToken,
  "cloudflare-r2-access-key": cloudflareR2AccessKey,
  // group F
  "open-router-api-key": openRouterApiKey,
  "litellm-api-key": litellmApiKey,
  // group G
  "unix-linux-local-account": unixLinuxLocalAccount,
  "windows-local-account": windowsLocalAccount,
  "hp-ilo-local-account": hpIloLocalAccount,
  // group H
  "convex-access-key": convexAccessKey,
  "datadog-api-key": datadogApiKey,
  "datadog-application-key-secret": datadogApplicationKeySecret,
} satisfies Record<string, RotationType>;
