import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/anthropic/anthropic-connection-schemas.ts`. */
export const anthropic = connectionKind({
  app: "anthropic",
  label: "Anthropic",
  family: "LLM API provider",
  origin: { folder: "services/app-connection/anthropic/" },
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
  examples: { "api-key": { apiKey: "sk-ant-emulator-anthropic-key" } },
});
