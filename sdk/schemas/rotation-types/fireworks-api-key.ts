import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/fireworks-api-key/fireworks-api-key-rotation-schemas.ts`. */
export const fireworksApiKey = rotationRow({
  type: "fireworks-api-key",
  label: "Fireworks Secret",
  family: "AI platform API key",
  origin: { folder: "ee/services/secret-rotation-v2/fireworks-api-key/" },
  connectionApp: "fireworks",
  parameters: strictObject({
    /** The name the generated API keys get in Fireworks. */
    keyName: str,
  }),
  secretsMapping: strictObject({
    /** The secret the API key is written to. */
    secretValue: secretName,
  }),
  generatedCredentials: z.object({ secretName: z.string(), secretValue: z.string() }),
  secretFields: ["secretValue"],
  example: { parameters: { keyName: "emulator-key" } },
});
