import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/litellm/litellm-connection-schemas.ts`. */
export const litellm = connectionKind({
  app: "litellm",
  label: "LiteLLM",
  family: "LLM proxy server",
  origin: { folder: "services/app-connection/litellm/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** An API key of the LiteLLM proxy that may manage keys (e.g. its master key): secret. */
        apiKey: str,
        /** The LiteLLM proxy's URL. */
        instanceUrl: z.url({ error: "must be a URL" }).trim(),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-litellm-key", instanceUrl: "https://litellm.example.com" } },
});
