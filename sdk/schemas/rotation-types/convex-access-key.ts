import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/convex-access-key/convex-access-key-rotation-schemas.ts`. */
export const convexAccessKey = rotationRow({
  type: "convex-access-key",
  label: "Convex Access Key",
  family: "Backend platform access key",
  origin: { folder: "ee/services/secret-rotation-v2/convex-access-key/" },
  connectionApp: "convex",
  parameters: strictObject({
    /** The prefix of the names the service gives the access keys it creates. */
    namePrefix: str,
  }),
  secretsMapping: strictObject({
    /** The secret the active access key is written to. */
    accessKey: secretName,
  }),
  generatedCredentials: z.object({ accessKeyId: z.string(), accessKey: z.string() }),
  secretFields: ["accessKey"],
  example: { parameters: { namePrefix: "emulator-rotation" } },
});
