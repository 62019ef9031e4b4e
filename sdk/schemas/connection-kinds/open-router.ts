import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/open-router/open-router-connection-schemas.ts`. */
export const openRouter = connectionKind({
  app: "open-router",
  label: "OpenRouter",
  family: "LLM API gateway",
  origin: "service-enum",
  methods: {
    "api-key": {
      credentials: strictObject({
        /** An OpenRouter provisioning API key, which can create and delete API keys: secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-open-router-key" } },
});
