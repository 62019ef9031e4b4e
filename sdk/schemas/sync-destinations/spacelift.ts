import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/spacelift/spacelift-sync-schemas.ts`. */
export const spacelift = destinationRow({
  destination: "spacelift",
  label: "Spacelift",
  family: "Infrastructure-as-code platform",
  connectionApp: "spacelift",
  destinationConfig: strictObject({
    /** The Spacelift context's id. */
    contextId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The context's name: a label, not part of where the secrets land. */
    contextName: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {
    /** Write the secrets as write-only (their values hidden in Spacelift). Default false. */
    writeOnly: z.boolean().default(false),
  },
  canImport: true,
  duplicateCheckIgnores: ["contextName"],
  example: { destinationConfig: { contextId: "emulator-context", contextName: "Emulator Context" } },
});
