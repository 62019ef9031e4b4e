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
import { northflank } from "./northflank";
import { bitbucket } from "./bitbucket";
import { laravelForge } from "./laravel-forge";
import { chef } from "./chef";
import { octopusDeploy } from "./octopus-deploy";
import { circleci } from "./circleci";
// imports of group G
// imports of group H

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
  northflank,
  bitbucket,
  "laravel-forge": laravelForge,
  chef,
  "octopus-deploy": octopusDeploy,
  circleci,
  // group G
  // group H
} satisfies Record<string, SyncDestination>;
