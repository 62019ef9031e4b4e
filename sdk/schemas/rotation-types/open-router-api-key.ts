import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/open-router-api-key/open-router-api-key-rotation-schemas.ts`. */
export const openRouterApiKey = rotationRow({
  type: "open-router-api-key",
  label: "OpenRouter API Key",
  family: "LLM gateway API key",
  origin: "service-enum",
  connectionApp: "open-router",
  parameters: strictObject({
    /** The name the generated keys get, 1 to 255 characters. */
    name: str.max(255, { error: "must be at most 255 characters" }),
    /** The spending limit of a generated key, above 0; unset or null: no limit. */
    limit: z.number().positive({ error: "must be above 0" }).optional().nullable(),
    /** How often the limit resets: `daily`, `weekly` or `monthly`; unset or null: never. */
    limitReset: z.enum(["daily", "weekly", "monthly"]).optional().nullable(),
    /** Count bring-your-own-key usage against the limit. */
    includeByokInLimit: z.boolean().optional().nullable(),
  }),
  secretsMapping: strictObject({
    /** The secret the API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKey: z.string(), keyHash: z.string() }),
  secretFields: ["apiKey"],
  example: { parameters: { name: "emulator-key", limit: 10, limitReset: "monthly" } },
});
