import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/azure-entra-id-scim/azure-entra-id-scim-sync-schemas.ts`.
 */
export const azureEntraIdScim = destinationRow({
  destination: "azure-entra-id-scim",
  label: "Azure Entra ID SCIM",
  family: "Identity provisioning",
  origin: "service-enum",
  connectionApp: "azure-entra-id",
  destinationConfig: strictObject({
    /** The id of the enterprise application's service principal whose SCIM provisioning token is set. */
    servicePrincipalId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The service principal's display name: a label, not part of where the secrets land. */
    servicePrincipalDisplayName: z.string().optional(),
  }),
  extraSyncOptions: {
    /**
     * The key of the secret (in the sync's folder) whose value becomes the SCIM provisioning token.
     * The service requires it; it is optional here because the common `syncOptions` cannot require a destination's option.
     */
    secretKey: z.string().trim().min(1, { error: "Secret key is required" }).optional(),
    // The service's `supportsDisableSecretDeletion: false` and `supportsKeySchema: false`
    // (services/secret-sync/secret-sync-schemas.ts): only `false` or nothing, and a key schema is
    // taken and dropped (so it is never sent, and never stored).
    /** Not supported for Azure Entra ID SCIM syncs: only `false`. */
    disableSecretDeletion: z.literal(false, { error: "Not supported for Azure Entra ID SCIM syncs" }).optional(),
    /** Not supported for Azure Entra ID SCIM syncs: the service ignores it. */
    keySchema: z
      .string()
      .optional()
      .transform(() => undefined),
  },
  canRemoveSecretsOnDeletion: false,
  supportsKeySchema: false,
  supportsDisableSecretDeletion: false,
  canImport: false,
  duplicateCheckIgnores: ["servicePrincipalDisplayName"],
  example: {
    destinationConfig: {
      servicePrincipalId: "00000000-0000-4000-8000-0000000000b8",
      servicePrincipalDisplayName: "emulator-scim-app",
    },
  },
  invalidExamples: [
    {
      destinationConfig: { servicePrincipalId: " " },
      path: "destinationConfig.servicePrincipalId",
      message: "must not be empty",
    },
    {
      syncOptions: { secretKey: "SCIM_TOKEN", disableSecretDeletion: true },
      path: "syncOptions.disableSecretDeletion",
      message: "Not supported for Azure Entra ID SCIM syncs",
    },
  ],
});
