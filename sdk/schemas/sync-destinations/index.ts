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
import { externalInfisical } from "./external-infisical";
import { ovh } from "./ovh";
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
  // group G
  "external-infisical": externalInfisical,
  "ovh": ovh,
  // group H
} satisfies Record<string, SyncDestination>;
