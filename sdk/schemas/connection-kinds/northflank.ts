import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/northflank/northflank-connection-schemas.ts`. */
export const northflank = connectionKind({
  app: "northflank",
  label: "Northflank",
  family: "Deployment platform",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Northflank API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  example: { method: "api-token", credentials: { apiToken: "emulator-northflank-token" } },
});
