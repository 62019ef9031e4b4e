import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/cloud-66/cloud-66-connection-schemas.ts`. */
export const cloud66 = connectionKind({
  app: "cloud-66",
  label: "Cloud 66",
  family: "Application platform",
  origin: { folder: "services/app-connection/cloud-66/" },
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Cloud 66 personal access token: secret. */
        accessToken: str,
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "emulator-cloud-66-token" } },
});
