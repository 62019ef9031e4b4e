import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/render/render-connection-schema.ts`. */
export const render = connectionKind({
  app: "render",
  label: "Render",
  family: "Application platform",
  origin: "service-enum",
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Render API key, at most 256 characters: secret. */
        apiKey: str.max(256, { error: "must be at most 256 characters" }),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-render-key" } },
});
