import { strictObject } from "../common";
import { accountName, accountPasswordParameters, accountPasswordRotation, rotationRow } from "./row";

/** The service's `ee/services/secret-rotation-v2/ssh-password/ssh-password-rotation-schemas.ts`. */
export const sshPassword = rotationRow({
  type: "ssh-password",
  label: "SSH Password",
  family: "SSH account password",
  origin: { folder: "ee/services/secret-rotation-v2/ssh-password/" },
  connectionApp: "ssh",
  ...accountPasswordRotation("deploy"),
  parameters: strictObject(
    accountPasswordParameters({
      /** The account whose password is rotated: letters, digits, hyphens and underscores. */
      username: accountName,
    }),
  ),
  example: { parameters: { username: "deploy", rotationMethod: "login-as-root" } },
});
