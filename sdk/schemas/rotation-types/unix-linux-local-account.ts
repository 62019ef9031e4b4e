import { z } from "zod";
import { strictObject } from "../common";
import {
  accountName,
  accountPasswordParameters,
  rotationRow,
  usernamePassword,
  usernamePasswordMapping,
  currentPasswordRule,
  LOGIN_AS_TARGET_NEEDS_PASSWORD,
} from "./row";

/** The service's `ee/services/secret-rotation-v2/unix-linux-local-account-rotation/unix-linux-local-account-rotation-schemas.ts`. */
export const unixLinuxLocalAccount = rotationRow({
  type: "unix-linux-local-account",
  label: "Unix/Linux Local Account",
  family: "Unix/Linux local account password",
  origin: "service-enum",
  connectionApp: "ssh",
  // The service's create body also takes `temporaryParameters.password` (the account's current
  // password), required with `rotationMethod: "login-as-target"`; the shared create body has no such
  // field, so that method is refused on create as the service refuses it without one.
  createRules: [currentPasswordRule("login-as-target", LOGIN_AS_TARGET_NEEDS_PASSWORD)],
  parameters: strictObject({
    ...accountPasswordParameters({
      /** The local account whose password is rotated: letters, digits, hyphens and underscores. */
      username: accountName,
    }),
    /** Run the password change with `sudo`. Default false. */
    useSudo: z.boolean().default(false),
  }),
  secretsMapping: usernamePasswordMapping,
  generatedCredentials: usernamePassword,
  secretFields: ["password"],
  example: { parameters: { username: "app_user", rotationMethod: "login-as-root", useSudo: true } },
  invalidExamples: [
    {
      parameters: { username: "app_user", rotationMethod: "login-as-target" },
      path: "temporaryParameters.password",
      message: LOGIN_AS_TARGET_NEEDS_PASSWORD,
    },
  ],
});
