import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/1password/1password-connection-schemas.ts`. */
export const onePass = connectionKind({
  app: "1password",
  label: "1Password",
  family: "Password manager",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** An access token of the 1Password Connect server: secret. */
        apiToken: str,
        /** The 1Password Connect server's URL (trimmed). */
        instanceUrl: z
          .string()
          .trim()
          .pipe(z.url({ error: "must be a URL" })),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "api-token": { apiToken: "emulator-1password-token", instanceUrl: "https://onepassword-connect.example.com" },
  },
});
