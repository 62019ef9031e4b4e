import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/cloudflare-workers/cloudflare-workers-schemas.ts`. */
export const cloudflareWorkers = destinationRow({
  destination: "cloudflare-workers",
  label: "Cloudflare Workers",
  family: "Edge compute platform",
  origin: "service-enum",
  connectionApp: "cloudflare",
  destinationConfig: strictObject({
    /** The Worker script's id: lowercase letters, digits and hyphens, no hyphen at either end, 1 to 64 characters. */
    scriptId: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(64, { error: "must be at most 64 characters" })
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, {
        error: "must be lowercase letters, digits and hyphens, not starting or ending with a hyphen",
      }),
  }),
  extraSyncOptions: {
    /** Also sync the secrets as plain-text bindings where the Worker has non-secret bindings of the same name. */
    syncNonSecretBindings: z.boolean().optional(),
  },
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scriptId: "my-worker" } },
});
