import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/keeper/keeper-sync-schemas.ts` (its name in
 * `keeper-sync-constants.ts`; the UID pattern, `KEEPER_UID_PATTERN`, in
 * `services/app-connection/keeper/`).
 */
export const keeperPasswordManager = destinationRow({
  destination: "keeper-password-manager",
  label: "Keeper Password Manager",
  family: "Password manager",
  origin: { folder: "services/secret-sync/keeper/" },
  connectionApp: "keeper",
  destinationConfig: strictObject({
    /** The UID of the Keeper shared folder the secrets go to: letters, digits, hyphens and underscores, at most 64 characters, not starting with a hyphen (Commander's Service Mode cannot address it). */
    folderUid: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(64, { error: "must be at most 64 characters" })
      .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "may only contain letters, digits, hyphens and underscores" })
      .refine((uid) => !uid.startsWith("-"), { error: "must not start with '-'" }),
    /** The shared folder's name, at most 255 characters: a label, not part of where the secrets land. */
    folderName: z.string().trim().max(255, { error: "must be at most 255 characters" }).optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["folderName"],
  example: { destinationConfig: { folderUid: "Emul4torSharedF0lder_1", folderName: "Infisical" } },
});
