import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/snowflake/snowflake-connection-schemas.ts`. */
export const snowflake = connectionKind({
  app: "snowflake",
  label: "Snowflake",
  family: "Data warehouse",
  origin: { folder: "services/app-connection/snowflake/" },
  methods: {
    "username-and-token": {
      credentials: strictObject({
        /** The Snowflake account identifier (`<org>-<account>`). */
        account: str,
        /** The Snowflake user the service connects as. */
        username: str,
        /** That user's programmatic access token: secret, never returned by the service. */
        password: str,
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "username-and-token": { account: "emulator-account", username: "SYNC_USER", password: "emulator-snowflake-token" },
  },
});
