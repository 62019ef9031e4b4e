import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/laravel-forge/laravel-forge-connection-schemas.ts`. */
export const laravelForge = connectionKind({
  app: "laravel-forge",
  label: "Laravel Forge",
  family: "Server management platform",
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
  example: { method: "api-token", credentials: { apiToken: "emulator-laravel-forge-token" } },
});
