import type { SyncDestination } from "./row";
import { vercel } from "./vercel";
import { azureAppConfiguration } from "./azure-app-configuration";
import { azureKeyVault } from "./azure-key-vault";
// imports of group A
// imports of group B
// imports of group C
// imports of group D
import { onePass } from "./1password";
import { heroku } from "./heroku";
import { render } from "./render";
import { flyio } from "./flyio";
import { gitlab } from "./gitlab";
import { railway } from "./railway";
import { triggerDev } from "./trigger-dev";
// imports of group E
// imports of group F
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
  "1password": onePass,
  heroku,
  render,
  flyio,
  gitlab,
  railway,
  "trigger-dev": triggerDev,
  // group E
  // group F
  // group G
  // group H
} satisfies Record<string, SyncDestination>;
