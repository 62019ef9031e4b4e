import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/travis-ci/travis-ci-connection-schemas.ts`. */
export const travisCi = connectionKind({
  app: "travis-ci",
  label: "Travis CI",
  family: "CI/CD platform",
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
  example: { method: "api-token", credentials: { apiToken: "emulator-travis-token" } },
});
