import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/snowflake-user-key-pair/snowflake-user-key-pair-rotation-schemas.ts`. */
export const snowflakeUserKeyPair = rotationRow({
  type: "snowflake-user-key-pair",
  label: "Snowflake User Key Pair",
  family: "Data warehouse user key pair",
  origin: { folder: "ee/services/secret-rotation-v2/snowflake-user-key-pair/" },
  connectionApp: "snowflake",
  parameters: strictObject({
    /** The Snowflake user whose RSA key pair is rotated. */
    username: str,
  }),
  secretsMapping: strictObject({
    /** The secret the active private key is written to. */
    privateKey: secretName,
    /** The secret the active public key is written to. */
    publicKey: secretName,
  }),
  generatedCredentials: z.object({ privateKey: z.string(), publicKey: z.string() }),
  secretFields: ["privateKey"],
  example: { parameters: { username: "SVC_LOADER" } },
});
