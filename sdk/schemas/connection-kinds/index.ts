import type { AppConnectionKind } from "./row";
import { auth0 } from "./auth0";
import { azureAppConfiguration, azureClientSecrets, azureKeyVault } from "./azure";
import { bitbucket } from "./bitbucket";
import { ldap } from "./ldap";
import { oci } from "./oci";
import { octopusDeploy } from "./octopus-deploy";
import { redis } from "./redis";
import { mssql, mysql, postgres } from "./sql";
import { venafi } from "./venafi";
import { vercel } from "./vercel";
import { github } from "./github";
import { githubRadar } from "./github-radar";
import { aws } from "./aws";
import { gcp } from "./gcp";
import { databricks } from "./databricks";
import { azureDevops } from "./azure-devops";
import { azureAdcs } from "./azure-adcs";
import { azureCertificate } from "./azure-certificate";
import { azureDns } from "./azure-dns";
import { azureEntraId } from "./azure-entra-id";
import { mongodb } from "./mongodb";
import { okta } from "./okta";
import { oracledb } from "./oracledb";
import { humanitec } from "./humanitec";
import { terraformCloud } from "./terraform-cloud";
import { hashicorpVault } from "./hashicorp-vault";
import { camunda } from "./camunda";
import { windmill } from "./windmill";
import { teamcity } from "./teamcity";
import { dbt } from "./dbt";
import { onePass } from "./1password";
import { heroku } from "./heroku";
import { render } from "./render";
import { flyio } from "./flyio";
import { gitlab } from "./gitlab";
import { railway } from "./railway";
import { triggerDev } from "./trigger-dev";
import { fireworks } from "./fireworks";
import { checkly } from "./checkly";
import { cloudflare } from "./cloudflare";
import { digitalOcean } from "./digital-ocean";
import { dnsMadeEasy } from "./dns-made-easy";
import { netlify } from "./netlify";
import { supabase } from "./supabase";
import { zabbix } from "./zabbix";
import { chef } from "./chef";
import { circleci } from "./circleci";
import { coolify } from "./coolify";
import { laravelForge } from "./laravel-forge";
import { litellm } from "./litellm";
import { northflank } from "./northflank";
import { openRouter } from "./open-router";
import { ssh } from "./ssh";
import { smb } from "./smb";
import { externalInfisical } from "./external-infisical";
import { ovh } from "./ovh";
import { devin } from "./devin";
import { ona } from "./ona";
import { travisCi } from "./travis-ci";
import { snowflake } from "./snowflake";
import { qovery } from "./qovery";
import { convex } from "./convex";
import { datadog } from "./datadog";
import { openai } from "./openai";
import { salesforce } from "./salesforce";
import { stripe } from "./stripe";
import { adcs } from "./adcs";
import { anthropic } from "./anthropic";
import { cloud66 } from "./cloud-66";
import { daytona } from "./daytona";
import { digicert } from "./digicert";
import { doppler } from "./doppler";
import { f5BigIp } from "./f5-big-ip";
import { gitea } from "./gitea";
import { godaddy } from "./godaddy";
import { hasuraCloud } from "./hasura-cloud";
import { hpeIlo } from "./hpe-ilo";
import { keeper } from "./keeper";
import { kempLoadMaster } from "./kemp-loadmaster";
import { koyeb } from "./koyeb";
import { microsoftIntune } from "./microsoft-intune";
import { netscaler } from "./netscaler";
import { nutanixPrismCentral } from "./nutanix-prism-central";
import { paloAltoNetworks } from "./palo-alto-networks";
import { portainer } from "./portainer";
import { powerdns } from "./powerdns";
import { rundeck } from "./rundeck";
import { s3Compatible } from "./s3-compatible";
import { servicenow } from "./servicenow";
import { spacelift } from "./spacelift";
import { ultradns } from "./ultradns";
import { venafiTpp } from "./venafi-tpp";
import { winrm } from "./winrm";

export type { AppConnectionKind, AppConnectionMethod, InvalidCredentialsExample, PatchSupport } from "./row";

/**
 * The connection kinds: one row per kind, keyed by its real slug. A new kind goes at the end: its
 * place numbers the id of its connection in the emulator's default fixtures (emulator/fixtures.ts).
 */
export const appConnectionKinds = {
  auth0,
  postgres,
  mssql,
  mysql,
  redis,
  "azure-client-secrets": azureClientSecrets,
  ldap,
  "octopus-deploy": octopusDeploy,
  oci,
  bitbucket,
  venafi,
  vercel,
  "azure-app-configuration": azureAppConfiguration,
  "azure-key-vault": azureKeyVault,
  github,
  "github-radar": githubRadar,
  aws,
  gcp,
  databricks,
  "azure-adcs": azureAdcs,
  okta,
  oracledb,
  mongodb,
  "azure-dns": azureDns,
  "azure-entra-id": azureEntraId,
  "azure-certificate": azureCertificate,
  "azure-devops": azureDevops,
  humanitec,
  "terraform-cloud": terraformCloud,
  "hashicorp-vault": hashicorpVault,
  camunda,
  windmill,
  teamcity,
  dbt,
  "1password": onePass,
  heroku,
  render,
  flyio,
  gitlab,
  railway,
  "trigger-dev": triggerDev,
  fireworks,
  cloudflare,
  "dns-made-easy": dnsMadeEasy,
  zabbix,
  checkly,
  supabase,
  "digital-ocean": digitalOcean,
  netlify,
  "laravel-forge": laravelForge,
  chef,
  northflank,
  circleci,
  coolify,
  "open-router": openRouter,
  litellm,
  ssh,
  smb,
  "external-infisical": externalInfisical,
  ovh,
  devin,
  ona,
  "travis-ci": travisCi,
  snowflake,
  qovery,
  convex,
  datadog,
  openai,
  salesforce,
  stripe,
  adcs,
  anthropic,
  "cloud-66": cloud66,
  daytona,
  digicert,
  doppler,
  "f5-big-ip": f5BigIp,
  gitea,
  godaddy,
  "hasura-cloud": hasuraCloud,
  "hpe-ilo": hpeIlo,
  keeper,
  "kemp-loadmaster": kempLoadMaster,
  koyeb,
  "microsoft-intune": microsoftIntune,
  netscaler,
  "nutanix-prism-central": nutanixPrismCentral,
  "palo-alto-networks": paloAltoNetworks,
  portainer,
  powerdns,
  rundeck,
  "s3-compatible": s3Compatible,
  servicenow,
  spacelift,
  ultradns,
  "venafi-tpp": venafiTpp,
  winrm,
} satisfies Record<string, AppConnectionKind>;
