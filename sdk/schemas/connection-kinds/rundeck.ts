import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str, strMax } from "./row";

/** The service's `services/app-connection/rundeck/rundeck-connection-schemas.ts`. */
export const rundeck = connectionKind({
  app: "rundeck",
  label: "Rundeck",
  family: "Job automation platform",
  origin: { folder: "services/app-connection/rundeck/" },
  methods: {
    "api-token": {
      credentials: strictObject({
        /** The Rundeck server's URL, at most 255 characters. */
        instanceUrl: strMax(255).pipe(z.url({ error: "must be a URL" })),
        /** A Rundeck API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { instanceUrl: "https://rundeck.example.com", apiToken: "emulator-rundeck-token" } },
});
