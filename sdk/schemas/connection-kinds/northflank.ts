import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/northflank/northflank-connection-schemas.ts`. */
export const northflank = connectionKind({
  app: "northflank",
  label: "Northflank",
  family: "Deployment platform",
  origin: "service-enum",
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
  examples: { "api-token": { apiToken: "emulator-northflank-token" } },
});
