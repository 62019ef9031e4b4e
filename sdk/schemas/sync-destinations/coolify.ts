import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/coolify/coolify-sync-schemas.ts`. */
export const coolify = destinationRow({
  destination: "coolify",
  label: "Coolify",
  family: "Self-hosted deployment platform",
  origin: { folder: "services/secret-sync/coolify/" },
  connectionApp: "coolify",
  destinationConfig: strictObject({
    /** The Coolify application's or service's id (a CUID2, e.g. `ocw4o4c0kc8ogo04os0kkksw`). */
    appId: z
      .string()
      .trim()
      .pipe(z.cuid2({ error: "must be a Coolify application or service id" })),
  }),
  extraSyncOptions: {
    /** Redeploy the application or service after its secrets change. */
    autoRedeployServices: z.boolean().optional(),
  },
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { appId: "ocw4o4c0kc8ogo04os0kkksw" } },
});
