import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/azure-entra-id/azure-entra-id-connection-schemas.ts`. */
export const azureEntraId = connectionKind({
  app: "azure-entra-id",
  label: "Azure Entra ID",
  family: "Identity directory",
  origin: { folder: "services/app-connection/azure-entra-id/" },
  methods: {
    "client-secret": {
      credentials: strictObject({
        /** The app registration's application (client) id, a UUID of at most 50 characters. */
        clientId: uuid.max(50, { error: "must be at most 50 characters" }),
        /** A client secret of the app registration: secret. */
        clientSecret: str,
        /** The Azure tenant (directory) id, a UUID. */
        tenantId: uuid,
        /** The key id (UUID) of the client secret in Azure, so that credential rotation can revoke it: secret, never returned by the service. */
        clientSecretKeyId: uuid.optional(),
      }),
      secretFields: ["clientSecret", "clientSecretKeyId"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "client-secret": {
      clientId: "00000000-0000-4000-8000-0000000000b4",
      clientSecret: "emulator-entra-secret",
      tenantId: "00000000-0000-4000-8000-0000000000b5",
    },
  },
});
