import { z } from "zod";
import { identityAuthMethod, joinedList } from "./row";
import { strictObject } from "../common";

const requiredList = (message: string) => z.string().trim().min(1, { error: message }).transform(joinedList);

/**
 * The service's `server/routes/v1/identity-spiffe-auth-router.ts` and
 * `services/identity-spiffe-auth/identity-spiffe-auth-validators.ts` (`SpiffeTrustBundleProfile`
 * in its types): a login sends a JWT-SVID, verified against the trust domain's bundle, given
 * (`static`) or fetched from a SPIFFE bundle endpoint (`https_web_bundle`).
 */
export const spiffeAuth = identityAuthMethod({
  method: "spiffe-auth",
  label: "SPIFFE Auth",
  alreadyAttachedMessage: "Failed to add SPIFFE Auth to already configured identity",
  notAttachedMessage: "The identity does not have SPIFFE Auth attached",
  origin: "backend/src/server/routes/v1/identity-spiffe-auth-router.ts",
  responseKey: "identitySpiffeAuth",
  fields: {
    /** The SPIFFE trust domain (`acme.com`). */
    trustDomain: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "Trust domain is required" })
        .regex(/^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/, { error: "Invalid trust domain format" }),
    },
    /** SPIFFE id patterns allowed to log in, comma-separated (`spiffe://acme.com/ci/*`). */
    allowedSpiffeIds: { schema: requiredList("At least one SPIFFE ID pattern is required") },
    /** Audiences a JWT-SVID must have one of, comma-separated. */
    allowedAudiences: { schema: requiredList("At least one audience is required") },
    /** The trust bundle: given (`profile: "static"`, `bundle`: secret) or fetched from an https endpoint. */
    trustBundleDistribution: {
      schema: z.discriminatedUnion("profile", [
        strictObject({
          /** How the bundle is distributed: `static` (given here) or `https_web_bundle` (fetched from a bundle endpoint). */
          profile: z.literal("static"),
          /** The trust bundle (JWKS): secret (the service keeps it encrypted). */
          bundle: z.string().min(1, { error: "must not be empty" }),
        }),
        strictObject({
          /** How the bundle is distributed: `static` (given here) or `https_web_bundle` (fetched from a bundle endpoint). */
          profile: z.literal("https_web_bundle"),
          /** The bundle endpoint, https only. */
          endpointUrl: z
            .string()
            .trim()
            .pipe(z.url({ error: "must be a URL" }))
            .refine((u) => u.startsWith("https://"), { error: "Bundle endpoint URL must use HTTPS" }),
          /** The PEM CA certificate of the endpoint's server: secret. */
          caCert: z.string().optional(),
          /** Seconds between refreshes of the bundle. Default 3600. */
          refreshHintSeconds: z.number().int().min(0, { error: "must be at least 0" }).default(3600),
        }),
      ]),
    },
  },
  secretFields: ["trustBundleDistribution.bundle", "trustBundleDistribution.caCert"],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: {
    trustDomain: "acme.com",
    allowedSpiffeIds: "spiffe://acme.com/ci/*",
    allowedAudiences: "infisical",
    trustBundleDistribution: { profile: "static", bundle: '{"keys":[]}' },
  },
});
