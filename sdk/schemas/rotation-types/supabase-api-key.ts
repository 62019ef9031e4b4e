import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/supabase-api-key/supabase-api-key-rotation-schemas.ts`. */
export const supabaseApiKey = rotationRow({
  type: "supabase-api-key",
  label: "Supabase API Key",
  family: "Backend platform API key",
  origin: { folder: "ee/services/secret-rotation-v2/supabase-api-key/" },
  connectionApp: "supabase",
  parameters: strictObject({
    /** The Supabase project's reference. */
    projectRef: str,
    /** The kind of API key the rotation creates: `publishable` or `secret`. */
    keyType: z.enum(["publishable", "secret"]),
  }),
  secretsMapping: strictObject({
    /** The secret the active API key is written to. */
    apiKey: secretName,
  }),
  generatedCredentials: z.object({ apiKey: z.string(), keyId: z.string() }),
  secretFields: ["apiKey"],
  example: { parameters: { projectRef: "emulatorprojectref", keyType: "secret" } },
});
