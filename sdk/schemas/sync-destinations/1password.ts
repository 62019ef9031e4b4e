import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/1password/1password-sync-schemas.ts`. */
export const onePass = destinationRow({
  destination: "1password",
  label: "1Password",
  family: "Password manager",
  origin: "service-enum",
  connectionApp: "1password",
  destinationConfig: strictObject({
    /** The id of the 1Password vault the secrets are written to. */
    vaultId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The label of the item field that holds each secret's value (the service's duplicate check ignores it). */
    valueLabel: z.string().trim().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["valueLabel"],
  example: { destinationConfig: { vaultId: "emulator-vault-id", valueLabel: "value" } },
});
