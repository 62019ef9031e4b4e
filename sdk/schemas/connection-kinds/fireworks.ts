import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/fireworks/fireworks-connection-schemas.ts`. */
export const fireworks = connectionKind({
  app: "fireworks",
  label: "Fireworks",
  family: "AI inference platform",
  origin: { folder: "services/app-connection/fireworks/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** The Fireworks account's id: letters, digits, `_` and `-`. */
        accountId: str.regex(/^[a-zA-Z0-9_-]+$/, { error: "Account ID contains invalid characters" }),
        /** A Fireworks API key of that account: secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { accountId: "emulator-account", apiKey: "emulator-fireworks-key" } },
  invalidExamples: [
    {
      credentials: { accountId: "emulator account", apiKey: "emulator-fireworks-key" },
      path: "credentials.accountId",
      message: "Account ID contains invalid characters",
    },
  ],
});
