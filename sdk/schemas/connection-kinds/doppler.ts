import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/doppler/doppler-connection-schema.ts`. */
export const doppler = connectionKind({
  app: "doppler",
  label: "Doppler",
  family: "Secrets manager",
  origin: { folder: "services/app-connection/doppler/" },
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Doppler API token, at most 512 characters: secret. */
        apiToken: strMax(512),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "dp.pt.emulator-doppler-token" } },
});
