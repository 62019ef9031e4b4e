import type { SyncDestination } from "./row";
import { vercel } from "./vercel";
import { azureAppConfiguration } from "./azure-app-configuration";
import { azureKeyVault } from "./azure-key-vault";

export type { SyncDestination } from "./row";

/** The sync destinations: one row per destination, keyed by its real slug. */
export const syncDestinations = {
  vercel,
  "azure-app-configuration": azureAppConfiguration,
  "azure-key-vault": azureKeyVault,
} satisfies Record<string, SyncDestination>;
