import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/ultradns/ultradns-connection-schema.ts` (environments in `ultradns-connection-enum.ts`). */
export const ultradns = connectionKind({
  app: "ultradns",
  label: "UltraDNS",
  family: "DNS provider",
  origin: { folder: "services/app-connection/ultradns/" },
  methods: {
    "username-password": {
      credentials: strictObject({
        /** The UltraDNS user, at most 256 characters; it cannot have two-factor mobile authentication on. */
        username: strMax(256),
        /** That user's password, at most 256 characters: secret, never returned by the service. */
        password: strMax(256),
        /** The UltraDNS API: `production` (api.ultradns.com) or `test` (the customer test environment, test-api.ultradns.com). */
        environment: z.enum(["production", "test"]),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "username-password": {
      username: "emulator-ultradns-user",
      password: "emulator-ultradns-password",
      environment: "test",
    },
  },
});
