import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/daytona/daytona-sync-schemas.ts`. The organization the
 * secrets land in is the connection's (its API key's); `organizationName` labels it.
 */
export const daytona = destinationRow({
  destination: "daytona",
  label: "Daytona",
  family: "Development sandbox platform",
  connectionApp: "daytona",
  destinationConfig: strictObject({
    /** The Daytona organization's name, at most 255 characters. */
    organizationName: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { organizationName: "emulator-org" } },
});
