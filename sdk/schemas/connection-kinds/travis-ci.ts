import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/travis-ci/travis-ci-connection-schemas.ts`. */
export const travisCi = connectionKind({
  app: "travis-ci",
  label: "Travis CI",
  family: "CI/CD platform",
  origin: { folder: "services/app-connection/travis-ci/" },
  methods: {
    "api-token": {
      credentials: strictObject({
        /** A Travis CI API token: secret. */
        apiToken: str,
      }),
      secretFields: ["apiToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "api-token": { apiToken: "emulator-travis-token" } },
});
