import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/ona/ona-sync-schemas.ts`. */
export const ona = destinationRow({
  destination: "ona",
  label: "Ona",
  family: "Cloud development environment",
  origin: "service-enum",
  connectionApp: "ona",
  destinationConfig: strictObject({
    /** The Ona project's id. */
    projectId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The Ona project's name: a label, not part of where the secrets land. */
    projectName: z.string().trim().optional(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["projectName"],
  example: { destinationConfig: { projectId: "emulator-project-1", projectName: "web" } },
});
