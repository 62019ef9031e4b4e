import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `ee/services/secret-sync/chef/chef-sync-schemas.ts`. */
export const chef = destinationRow({
  destination: "chef",
  label: "Chef",
  family: "Configuration management server",
  origin: "service-enum",
  connectionApp: "chef",
  destinationConfig: strictObject({
    /** The data bag the secrets are written to, 1 to 256 characters. */
    dataBagName: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(256, { error: "must be at most 256 characters" }),
    /** The data bag item that holds the secrets, 1 to 256 characters. */
    dataBagItemName: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(256, { error: "must be at most 256 characters" }),
  }),
  extraSyncOptions: {},
  enterprise: true,
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { dataBagName: "emulator-bag", dataBagItemName: "emulator-item" } },
});
