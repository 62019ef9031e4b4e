import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/openai/openai-connection-schemas.ts`. */
export const openai = connectionKind({
  app: "openai",
  label: "OpenAI",
  family: "LLM API provider",
  origin: { folder: "services/app-connection/openai/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** An OpenAI API key (the rotations of admin keys and service accounts need an admin key): secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "sk-admin-emulator-openai-key" } },
});
