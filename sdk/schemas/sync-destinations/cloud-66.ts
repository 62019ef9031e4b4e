import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/cloud66/cloud66-sync-schemas.ts`. */
export const cloud66 = destinationRow({
  destination: "cloud-66",
  label: "Cloud 66",
  family: "Application platform",
  origin: { folder: "services/secret-sync/cloud66/" },
  connectionApp: "cloud-66",
  destinationConfig: strictObject({
    /** The Cloud 66 stack's id. */
    stackId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The stack's name: a label, not part of where the secrets land. */
    stackName: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["stackName"],
  example: { destinationConfig: { stackId: "emulator-stack-uid", stackName: "web" } },
});
