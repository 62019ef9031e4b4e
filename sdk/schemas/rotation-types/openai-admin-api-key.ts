import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/openai-admin-api-key/openai-admin-api-key-rotation-schemas.ts`. */
export const openaiAdminApiKey = rotationRow({
  type: "openai-admin-api-key",
  label: "OpenAI Admin API Key",
  family: "LLM provider admin API key",
  origin: { folder: "ee/services/secret-rotation-v2/openai-admin-api-key/" },
  connectionApp: "openai",
  parameters: strictObject({
    /** The name the generated admin keys get, 1 to 100 characters. */
    name: str.max(100, { error: "must be at most 100 characters" }),
  }),
  secretsMapping: strictObject({
    /** The secret the active admin API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKey: z.string(), keyId: z.string() }),
  secretFields: ["apiKey"],
  example: { parameters: { name: "emulator-admin-key" } },
});
