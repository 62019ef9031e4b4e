import { z } from "zod";
import { commaList, identityAuthMethod, joinedList, trimmed } from "./row";

/** Claims by name, each a comma-separated list of glob patterns, stored as `commaList` is (`validateOidcBoundClaimsField`). */
const claims = z
  .record(z.string(), z.string())
  .transform((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, joinedList(v.trim())])));

/**
 * The service's `server/routes/v1/identity-oidc-auth-router.ts` and
 * `services/identity-oidc-auth/identity-oidc-auth-service.ts`: a login sends a JWT the service
 * verifies against the keys its issuer publishes (`<oidcDiscoveryUrl>/.well-known/openid-configuration`,
 * then its `jwks_uri`), then matches issuer, subject, audiences and claims.
 */
export const oidcAuth = identityAuthMethod({
  method: "oidc-auth",
  label: "OIDC Auth",
  alreadyAttachedMessage: "Failed to add OIDC Auth to already configured identity",
  notAttachedMessage: "The identity does not have OIDC Auth attached",
  origin: "backend/src/server/routes/v1/identity-oidc-auth-router.ts",
  responseKey: "identityOidcAuth",
  fields: {
    /** The issuer's base URL, whose `/.well-known/openid-configuration` the service reads (`https://token.actions.githubusercontent.com`). */
    oidcDiscoveryUrl: {
      schema: z
        .string()
        .trim()
        .pipe(z.url({ error: "must be a URL" })),
    },
    /** The PEM CA certificate of the discovery URL's server: secret (the service keeps it encrypted). Default "". */
    caCert: { schema: trimmed, default: "" },
    /** The `iss` a token must have. */
    boundIssuer: { schema: z.string().min(1, { error: "must not be empty" }) },
    /** Audiences a token's `aud` must match one of, comma-separated; "" for any. */
    boundAudiences: commaList,
    /** Claims a token must have, each a comma-separated list of glob patterns (`{ repository: "acme/*" }`). */
    boundClaims: { schema: claims },
    /** Claims copied into the access token's metadata, by metadata key. */
    claimMetadataMapping: { schema: claims.optional() },
    /** A glob the token's `sub` must match; "" (the default) for any. */
    boundSubject: { schema: z.string(), default: "" },
  },
  secretFields: ["caCert"],
  returnedSecretFields: ["caCert"],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  login: "identity-jwt",
  example: {
    oidcDiscoveryUrl: "https://token.actions.githubusercontent.com",
    boundIssuer: "https://token.actions.githubusercontent.com",
    boundAudiences: "https://github.com/acme",
    boundClaims: { repository: "acme/infra" },
  },
});
