import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/humanitec/humanitec-connection-schemas.ts`. */
export const humanitec = connectionKind({
  app: "humanitec",
  label: "Humanitec",
  family: "Platform orchestrator",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Humanitec API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-humanitec-token" } },
});
