import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow } from "./row";

/** The service's `ee/services/secret-rotation-v2/gcp-service-account-key/gcp-service-account-key-rotation-schemas.ts`. */
export const gcpServiceAccountKey = rotationRow({
  type: "gcp-service-account-key",
  label: "GCP Service Account Key",
  family: "Cloud service account key",
  origin: { folder: "ee/services/secret-rotation-v2/gcp-service-account-key/" },
  connectionApp: "gcp",
  parameters: strictObject({
    /** The email of the service account whose keys are rotated, at most 254 characters. */
    serviceAccountEmail: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(254, { error: "must be at most 254 characters" })
      .regex(z.regexes.email, { error: "must be a valid email address" }),
  }),
  secretsMapping: strictObject({
    /** The secret the service account key (its JSON key file) is written to. */
    serviceAccountKey: secretName,
  }),
  generatedCredentials: z.object({ keyId: z.string(), serviceAccountKey: z.string() }),
  secretFields: ["serviceAccountKey"],
  example: { parameters: { serviceAccountEmail: "emulator@example-project.iam.gserviceaccount.com" } },
});
