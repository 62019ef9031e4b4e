import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport } from "./row";

/**
 * Characters the service refuses in SMB passwords (and in a Windows rotation's allowed symbols):
 * `;` `|` `&` `` ` `` `$` `(` `)`, newlines and NUL (`lib/validator/validate-smb.ts`).
 */
export const DANGEROUS_SMB_CHARACTERS = [";", "|", "&", "`", "$", "(", ")", "\n", "\r", "\0"];
export const hasDangerousSmbCharacter = (v: string) => DANGEROUS_SMB_CHARACTERS.some((c) => v.includes(c));

/** The service's `services/app-connection/smb/smb-connection-schemas.ts` (with `lib/validator/validate-smb.ts`). */
export const smb = connectionKind({
  app: "smb",
  label: "SMB",
  family: "Windows server",
  origin: "service-enum",
  methods: {
    credentials: {
      credentials: strictObject({
        /** The Windows server's host name or IPv4 address: letters, digits, dots and hyphens, at most 253 characters, not starting with a hyphen or dot. */
        host: z
          .string()
          .trim()
          .min(1, { error: "must not be empty" })
          .max(253, { error: "must be at most 253 characters" })
          .regex(/^[a-zA-Z0-9.-]+$/, { error: "may only contain letters, digits, dots and hyphens" })
          .refine((v) => !v.startsWith("-") && !v.startsWith("."), { error: "must not start with a hyphen or dot" }),
        /** The SMB port, 1 to 65535 (usually 445). */
        port: z.coerce
          .number({ error: "must be a number" })
          .int({ error: "must be a whole number" })
          .min(1, { error: "must be 1 to 65535" })
          .max(65535, { error: "must be 1 to 65535" }),
        /** The Windows domain of the user: letters, digits, dots, hyphens and underscores, at most 255 characters; `""` or unset for a local user. */
        domain: z
          .string()
          .trim()
          .max(255, { error: "must be at most 255 characters" })
          .refine((v) => v === "" || /^[a-zA-Z0-9._-]+$/.test(v), {
            error: "may only contain letters, digits, dots, hyphens and underscores",
          })
          .refine((v) => v === "" || (!v.startsWith("-") && !v.startsWith(".")), {
            error: "must not start with a hyphen or dot",
          })
          .optional(),
        /** The administrator the service connects as: letters, digits, underscores, hyphens and dots, at most 104 characters, not starting with a hyphen or dot nor ending with a dot. */
        username: z
          .string()
          .trim()
          .min(1, { error: "must not be empty" })
          .max(104, { error: "must be at most 104 characters" })
          .regex(/^[a-zA-Z0-9_.-]+$/, { error: "may only contain letters, digits, underscores, hyphens and dots" })
          .refine((v) => !v.startsWith("-") && !v.startsWith(".") && !v.endsWith("."), {
            error: "must not start with a hyphen or dot, nor end with a dot",
          }),
        /** That user's password, without `;` `|` `&` `` ` `` `$` `(` `)` or newlines: secret. */
        password: z
          .string()
          .min(1, { error: "must not be empty" })
          .refine((v) => !hasDangerousSmbCharacter(v), {
            error: "must not contain any of ; | & ` $ ( ) or a newline",
          }),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    credentials: {
      host: "smb.emulator.local",
      port: 445,
      domain: "EMULATOR",
      username: "rotator",
      password: "emulator-smb-password",
    },
  },
});
