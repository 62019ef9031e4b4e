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

export type { AppConnectionKind, AppConnectionMethod, PatchSupport } from "./row";

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
  ssh: ssh,
  smb: smb,
  "external-infisical": externalInfisical,
  ovh: ovh,
  devin,
  ona,
  "travis-ci": travisCi,
  snowflake,
  qovery,
  convex,
  datadog,
} satisfies Record<string, AppConnectionKind>;
