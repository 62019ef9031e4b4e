import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const trimmedRequired = z.string().trim().min(1, { error: "must not be empty" });

/** The service's `services/secret-sync/northflank/northflank-sync-schemas.ts`. */
export const northflank = destinationRow({
  destination: "northflank",
  label: "Northflank",
  family: "Deployment platform",
  origin: "service-enum",
  connectionApp: "northflank",
  destinationConfig: strictObject({
    /** The Northflank project's id. */
    projectId: trimmedRequired,
    /** The Northflank project's name, for display. */
    projectName: z.string().trim().optional(),
    /** The id of the project's secret group the secrets are written to. */
    secretGroupId: trimmedRequired,
    /** The secret group's name, for display. */
    secretGroupName: z.string().trim().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  // The service's SECRET_SYNC_SKIP_FIELDS_MAP (secret-sync-maps.ts) lists no field for Northflank.
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: {
      projectId: "emulator-project",
      projectName: "Emulator Project",
      secretGroupId: "emulator-secrets",
      secretGroupName: "Emulator Secrets",
    },
  },
});
