import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/netlify/netlify-connection-schemas.ts`. */
export const netlify = connectionKind({
  app: "netlify",
  label: "Netlify",
  family: "Deployment platform",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Netlify personal access token, at most 255 characters: secret. */
        accessToken: str.max(255, { error: "must be at most 255 characters" }),
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "emulator-netlify-token" } },
});
