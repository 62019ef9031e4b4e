import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow, keySchemaNamesRule } from "./row";

/**
 * The service's `services/secret-sync/daytona/daytona-sync-schemas.ts`. The organization the
 * secrets land in is the connection's (its API key's); `organizationName` labels it. The service
 * also refuses a `syncOptions.keySchema` whose own characters Daytona would refuse in a secret
 * name (placeholders aside): a body rule, in its words.
 */
const SECRET_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;
export const daytona = destinationRow({
  destination: "daytona",
  label: "Daytona",
  family: "Development sandbox platform",
  origin: { folder: "services/secret-sync/daytona/" },
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
  bodyRules: [
    keySchemaNamesRule(
      SECRET_NAME,
      "Key schema produces names Daytona rejects. Daytona secret names must start with a letter or underscore and contain only letters, digits, hyphens and underscores.",
    ),
  ],
  duplicateCheckIgnores: [],
  example: { destinationConfig: { organizationName: "emulator-org" } },
  invalidExamples: [
    {
      syncOptions: { keySchema: "1_{{secretKey}}" },
      update: true,
      path: "syncOptions.keySchema",
      message: "Key schema produces names Daytona rejects.",
    },
    {
      syncOptions: { keySchema: "app/{{secretKey}}" },
      path: "syncOptions.keySchema",
      message: "Key schema produces names Daytona rejects.",
    },
  ],
});
