import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/laravel-forge/laravel-forge-connection-schemas.ts`. */
export const laravelForge = connectionKind({
  app: "laravel-forge",
  label: "Laravel Forge",
  family: "Server management platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Laravel Forge API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-laravel-forge-token" } },
});
