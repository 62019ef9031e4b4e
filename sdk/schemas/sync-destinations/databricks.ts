import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/databricks/databricks-sync-schemas.ts`. */
export const databricks = destinationRow({
  destination: "databricks",
  label: "Databricks",
  family: "Data platform",
  origin: "service-enum",
  connectionApp: "databricks",
  destinationConfig: strictObject({
    /** The Databricks secret scope the secrets are written to. */
    scope: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "emulator-scope" } },
});
