import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/qovery/qovery-connection-schemas.ts`. */
export const qovery = connectionKind({
  app: "qovery",
  label: "Qovery",
  family: "Deployment platform",
  origin: { folder: "services/app-connection/qovery/" },
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Qovery API access token: secret. */
        accessToken: str,
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "emulator-qovery-token" } },
});
