import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/portainer/portainer-connection-schemas.ts`. */
export const portainer = connectionKind({
  app: "portainer",
  label: "Portainer",
  family: "Container management platform",
  origin: { folder: "services/app-connection/portainer/" },
  methods: {
    "api-token": {
      credentials: strictObject({
        /** The Portainer server's URL, at most 255 characters. */
        instanceUrl: strMax(255).pipe(z.url({ error: "must be a URL" })),
        /** A Portainer access token, at most 255 characters: secret. */
        apiToken: strMax(255),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { instanceUrl: "https://portainer.example.com", apiToken: "ptr_emulator-portainer-token" } },
});
