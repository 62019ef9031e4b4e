import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/bitbucket/bitbucket-connection-schemas.ts`. */
export const bitbucket = connectionKind({
  app: "bitbucket",
  label: "Bitbucket",
  family: "Source-hosting service",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Bitbucket API token: secret. */
        apiToken: str.max(255, { error: "must be at most 255 characters" }),
        /** The e-mail address of the token's Atlassian account. */
        email: z.email({ error: "must be an e-mail address" }).max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["secret-scanning"],
  examples: { "api-token": { apiToken: "emulator-bitbucket-token", email: "emulator@example.com" } },
});
