import { z } from "zod";
import { identityAuthMethod, positiveMaxTtl } from "./row";

const list = (v: string | null | undefined) =>
  !v
    ? []
    : v
        .split(",")
        .map((i) => i.trim())
        .filter(Boolean);

/**
 * The service's `server/routes/v1/identity-oci-auth-router.ts` and
 * `services/identity-oci-auth/identity-oci-auth-validators.ts`: a login sends a signed request of
 * an OCI user. Its PATCH requires `tenancyOcid`: it is sent with every PATCH.
 */
export const ociAuth = identityAuthMethod({
  method: "oci-auth",
  label: "OCI Auth",
  alreadyAttachedMessage: "Failed to add OCI Auth to already configured identity",
  notAttachedMessage: "The identity does not have OCI Auth attached",
  notAttachedStatus: 404,
  origin: "backend/src/server/routes/v1/identity-oci-auth-router.ts",
  responseKey: "identityOciAuth",
  fields: {
    /** The tenancy's OCID (`ocid1.tenancy.oc1.…`). */
    tenancyOcid: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "Tenancy OCID cannot be empty." })
        .regex(/^ocid1\.tenancy\.oc1\..+$/, {
          error: "Invalid Tenancy OCID format. Must start with ocid1.tenancy.oc1.",
        }),
    },
    /** OCI user names allowed to log in, comma-separated, at most 500 characters; unset for any. */
    allowedUsernames: {
      schema: z
        .string()
        .trim()
        .max(500, { error: "Input exceeds the maximum limit of 500 characters" })
        .nullish()
        .refine((v) => list(v).every((u) => /^[a-zA-Z0-9._@-]+$/.test(u)), {
          error: "One or more usernames are invalid",
        })
        .transform((v) => (list(v).length > 0 ? list(v).join(", ") : null)),
    },
    accessTokenMaxTTL: positiveMaxTtl,
  },
  alwaysInPatch: ["tenancyOcid"],
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { tenancyOcid: "ocid1.tenancy.oc1..aaaaexample" },
});
