import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/snowflake/snowflake-sync-schemas.ts`. */
export const snowflake = destinationRow({
  destination: "snowflake",
  label: "Snowflake",
  family: "Data warehouse",
  origin: "service-enum",
  connectionApp: "snowflake",
  destinationConfig: strictObject({
    /** The Snowflake database the secrets are written in. */
    database: z.string().trim().min(1, { error: "must not be empty" }),
    /** The schema of that database the secrets are written in. */
    schema: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { database: "APP_DB", schema: "SECRETS" } },
});
