import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/**
 * Key options the service manages itself or has their own parameter for, so `additionalOptions`
 * may not set them (the service's `litellm-api-key-rotation-constants.ts`).
 */
const managedKeyOptions = [
  "key_alias",
  "auto_rotate",
  "rotation_interval",
  "duration",
  "send_invite_email",
  "key_type",
  "user_id",
  "team_id",
  "models",
];

/** A JSON object of extra LiteLLM key options, as text; empty or unset for none. */
const additionalOptions = z
  .string()
  .trim()
  .optional()
  .superRefine((v, ctx) => {
    if (!v) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be valid JSON" });
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      ctx.addIssue({ code: "custom", message: "must be a JSON object" });
      return;
    }
    const managed = Object.keys(parsed).filter((k) => managedKeyOptions.includes(k));
    if (managed.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `the following options are managed by the service and cannot be set: ${managed.join(", ")}`,
      });
    }
  });

/** The service's `ee/services/secret-rotation-v2/litellm-api-key/litellm-api-key-rotation-schemas.ts`. */
export const litellmApiKey = rotationRow({
  type: "litellm-api-key",
  label: "LiteLLM API Key",
  family: "LLM proxy API key",
  origin: { folder: "ee/services/secret-rotation-v2/litellm-api-key/" },
  connectionApp: "litellm",
  parameters: strictObject({
    /** The name the generated keys get (the service appends a timestamp), 1 to 100 characters. */
    name: str.max(100, { error: "must be at most 100 characters" }),
    /** Extra options for the generated keys: a JSON object as text, without the options the service manages. */
    additionalOptions,
    /** The LiteLLM user the generated keys belong to. */
    userId: z.string().trim().optional(),
    /** The LiteLLM team the generated keys belong to. */
    teamId: z.string().trim().optional(),
    /** The models the generated keys may use. */
    models: z.array(z.string().trim()).optional(),
  }),
  secretsMapping: strictObject({
    /** The secret the API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKey: z.string() }),
  secretFields: ["apiKey"],
  example: {
    parameters: { name: "emulator-key", additionalOptions: '{"max_budget": 10}', models: ["gpt-4o"] },
  },
});
