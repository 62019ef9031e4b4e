import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/keeper/keeper-connection-schemas.ts` (Keeper Commander in Service Mode). */
export const keeper = connectionKind({
  app: "keeper",
  label: "Keeper",
  family: "Password manager",
  origin: { folder: "services/app-connection/keeper/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** The API key of the Keeper Commander service, at most 500 characters: secret. */
        apiKey: strMax(500),
        /** The Keeper Commander service's URL, at most 255 characters. */
        instanceUrl: strMax(255).pipe(z.url({ error: "must be a URL" })),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "emulator-keeper-key", instanceUrl: "https://keeper-commander.example.com" } },
});
