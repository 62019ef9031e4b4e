import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * The service's `services/app-connection/circleci/circleci-connection-schemas.ts`. Its method is
 * `api-token` there (an older enum spelled it `personal-access-token`, without `host`).
 */
export const circleci = connectionKind({
  app: "circleci",
  label: "CircleCI",
  family: "CI/CD platform",
  origin: "service-enum",
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A CircleCI personal API token: secret. */
        apiToken: str,
        /** The CircleCI host, for a self-hosted CircleCI server; unset: circleci.com. */
        host: z.string().trim().optional(),
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-circleci-token" } },
});
