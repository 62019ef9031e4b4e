import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/checkly/checkly-connection-schemas.ts`. */
export const checkly = connectionKind({
  app: "checkly",
  label: "Checkly",
  family: "Monitoring platform",
  origin: "service-enum",
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Checkly API key, at most 255 characters: secret. */
        apiKey: str.max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-checkly-api-key" } },
});
