import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/coolify/coolify-connection-schemas.ts`. */
export const coolify = connectionKind({
  app: "coolify",
  label: "Coolify",
  family: "Self-hosted deployment platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Coolify API token: secret. */
        apiToken: str,
        /** The Coolify instance's URL. */
        instanceUrl: z.url({ error: "must be a URL" }).trim(),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-coolify-token", instanceUrl: "https://coolify.example.com" } },
});
