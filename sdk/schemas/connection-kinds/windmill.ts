import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/windmill/windmill-connection-schemas.ts`. */
export const windmill = connectionKind({
  app: "windmill",
  label: "Windmill",
  family: "Workflow engine",
  origin: "service-enum",
  methods: {
    "access-token": {
      credentials: strictObject({
        /** A Windmill access token: secret. */
        accessToken: str,
        /** The self-hosted Windmill instance's URL; unset for Windmill Cloud. */
        instanceUrl: z.url({ error: "must be a URL" }).trim().optional(),
      }),
      secretFields: ["accessToken"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: { "access-token": { accessToken: "emulator-windmill-token", instanceUrl: "https://windmill.example.com" } },
});
