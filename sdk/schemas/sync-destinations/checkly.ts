import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const field = z.string().min(1, { error: "must not be empty" }).max(255, { error: "must be at most 255 characters" });

/** The service's `services/secret-sync/checkly/checkly-sync-schemas.ts`. */
export const checkly = destinationRow({
  destination: "checkly",
  label: "Checkly",
  family: "Monitoring platform",
  origin: "service-enum",
  connectionApp: "checkly",
  destinationConfig: strictObject({
    /** The Checkly account's id. */
    accountId: field,
    /** The Checkly account's name: a label, not part of where the secrets land. */
    accountName: field.optional(),
    /** The check group's id; unset: the account's environment variables. */
    groupId: field.optional(),
    /** The check group's name: a label, not part of where the secrets land. */
    groupName: field.optional(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["accountName", "groupName"],
  example: { destinationConfig: { accountId: "00000000-0000-4000-8000-0000000000c1", accountName: "acme" } },
});
