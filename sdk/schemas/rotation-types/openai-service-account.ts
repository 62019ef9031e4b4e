import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/openai-service-account/openai-service-account-rotation-schemas.ts`. */
export const openaiServiceAccount = rotationRow({
  type: "openai-service-account",
  label: "OpenAI Service Account",
  family: "LLM provider service account key",
  origin: { folder: "ee/services/secret-rotation-v2/openai-service-account/" },
  connectionApp: "openai",
  parameters: strictObject({
    /** The OpenAI project the service accounts are created in. */
    projectId: str,
    /**
     * The base name of the created service accounts, 1 to 86 characters (the service's newer limit,
     * commit afd9c814: OpenAI allows 86 with the `-<timestamp>` it adds; its first version said 100).
     */
    name: str.max(86, { error: "must be at most 86 characters" }),
  }),
  secretsMapping: strictObject({
    /** The secret the active service account's API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKey: z.string(), serviceAccountId: z.string() }),
  secretFields: ["apiKey"],
  example: { parameters: { projectId: "proj_emulator", name: "emulator-service-account" } },
  invalidExamples: [
    {
      parameters: { projectId: "proj_emulator", name: "a".repeat(87) },
      path: "parameters.name",
      message: "must be at most 86 characters",
    },
  ],
});
