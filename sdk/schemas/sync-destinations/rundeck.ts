import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/rundeck/rundeck-sync-schemas.ts` (its strings are not trimmed). */
export const rundeck = destinationRow({
  destination: "rundeck",
  label: "Rundeck",
  family: "Job automation platform",
  origin: { folder: "services/secret-sync/rundeck/" },
  connectionApp: "rundeck",
  destinationConfig: strictObject({
    /** The Rundeck project, at most 255 characters. */
    project: z.string().min(1, { error: "must not be empty" }).max(255, { error: "must be at most 255 characters" }),
    /** The key storage path the secrets go under, starting with `/`, at most 255 characters. */
    path: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" })
      .startsWith("/", { error: "must start with '/'" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { project: "emulator", path: "/keys/infisical" } },
});
