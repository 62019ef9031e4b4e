import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/godaddy/godaddy-connection-schemas.ts`. */
export const godaddy = connectionKind({
  app: "godaddy",
  label: "GoDaddy",
  family: "DNS provider",
  origin: { folder: "services/app-connection/godaddy/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A GoDaddy API key: secret, never returned by the service. */
        apiKey: str,
        /** That key's secret: secret. */
        apiSecret: str,
      }),
      secretFields: ["apiKey", "apiSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-godaddy-key", apiSecret: "emulator-godaddy-secret" } },
});
