import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/azure-app-configuration/azure-app-configuration-sync-schemas.ts`. */
export const azureAppConfiguration = destinationRow({
  destination: "azure-app-configuration",
  label: "Azure App Configuration",
  family: "Configuration store",
  origin: "service-enum",
  connectionApp: "azure-app-configuration",
  // azure-app-configuration-sync-schemas.ts: `configurationUrl` is only required, not a checked URL.
  destinationConfig: strictObject({
    /** The App Configuration store's endpoint, e.g. `https://<store>.azconfig.io`. */
    configurationUrl: nonEmpty,
    /** The label the keys get: a label, not part of where the secrets land. */
    label: z.string().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["label"],
  example: { destinationConfig: { configurationUrl: "https://example.azconfig.io", label: "prod" } },
});
