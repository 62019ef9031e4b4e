import { z } from "zod";
import { identityAuthMethod } from "./row";

export const jwtConfigurationTypes = ["jwks", "static"] as const;

/**
 * The service's `server/routes/v1/identity-jwt-auth-router.ts`: a login sends a JWT the service
 * verifies with the keys at `jwksUrl` (`configurationType` `jwks`) or with `publicKeys` (`static`),
 * then matches issuer, subject, audiences and claims as OIDC auth does.
 */
export const jwtAuth = identityAuthMethod({
  method: "jwt-auth",
  label: "JWT Auth",
  origin: "backend/src/server/routes/v1/identity-jwt-auth-router.ts",
  responseKey: "identityJwtAuth",
  fields: {
    /** Where the verifying keys come from: `jwks` (fetched from `jwksUrl`) or `static` (`publicKeys`). */
    configurationType: { schema: z.enum(jwtConfigurationTypes) },
    /** The JWKS URL, with `configurationType` `jwks`. */
    jwksUrl: { schema: z.string() },
    /** The PEM CA certificate of the JWKS URL's server: secret (the service keeps it encrypted). */
    jwksCaCert: { schema: z.string() },
    /** PEM public keys that may have signed a token, with `configurationType` `static`: secret (the service keeps them encrypted). */
    publicKeys: { schema: z.array(z.string()) },
    /** The `iss` a token must have. */
    boundIssuer: { schema: z.string().min(1, { error: "must not be empty" }) },
    /** Audiences a token's `aud` must match one of, comma-separated; "" for any. */
    boundAudiences: { schema: z.string().trim(), default: "" },
    /** Claims a token must have, each a comma-separated list of glob patterns. */
    boundClaims: { schema: z.record(z.string(), z.string()) },
    /** A glob the token's `sub` must match; "" (the default) for any. */
    boundSubject: { schema: z.string(), default: "" },
  },
  secretFields: ["jwksCaCert", "publicKeys"],
  returnedSecretFields: ["jwksCaCert", "publicKeys"],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  login: "identity-jwt",
  example: {
    configurationType: "static",
    jwksUrl: "",
    jwksCaCert: "",
    publicKeys: ["-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----"],
    boundIssuer: "https://issuer.example.com",
    boundClaims: {},
  },
});
