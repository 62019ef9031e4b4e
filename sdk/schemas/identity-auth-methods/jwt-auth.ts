import { z } from "zod";
import { commaList, identityAuthMethod, joinedList } from "./row";

export const jwtConfigurationTypes = ["jwks", "static"] as const;

/** Claims by name, each a comma-separated list of glob patterns, stored joined by ", " (`validateJwtBoundClaimsField`). */
const claims = z
  .record(z.string(), z.string())
  .transform((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, joinedList(v.trim())])));

/**
 * The service's `server/routes/v1/identity-jwt-auth-router.ts` (a union on `configurationType`):
 * a login sends a JWT the service verifies with the keys at `jwksUrl` (`jwks`) or with
 * `publicKeys` (`static`), then matches issuer, subject, audiences and claims as OIDC auth does.
 * Its PATCH takes the same union: `configurationType` is sent with every PATCH.
 */
export const jwtAuth = identityAuthMethod({
  method: "jwt-auth",
  label: "JWT Auth",
  alreadyAttachedMessage: "Failed to add JWT Auth to already configured identity",
  notAttachedMessage: "The identity does not have JWT Auth attached",
  revokeOmitsSecrets: true,
  origin: "backend/src/server/routes/v1/identity-jwt-auth-router.ts",
  responseKey: "identityJwtAuth",
  fields: {
    /** Where the verifying keys come from: `jwks` (fetched from `jwksUrl`) or `static` (`publicKeys`). */
    configurationType: { schema: z.enum(jwtConfigurationTypes) },
    /** The JWKS URL; required with `configurationType` `jwks`. Default "". */
    jwksUrl: { schema: z.string().trim(), default: "" },
    /** The PEM CA certificate of the JWKS URL's server: secret (the service keeps it encrypted). Default "". */
    jwksCaCert: { schema: z.string().trim(), default: "" },
    /** PEM public keys that may have signed a token; at least one with `configurationType` `static`: secret (the service keeps them encrypted). */
    publicKeys: { schema: z.array(z.string().min(1, { error: "must not be empty" })), default: [] },
    /** The `iss` a token must have; "" (the default) for any. */
    boundIssuer: { schema: z.string().trim(), default: "" },
    /** Audiences a token's `aud` must match one of, comma-separated; "" (the default) for any. */
    boundAudiences: commaList,
    /** Claims a token must have, each a comma-separated list of glob patterns (`{}` for none). */
    boundClaims: { schema: claims },
    /** A glob the token's `sub` must match; "" (the default) for any. */
    boundSubject: { schema: z.string().trim(), default: "" },
  },
  alwaysInPatch: ["configurationType"],
  secretFields: ["jwksCaCert", "publicKeys"],
  returnedSecretFields: ["jwksCaCert", "publicKeys"],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  attachRules(body) {
    if (body.configurationType === "jwks" && !URL.canParse(String(body.jwksUrl ?? "")))
      return [{ path: "jwksUrl", message: "must be a URL" }];
    if (body.configurationType === "static" && !(Array.isArray(body.publicKeys) && body.publicKeys.length > 0))
      return [{ path: "publicKeys", message: "must have at least 1 item" }];
    return [];
  },
  login: "identity-jwt",
  example: {
    configurationType: "static",
    publicKeys: ["-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----"],
    boundIssuer: "https://issuer.example.com",
    boundClaims: {},
  },
});
