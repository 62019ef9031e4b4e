import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/azure-certificate/azure-certificate-connection-schemas.ts`. */
export const azureCertificate = connectionKind({
  app: "azure-certificate",
  label: "Azure Certificate",
  family: "Cloud app registration",
  origin: { folder: "services/app-connection/azure-certificate/" },
  methods: {
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
        code: str,
        /** The Azure tenant (directory) id. */
        tenantId: str,
      }),
      secretFields: ["code"],
    },
    "client-secret": {
      credentials: strictObject({
        /** The app registration's application (client) id, a UUID of at most 50 characters. */
        clientId: uuid.max(50, { error: "must be at most 50 characters" }),
        /** A client secret of the app registration, at most 50 characters: secret. */
        clientSecret: str.max(50, { error: "must be at most 50 characters" }),
        /** The Azure tenant (directory) id, a UUID. */
        tenantId: uuid,
      }),
      secretFields: ["clientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    oauth: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000b6" },
    "client-secret": {
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      clientSecret: "client-secret-value",
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
    },
  },
});
