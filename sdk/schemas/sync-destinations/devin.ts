import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/devin/devin-sync-schemas.ts`. */
export const devin = destinationRow({
  destination: "devin",
  label: "Devin",
  family: "AI coding agent",
  origin: "service-enum",
  connectionApp: "devin",
  destinationConfig: strictObject({
    /** The Devin organization's id, starting with `org-`. */
    orgId: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .startsWith("org-", { error: "must start with 'org-'" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { orgId: "org-emulator" } },
});
