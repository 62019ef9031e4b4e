import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/fireworks/fireworks-connection-schemas.ts`. */
export const fireworks = connectionKind({
  app: "fireworks",
  label: "Fireworks",
  family: "AI inference platform",
  methods: {
    "api-key": {
      credentials: strictObject({
        /** The Fireworks account's id. */
        accountId: str,
        /** A Fireworks API key of that account: secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  example: { method: "api-key", credentials: { accountId: "emulator-account", apiKey: "emulator-fireworks-key" } },
});
