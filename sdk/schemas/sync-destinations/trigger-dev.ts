import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/trigger-dev/trigger-dev-sync-schemas.ts` (environments in `trigger-dev-sync-enums.ts`). */
export const triggerDev = destinationRow({
  destination: "trigger-dev",
  label: "Trigger.dev",
  family: "Background job platform",
  origin: "service-enum",
  connectionApp: "trigger-dev",
  destinationConfig: strictObject({
    /** The Trigger.dev project's reference (`proj_...`), at most 255 characters. */
    projectRef: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" }),
    /** The Trigger.dev environment: `prod`, `staging`, `dev` or `preview`. */
    environment: z.enum(["prod", "staging", "dev", "preview"]),
  }),
  extraSyncOptions: {
    /** Mark the environment variables as secret in Trigger.dev. */
    markAsSecret: z.boolean().optional(),
  },
  // Trigger.dev does not return secret values, so the service cannot import from it.
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { projectRef: "proj_emulator", environment: "dev" } },
});
