import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/azure-key-vault/azure-key-vault-sync-schemas.ts`. */
export const azureKeyVault = destinationRow({
  destination: "azure-key-vault",
  label: "Azure Key Vault",
  family: "Cloud key vault",
  origin: "service-enum",
  connectionApp: "azure-key-vault",
  destinationConfig: strictObject({
    /** The vault's URL, e.g. `https://<vault>.vault.azure.net`. */
    vaultBaseUrl: z.url({ error: "must be a URL" }),
  }),
  extraSyncOptions: {
    /** Do not import the vault's certificates when importing from the destination. */
    disableCertificateImport: z.boolean().optional(),
  },
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { vaultBaseUrl: "https://example.vault.azure.net" } },
});
