import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/ovh/ovh-sync-schemas.ts`. */
export const ovh = destinationRow({
  destination: "ovh",
  label: "OVH",
  family: "Cloud key management service",
  origin: "service-enum",
  connectionApp: "ovh",
  destinationConfig: strictObject({
    /**
     * The OKMS secret path the secrets are written under, at most 128 characters: segments of
     * letters, digits, dots, hyphens and underscores joined by single slashes (leading and trailing
     * slashes are removed).
     */
    path: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(128, { error: "must be at most 128 characters" })
      .transform((v) => v.replace(/^\/+|\/+$/g, ""))
      .refine((v) => /^([a-zA-Z0-9._-]+\/)*[a-zA-Z0-9._-]+$/.test(v), {
        error:
          "must be segments of letters, digits, dots, dashes and underscores joined by single slashes (e.g. app/prod)",
      }),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { path: "app/prod" } },
});
