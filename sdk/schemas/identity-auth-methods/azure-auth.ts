import { commaList, identityAuthMethod, trimmed } from "./row";

/**
 * The service's `server/routes/v1/identity-azure-auth-router.ts` and
 * `services/identity-azure-auth/identity-azure-auth-validators.ts`: a login sends a managed
 * identity's access token for `resource`, issued by `tenantId`.
 */
export const azureAuth = identityAuthMethod({
  method: "azure-auth",
  label: "Azure Auth",
  alreadyAttachedMessage: "Failed to add Azure Auth to already configured identity",
  notAttachedMessage: "The identity does not have Azure Auth attached",
  origin: "backend/src/server/routes/v1/identity-azure-auth-router.ts",
  responseKey: "identityAzureAuth",
  fields: {
    /** The Entra ID tenant that issues the tokens. */
    tenantId: { schema: trimmed },
    /** The resource the tokens are for, e.g. `https://management.azure.com/`. */
    resource: { schema: trimmed },
    /** Service principal ids allowed to log in, comma-separated; "" for any. */
    allowedServicePrincipalIds: commaList,
  },
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { tenantId: "00000000-0000-4000-8000-000000000000", resource: "https://management.azure.com/" },
});
