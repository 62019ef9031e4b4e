import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/ona/ona-connection-schemas.ts`. */
export const ona = connectionKind({
  app: "ona",
  label: "Ona",
  family: "Cloud development environment",
  origin: { folder: "services/app-connection/ona/" },
  methods: {
    "personal-access-token": {
      credentials: strictObject({
        /** An Ona personal access token: secret. */
        personalAccessToken: str,
      }),
      secretFields: ["personalAccessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "personal-access-token": { personalAccessToken: "emulator-ona-token" } },
});
