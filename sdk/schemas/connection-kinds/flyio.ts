import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/flyio/flyio-connection-schemas.ts`. */
export const flyio = connectionKind({
  app: "flyio",
  label: "Fly.io",
  family: "Application platform",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Fly.io access token (`FlyV1 ...`), at most 1000 characters: secret. */
        accessToken: str
          .max(1000, { error: "must be at most 1000 characters" })
          .startsWith("FlyV1", { error: "must start with 'FlyV1'" }),
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "FlyV1 emulator-flyio-token" } },
});
