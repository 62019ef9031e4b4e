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
  parameters: strictObject(
    accountPasswordParameters({
      /** The account whose password is rotated: letters, digits, hyphens and underscores. */
      username: accountName,
    }),
  ),
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
