import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/vercel/vercel-connection-schemas.ts`. */
export const vercel = connectionKind({
  app: "vercel",
  label: "Vercel",
  family: "Deployment platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Vercel access token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-vercel-token" } },
});
