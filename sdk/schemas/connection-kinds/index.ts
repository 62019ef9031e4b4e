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
// imports of group A
// imports of group B
// imports of group C
// imports of group D
// imports of group E
// imports of group F
// imports of group G
// imports of group H
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
  // group A
  // group B
  // group C
  // group D
  // group E
  // group F
  // group G
  // group H
  devin,
  ona,
  "travis-ci": travisCi,
  snowflake,
  qovery,
  convex,
  datadog,
} satisfies Record<string, AppConnectionKind>;
