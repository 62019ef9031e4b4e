import { z } from "zod";
import { strictObject, uuid } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/azure-entra-id-scim/azure-entra-id-scim-sync-schemas.ts`.
 */
export const azureEntraIdScim = destinationRow({
  destination: "azure-entra-id-scim",
  label: "Azure Entra ID SCIM",
  family: "Identity provisioning",
  connectionApp: "azure-entra-id",
  destinationConfig: strictObject({
    /** The id (UUID) of the enterprise application's service principal whose SCIM provisioning token is set. */
    servicePrincipalId: uuid,
    /** The service principal's display name: a label, not part of where the secrets land. */
    servicePrincipalDisplayName: z.string().optional(),
  }),
  extraSyncOptions: {
    /**
     * The key of the secret (in the sync's folder) whose value becomes the SCIM provisioning token.
     * The service requires it; it is optional here because the common `syncOptions` cannot require a destination's option.
     */
    secretKey: z.string().trim().min(1, { error: "Secret key is required" }).optional(),
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
});
