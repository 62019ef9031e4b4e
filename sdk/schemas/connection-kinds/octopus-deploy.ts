import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/octopus-deploy/octopus-deploy-connection-schemas.ts`. */
export const octopusDeploy = connectionKind({
  app: "octopus-deploy",
  label: "Octopus Deploy",
  family: "Deployment tool",
  origin: "service-enum",
  methods: {
    "api-key": {
      // The format's error would otherwise also word the length check.
      credentials: strictObject({
        /** The Octopus Deploy server's URL. */
        instanceUrl: z.url({ error: "must be a URL" }).trim().max(255, { error: "must be at most 255 characters" }),
        /** An API key of an Octopus Deploy user: secret. */
        apiKey: str,
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { instanceUrl: "https://octopus.emulator.local", apiKey: "API-EMULATORKEY" } },
});
