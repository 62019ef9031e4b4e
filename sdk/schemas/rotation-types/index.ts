import type { RotationType } from "./row";
import { mssqlCredentials, mysqlCredentials, postgresCredentials } from "./sql";
import { redisCredentials } from "./redis-credentials";
import { azureClientSecret } from "./azure-client-secret";
// imports of group A
// imports of group B
// imports of group C
// imports of group D
// imports of group E
// imports of group F
// imports of group G
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
  // group B
  // group C
  // group D
  // group E
  // group F
  // group G
  // group H
  "convex-access-key": convexAccessKey,
  "datadog-api-key": datadogApiKey,
  "datadog-application-key-secret": datadogApplicationKeySecret,
} satisfies Record<string, RotationType>;
