import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/digital-ocean/digital-ocean-connection-schemas.ts`. */
export const digitalOcean = connectionKind({
  app: "digital-ocean",
  label: "DigitalOcean App Platform",
  family: "Cloud application platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A DigitalOcean personal access token, at most 255 characters: secret. */
        apiToken: str.max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-digital-ocean-token" } },
});
