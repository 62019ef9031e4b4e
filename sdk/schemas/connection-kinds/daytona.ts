import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/**
 * The service's `services/app-connection/daytona/daytona-connection-schemas.ts`. A Daytona API
 * key belongs to one organization: the service looks its id up when it checks the key and
 * returns it as `credentials.organizationId` (the emulator returns no credential field).
 */
export const daytona = connectionKind({
  app: "daytona",
  label: "Daytona",
  family: "Development sandbox platform",
  origin: { folder: "services/app-connection/daytona/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        /** A Daytona API key, at most 500 characters: secret. */
        apiKey: strMax(500),
      }),
      secretFields: ["apiKey"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-key": { apiKey: "dtn_emulator-daytona-key" } },
});
