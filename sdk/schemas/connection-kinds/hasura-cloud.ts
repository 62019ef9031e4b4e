import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/hasura-cloud/hasura-cloud-connection-schemas.ts`. */
export const hasuraCloud = connectionKind({
  app: "hasura-cloud",
  label: "Hasura Cloud",
  family: "GraphQL platform",
  origin: { folder: "services/app-connection/hasura-cloud/" },
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
  examples: { "access-token": { accessToken: "emulator-hasura-cloud-token" } },
});
