import type { RotationType } from "./row";
import { mssqlCredentials, mysqlCredentials, postgresCredentials } from "./sql";
import { redisCredentials } from "./redis-credentials";
import { azureClientSecret } from "./azure-client-secret";
import { awsIamUserSecret } from "./aws-iam-user-secret";
import { gcpServiceAccountKey } from "./gcp-service-account-key";
import { databricksServiceAccountSecret, databricksServicePrincipalSecret } from "./databricks";
import { oracledbCredentials } from "./oracledb-credentials";
import { auth0ClientSecret } from "./auth0-client-secret";
import { ldapPassword } from "./ldap-password";
import { oktaClientSecret } from "./okta-client-secret";
import { mongodbCredentials } from "./mongodb-credentials";
import { azureCertificate } from "./azure-certificate";
import { dbtServiceToken } from "./dbt-service-token";
import { fireworksApiKey } from "./fireworks-api-key";
import { cloudflareApiToken } from "./cloudflare-api-token";
import { cloudflareR2AccessKey } from "./cloudflare-r2-access-key";
import { openRouterApiKey } from "./open-router-api-key";
import { litellmApiKey } from "./litellm-api-key";
import { unixLinuxLocalAccount } from "./unix-linux-local-account";
import { windowsLocalAccount } from "./windows-local-account";
import { hpIloLocalAccount } from "./hp-ilo-local-account";
import { convexAccessKey } from "./convex-access-key";
import { datadogApiKey } from "./datadog-api-key";
import { datadogApplicationKeySecret } from "./datadog-application-key-secret";
import { supabaseApiKey } from "./supabase-api-key";
import { salesforceOauthCredentials } from "./salesforce-oauth-credentials";
import { openaiAdminApiKey } from "./openai-admin-api-key";
import { openaiServiceAccount } from "./openai-service-account";
import { snowflakeUserKeyPair } from "./snowflake-user-key-pair";
import { sshPassword } from "./ssh-password";
import { stripeApiKey } from "./stripe-api-key";

export type {
  InvalidRotationExample,
  PasswordRequirements,
  RotationCreateParts,
  RotationCreateRule,
  RotationType,
} from "./row";
export { currentPasswordRule, defaultPasswordRequirements, passwordRequirements } from "./row";

/** The secret rotation types: one row per type, keyed by its real slug. */
export const rotationTypes = {
  "postgres-credentials": postgresCredentials,
  "mssql-credentials": mssqlCredentials,
  "mysql-credentials": mysqlCredentials,
  "redis-credentials": redisCredentials,
  "azure-client-secret": azureClientSecret,
  "aws-iam-user-secret": awsIamUserSecret,
  "gcp-service-account-key": gcpServiceAccountKey,
  "databricks-service-principal-secret": databricksServicePrincipalSecret,
  "databricks-service-account-secret": databricksServiceAccountSecret,
  "oracledb-credentials": oracledbCredentials,
  "auth0-client-secret": auth0ClientSecret,
  "ldap-password": ldapPassword,
  "okta-client-secret": oktaClientSecret,
  "mongodb-credentials": mongodbCredentials,
  "azure-certificate": azureCertificate,
  "dbt-service-token": dbtServiceToken,
  "fireworks-api-key": fireworksApiKey,
  "cloudflare-api-token": cloudflareApiToken,
  "cloudflare-r2-access-key": cloudflareR2AccessKey,
  "open-router-api-key": openRouterApiKey,
  "litellm-api-key": litellmApiKey,
  "unix-linux-local-account": unixLinuxLocalAccount,
  "windows-local-account": windowsLocalAccount,
  "hp-ilo-local-account": hpIloLocalAccount,
  "convex-access-key": convexAccessKey,
  "datadog-api-key": datadogApiKey,
  "datadog-application-key-secret": datadogApplicationKeySecret,
  "supabase-api-key": supabaseApiKey,
  "salesforce-oauth-credentials": salesforceOauthCredentials,
  "openai-admin-api-key": openaiAdminApiKey,
  "openai-service-account": openaiServiceAccount,
  "snowflake-user-key-pair": snowflakeUserKeyPair,
  "ssh-password": sshPassword,
  "stripe-api-key": stripeApiKey,
} satisfies Record<string, RotationType>;
