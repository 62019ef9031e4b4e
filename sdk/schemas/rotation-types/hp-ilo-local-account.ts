import { z } from "zod";
import { strictObject } from "../common";
import {
  accountName,
  accountPasswordParameters,
  passwordRequirements,
  accountPasswordRotation,
  rotationRow,
} from "./row";

/** The longest password HP iLO accepts. */
const HP_ILO_MAX_PASSWORD_LENGTH = 39;

/** The service's `ee/services/secret-rotation-v2/hp-ilo-rotation/hp-ilo-rotation-schemas.ts`. */
export const hpIloLocalAccount = rotationRow({
  type: "hp-ilo-local-account",
  label: "HP iLO Local Account",
  family: "Server management controller account password",
  origin: { folder: "ee/services/secret-rotation-v2/hp-ilo-rotation/" },
  connectionApp: "ssh",
  ...accountPasswordRotation("ilo_admin"),
  parameters: strictObject({
    ...accountPasswordParameters({
      /** The iLO local account whose password is rotated: letters, digits, hyphens and underscores. */
      username: accountName,
    }),
    /** How passwords are generated; `length` at most 39, the most iLO accepts. Unset: the service's default. */
    passwordRequirements: passwordRequirements
      .refine((p) => p.length <= HP_ILO_MAX_PASSWORD_LENGTH, {
        error: `must be at most ${HP_ILO_MAX_PASSWORD_LENGTH}, the longest password HP iLO accepts`,
        path: ["length"],
      })
      .optional(),
    /** Refuse an iLO certificate that does not verify. */
    sslRejectUnauthorized: z.boolean().optional(),
    /** PEM certificate of the iLO's CA, at most 8192 characters; `""` for none. */
    sslCertificate: z
      .string()
      .trim()
      .max(8192, { error: "must be at most 8192 characters" })
      .transform((v) => v || undefined)
      .optional(),
  }),
  example: {
    parameters: {
      username: "ilo_admin",
      rotationMethod: "login-as-root",
      sslRejectUnauthorized: true,
    },
  },
});
