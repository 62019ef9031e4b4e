import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/vercel/vercel-connection-schemas.ts`. */
export const vercel = connectionKind({
  app: "vercel",
  label: "Vercel",
  family: "Deployment platform",
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
  example: { method: "api-token", credentials: { apiToken: "emulator-vercel-token" } },
});
