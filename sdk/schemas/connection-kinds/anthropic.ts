import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/anthropic/anthropic-connection-schemas.ts`. */
export const anthropic = connectionKind({
  app: "anthropic",
  label: "Anthropic",
  family: "LLM API provider",
  methods: {
    "api-key": {
      credentials: strictObject({
        /** An Anthropic API key: secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  example: { method: "api-key", credentials: { apiKey: "sk-ant-emulator-anthropic-key" } },
});
