import type { SyncDestination } from "./row";
import { vercel } from "./vercel";
import { azureAppConfiguration } from "./azure-app-configuration";
import { azureKeyVault } from "./azure-key-vault";
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

export type { SyncDestination } from "./row";

/** The sync destinations: one row per destination, keyed by its real slug. */
export const syncDestinations = {
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
} satisfies Record<string, SyncDestination>;
