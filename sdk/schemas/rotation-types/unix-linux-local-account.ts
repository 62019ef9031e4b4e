import { z } from "zod";
import { strictObject } from "../common";
import { accountName, accountPasswordParameters, accountPasswordRotation, rotationRow } from "./row";

/** The service's `ee/services/secret-rotation-v2/unix-linux-local-account-rotation/unix-linux-local-account-rotation-schemas.ts`. */
export const unixLinuxLocalAccount = rotationRow({
  type: "unix-linux-local-account",
  label: "Unix/Linux Local Account",
  family: "Unix/Linux local account password",
  origin: "service-enum",
  connectionApp: "ssh",
  ...accountPasswordRotation("app_user"),
  parameters: strictObject({
    ...accountPasswordParameters({
      /** The local account whose password is rotated: letters, digits, hyphens and underscores. */
      username: accountName,
    }),
    /** Run the password change with `sudo`. Default false. */
    useSudo: z.boolean().default(false),
  }),
  example: { parameters: { username: "app_user", rotationMethod: "login-as-root", useSudo: true } },
});
