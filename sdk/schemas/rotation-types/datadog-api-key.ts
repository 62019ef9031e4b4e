import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/datadog-api-key/datadog-api-key-rotation-schemas.ts`. */
export const datadogApiKey = rotationRow({
  type: "datadog-api-key",
  label: "Datadog API Key",
  family: "Monitoring platform API key",
  origin: { folder: "ee/services/secret-rotation-v2/datadog-api-key/" },
  connectionApp: "datadog",
  parameters: strictObject({
    /** The name the service gives the API keys it creates, at most 255 characters. */
    name: str.max(255, { error: "must be at most 255 characters" }),
  }),
  secretsMapping: strictObject({
    /** The secret the active API key's id is written to. */
    apiKeyId: secretName,
    /** The secret the active API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKeyId: z.string(), apiKey: z.string() }),
  secretFields: ["apiKey"],
  example: { parameters: { name: "emulator-rotated-key" } },
});
