import { z } from "zod";
import { commaList, identityAuthMethod } from "./row";

export const gcpAuthTypes = ["iam", "gce"] as const;

/**
 * The service's `server/routes/v1/identity-gcp-auth-router.ts`: a login sends a Google-signed ID
 * token of a service account (`iam`) or of a Compute Engine instance (`gce`).
 */
export const gcpAuth = identityAuthMethod({
  method: "gcp-auth",
  label: "GCP Auth",
  alreadyAttachedMessage: "Failed to add GCP Auth to already configured identity",
  notAttachedMessage: "The identity does not have GCP Auth attached",
  origin: "backend/src/server/routes/v1/identity-gcp-auth-router.ts",
  responseKey: "identityGcpAuth",
  fields: {
    /** `iam` (a service account's signed JWT) or `gce` (an instance identity token). */
    type: { schema: z.enum(gcpAuthTypes) },
    /** Service-account emails allowed to log in, comma-separated; "" for any. */
    allowedServiceAccounts: commaList,
    /** GCP projects allowed to log in (`gce`), comma-separated; "" for any. */
    allowedProjects: commaList,
    /** Zones allowed to log in (`gce`), comma-separated; "" for any. */
    allowedZones: commaList,
  },
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { type: "iam", allowedServiceAccounts: "ci@acme.iam.gserviceaccount.com" },
});
