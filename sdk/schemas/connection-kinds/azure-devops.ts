import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * The service's `services/app-connection/azure-devops/azure-devops-schemas.ts`.
 */
export const azureDevops = connectionKind({
  app: "azure-devops",
  label: "Azure DevOps",
  family: "CI/CD platform",
  origin: "service-enum",
  methods: {
    oauth: {
      credentials: strictObject({
        /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
        code: str,
        /** The Azure tenant (directory) id. */
        tenantId: str,
        /** The Azure DevOps organization's name. */
        orgName: str,
      }),
      secretFields: ["code"],
    },
    "access-token": {
      credentials: strictObject({
        /** A personal access token of Azure DevOps: secret. */
        accessToken: str,
        /** The Azure DevOps organization's name. */
        orgName: str,
      }),
      secretFields: ["accessToken"],
    },
    "client-secret": {
      credentials: strictObject({
        /** The app registration's application (client) id, a UUID of at most 50 characters. */
        clientId: uuid.max(50, { error: "must be at most 50 characters" }),
        /** A client secret of the app registration, at most 50 characters: secret. */
        clientSecret: str.max(50, { error: "must be at most 50 characters" }),
        /** The Azure tenant (directory) id, a UUID. */
        tenantId: uuid,
        /** The Azure DevOps organization's name. */
        orgName: str,
        /** The key id (UUID) of the client secret in Azure, so that credential rotation can revoke it: secret, never returned by the service. */
        clientSecretKeyId: uuid.optional(),
      }),
      secretFields: ["clientSecret", "clientSecretKeyId"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    oauth: {
      code: "emulator-oauth-code",
      tenantId: "00000000-0000-4000-8000-0000000000b1",
      orgName: "emulator-org",
    },
    "access-token": { accessToken: "emulator-devops-token", orgName: "org" },
    "client-secret": {
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      clientSecret: "client-secret-value",
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
      orgName: "org",
      clientSecretKeyId: "0f0f0f0f-0000-4000-8000-000000000003",
    },
  },
});
