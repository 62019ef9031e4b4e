import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/hasura-cloud/hasura-cloud-connection-schemas.ts`. */
export const hasuraCloud = connectionKind({
  app: "hasura-cloud",
  label: "Hasura Cloud",
  family: "GraphQL platform",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Hasura Cloud personal access token: secret. */
        accessToken: str,
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  example: { method: "access-token", credentials: { accessToken: "emulator-hasura-cloud-token" } },
});
