import type { SyncDestination } from "./row";
import { vercel } from "./vercel";
import { azureAppConfiguration } from "./azure-app-configuration";
import { azureKeyVault } from "./azure-key-vault";
import { awsParameterStore } from "./aws-parameter-store";
import { awsSecretsManager } from "./aws-secrets-manager";
import { github } from "./github";
import { gcpSecretManager } from "./gcp-secret-manager";
import { databricks } from "./databricks";
import { azureDevops } from "./azure-devops";
import { azureEntraIdScim } from "./azure-entra-id-scim";
import { humanitec } from "./humanitec";
import { terraformCloud } from "./terraform-cloud";
import { hashicorpVault } from "./hashicorp-vault";
import { camunda } from "./camunda";
import { windmill } from "./windmill";
import { teamcity } from "./teamcity";
import { ociVault } from "./oci-vault";
import { onePass } from "./1password";
import { heroku } from "./heroku";
import { render } from "./render";
import { flyio } from "./flyio";
import { gitlab } from "./gitlab";
import { railway } from "./railway";
import { triggerDev } from "./trigger-dev";
import { cloudflarePages } from "./cloudflare-pages";
import { cloudflareWorkers } from "./cloudflare-workers";
import { digitalOceanAppPlatform } from "./digital-ocean-app-platform";
import { checkly } from "./checkly";
import { netlify } from "./netlify";
import { supabase } from "./supabase";
import { zabbix } from "./zabbix";
import { northflank } from "./northflank";
import { bitbucket } from "./bitbucket";
import { laravelForge } from "./laravel-forge";
import { chef } from "./chef";
import { octopusDeploy } from "./octopus-deploy";
import { circleci } from "./circleci";
import { externalInfisical } from "./external-infisical";
import { ovh } from "./ovh";
import { devin } from "./devin";
import { ona } from "./ona";
import { travisCi } from "./travis-ci";
import { snowflake } from "./snowflake";
import { qovery } from "./qovery";
import { cloud66 } from "./cloud-66";
import { cloudflareSecretsStore } from "./cloudflare-secrets-store";
import { convex } from "./convex";
import { coolify } from "./coolify";
import { daytona } from "./daytona";
import { gitea } from "./gitea";
import { hasuraCloud } from "./hasura-cloud";
import { keeperPasswordManager } from "./keeper-password-manager";
import { koyeb } from "./koyeb";
import { portainer } from "./portainer";
import { rundeck } from "./rundeck";
import { spacelift } from "./spacelift";

export type { InvalidSyncExample, SyncBodyParts, SyncBodyRule, SyncDestination } from "./row";
export { keySchemaNamesRule } from "./row";

/** The sync destinations: one row per destination, keyed by its real slug. */
export const syncDestinations = {
  vercel,
  "azure-app-configuration": azureAppConfiguration,
  "azure-key-vault": azureKeyVault,
  "aws-parameter-store": awsParameterStore,
  "aws-secrets-manager": awsSecretsManager,
  github,
  "gcp-secret-manager": gcpSecretManager,
  databricks,
  "azure-devops": azureDevops,
  "azure-entra-id-scim": azureEntraIdScim,
  humanitec,
  "terraform-cloud": terraformCloud,
  "hashicorp-vault": hashicorpVault,
  camunda,
  windmill,
  teamcity,
  "oci-vault": ociVault,
  "1password": onePass,
  heroku,
  render,
  flyio,
  gitlab,
  railway,
  "trigger-dev": triggerDev,
  "cloudflare-pages": cloudflarePages,
  "cloudflare-workers": cloudflareWorkers,
  "digital-ocean-app-platform": digitalOceanAppPlatform,
  zabbix,
  checkly,
  supabase,
  netlify,
  northflank,
  bitbucket,
  "laravel-forge": laravelForge,
  chef,
  "octopus-deploy": octopusDeploy,
  circleci,
  "external-infisical": externalInfisical,
  ovh,
  devin,
  ona,
  "travis-ci": travisCi,
  snowflake,
  qovery,
  "cloud-66": cloud66,
  "cloudflare-secrets-store": cloudflareSecretsStore,
  convex,
  coolify,
  daytona,
  gitea,
  "hasura-cloud": hasuraCloud,
  "keeper-password-manager": keeperPasswordManager,
  koyeb,
  portainer,
  rundeck,
  spacelift,
} satisfies Record<string, SyncDestination>;
