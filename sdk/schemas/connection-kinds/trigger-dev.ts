import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/trigger-dev/trigger-dev-connection-schemas.ts`. */
export const triggerDev = connectionKind({
  app: "trigger-dev",
  label: "Trigger.dev",
  family: "Background job platform",
  origin: { folder: "services/app-connection/trigger-dev/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Trigger.dev API key, at most 255 characters: secret. */
        apiKey: str.max(255, { error: "must be at most 255 characters" }),
        /** A self-hosted Trigger.dev's URL, at most 255 characters; unset for Trigger.dev's cloud. */
        instanceUrl: z
          .string()
          .trim()
          .max(255, { error: "must be at most 255 characters" })
          .pipe(z.url({ error: "must be a URL" }))
          .optional(),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-trigger-dev-key" } },
});
