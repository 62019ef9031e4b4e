import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/koyeb/koyeb-connection-schema.ts`. */
export const koyeb = connectionKind({
  app: "koyeb",
  label: "Koyeb",
  family: "Application platform",
  origin: { folder: "services/app-connection/koyeb/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Koyeb API key (organization-wide), at most 256 characters: secret. */
        apiKey: strMax(256),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-koyeb-key" } },
});
