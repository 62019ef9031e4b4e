import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/convex/convex-sync-schemas.ts`. */
export const convex = destinationRow({
  destination: "convex",
  label: "Convex",
  family: "Backend platform",
  origin: { folder: "services/secret-sync/convex/" },
  connectionApp: "convex",
  destinationConfig: strictObject({
    /** The Convex deployment's URL, e.g. `https://happy-animal-123.convex.cloud`, at most 255 characters; the service drops a trailing slash. */
    deploymentUrl: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" })
      .pipe(z.url({ error: "must be a URL" })),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { deploymentUrl: "https://emulator-deployment-123.convex.cloud" } },
});
