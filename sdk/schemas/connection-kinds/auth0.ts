import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/auth0/auth0-connection-schemas.ts`. */
export const auth0 = connectionKind({
  app: "auth0",
  label: "Auth0",
  family: "Identity platform",
  origin: "service-enum",
  methods: {
    "client-credentials": {
      credentials: strictObject({
        /** The Auth0 tenant's domain, e.g. `example.eu.auth0.com`. */
        domain: str,
        /** The machine-to-machine application's client id. */
        clientId: str,
        /** That application's client secret: secret. */
        clientSecret: str,
        /** The API identifier (audience) the tokens are requested for. */
        audience: z
          .string()
          .trim()
          .pipe(z.url({ error: "must be a URL" })),
      }),
      secretFields: ["clientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "client-credentials": {
      domain: "emulator.auth0.com",
      clientId: "emulator-auth0-client",
      clientSecret: "emulator-auth0-secret",
      audience: "https://emulator.auth0.com/api/v2/",
    },
  },
});
