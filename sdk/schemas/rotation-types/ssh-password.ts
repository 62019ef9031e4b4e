import { z } from "zod";
import { strictObject } from "../common";
import {
  passwordRequirements,
  rotationRow,
  usernamePassword,
  usernamePasswordMapping,
  currentPasswordRule,
  LOGIN_AS_TARGET_NEEDS_PASSWORD,
} from "./row";

/** The service's `ee/services/secret-rotation-v2/ssh-password/ssh-password-rotation-schemas.ts`. */
export const sshPassword = rotationRow({
  type: "ssh-password",
  label: "SSH Password",
  family: "SSH account password",
  origin: { folder: "ee/services/secret-rotation-v2/ssh-password/" },
  connectionApp: "ssh",
  // The service's create body also takes `temporaryParameters.password` (the account's current
  // password), required with `rotationMethod: "login-as-target"`; the shared create body has no such
  // field, so that method is refused on create as the service refuses it without one.
  createRules: [currentPasswordRule("login-as-target", LOGIN_AS_TARGET_NEEDS_PASSWORD)],
  parameters: strictObject({
    /** The account whose password is rotated: letters, digits, hyphens and underscores. */
    username: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .regex(/^[a-zA-Z0-9_-]+$/, { error: "may only contain letters, digits, hyphens and underscores" }),
    /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
    passwordRequirements: passwordRequirements.optional(),
    /** `login-as-root`: the connection's user changes the password; `login-as-target`: the account changes its own (the service needs its current password on create, which this package does not send: refused on create). */
    rotationMethod: z.enum(["login-as-target", "login-as-root"]).optional(),
  }),
  secretsMapping: usernamePasswordMapping,
  generatedCredentials: usernamePassword,
  secretFields: ["password"],
  example: { parameters: { username: "deploy", rotationMethod: "login-as-root" } },
  invalidExamples: [
    {
      parameters: { username: "deploy", rotationMethod: "login-as-target" },
      path: "temporaryParameters.password",
      message: LOGIN_AS_TARGET_NEEDS_PASSWORD,
    },
  ],
});
