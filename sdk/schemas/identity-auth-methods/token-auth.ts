import { identityAuthMethod } from "./row";

/**
 * The service's `server/routes/v1/identity-token-auth-router.ts`: no login; access tokens are made
 * by a caller allowed to (`POST /api/v1/auth/token-auth/identities/:identityId/tokens`).
 */
export const tokenAuth = identityAuthMethod({
  method: "token-auth",
  label: "Token Auth",
  alreadyAttachedMessage: "Failed to add Token Auth to already configured identity",
  notAttachedMessage: "The identity does not have token auth",
  origin: "backend/src/server/routes/v1/identity-token-auth-router.ts",
  responseKey: "identityTokenAuth",
  fields: {},
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: {},
});
