import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/teamcity/teamcity-connection-schemas.ts`. */
export const teamcity = connectionKind({
  app: "teamcity",
  label: "TeamCity",
  family: "CI/CD platform",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A TeamCity access token: secret. */
        accessToken: str,
        /** The TeamCity server's URL. */
        instanceUrl: z.url({ error: "must be a URL" }).trim(),
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "emulator-teamcity-token", instanceUrl: "https://teamcity.example.com" } },
});
