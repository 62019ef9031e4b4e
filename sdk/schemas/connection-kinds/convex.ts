import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/convex/convex-connection-schemas.ts`. */
export const convex = connectionKind({
  app: "convex",
  label: "Convex",
  family: "Backend platform",
  origin: { folder: "services/app-connection/convex/" },
  methods: {
    "personal-access-token": {
      credentials: strictObject({
        /** A Convex personal access token: secret. */
        accessToken: str,
        /** The Convex instance's `https://` URL, for a self-hosted instance; unset: Convex's cloud. */
        instanceUrl: z
          .url({ error: "must be a URL" })
          .trim()
          .refine((u) => u.startsWith("https://"), { error: "must use HTTPS" })
          .optional(),
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "personal-access-token": { accessToken: "emulator-convex-token" } },
});
