import { z } from "zod";
import { strictObject } from "../common";
import { hasDangerousSmbCharacter } from "../connection-kinds/smb";
import { passwordRequirements, accountPasswordRotation, rotationRow } from "./row";

/** Built-in Windows accounts the service never rotates (compared case-insensitively). */
const PRIVILEGED_ACCOUNTS = ["administrator", "system", "guest", "defaultaccount"];

/** The service's `ee/services/secret-rotation-v2/windows-local-account-rotation/windows-local-account-rotation-schemas.ts`. */
export const windowsLocalAccount = rotationRow({
  type: "windows-local-account",
  label: "Windows Local Account",
  family: "Windows local account password",
  origin: "service-enum",
  connectionApp: "smb",
  ...accountPasswordRotation("app_user"),
  parameters: strictObject({
    /**
     * The local account whose password is rotated: 1 to 20 letters, digits, underscores, hyphens and
     * dots, not starting with a hyphen or dot nor ending with a dot; not Administrator, SYSTEM, Guest
     * or DefaultAccount.
     */
    username: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(20, { error: "must be at most 20 characters (the Windows limit for local accounts)" })
      .regex(/^[a-zA-Z0-9_.-]+$/, { error: "may only contain letters, digits, underscores, hyphens and dots" })
      .refine((v) => !v.startsWith("-") && !v.startsWith(".") && !v.endsWith("."), {
        error: "must not start with a hyphen or dot, nor end with a dot",
      })
      .refine((v) => !PRIVILEGED_ACCOUNTS.includes(v.toLowerCase()), {
        error: "must not be a built-in privileged account (Administrator, SYSTEM, Guest, DefaultAccount)",
      }),
    /**
     * How passwords are generated; `allowedSymbols` must not contain `;` `|` `&` `` ` `` `$` `(` `)` or
     * newlines. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit).
     */
    passwordRequirements: passwordRequirements
      .refine((p) => !p.allowedSymbols || !hasDangerousSmbCharacter(p.allowedSymbols), {
        error: "must not contain any of ; | & ` $ ( ) or a newline",
        path: ["allowedSymbols"],
      })
      .optional(),
    /** `login-as-root`: the connection's user changes the password; `login-as-target`: the account changes its own (the service needs its current password on create, which this package does not send: refused on create). */
    rotationMethod: z.enum(["login-as-target", "login-as-root"]).optional(),
  }),
  example: { parameters: { username: "app_user", rotationMethod: "login-as-root" } },
});
