import { z } from "zod";
import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/external-infisical/external-infisical-connection-schemas.ts`. */
export const externalInfisical = connectionKind({
  app: "external-infisical",
  label: "Infisical",
  family: "Secrets manager",
  origin: { folder: "services/app-connection/external-infisical/" },
  methods: {
    "machine-identity-universal-auth": {
      credentials: strictObject({
        /** The other Infisical instance's URL, at most 512 characters. */
        instanceUrl: str.max(512, { error: "must be at most 512 characters" }).pipe(z.url({ error: "must be a URL" })),
        /** The client id (a UUID) of a machine identity's Universal Auth on that instance. */
        machineIdentityClientId: z.string().trim().pipe(uuid),
        /** That Universal Auth's client secret, at most 512 characters: secret. */
        machineIdentityClientSecret: str.max(512, { error: "must be at most 512 characters" }),
      }),
      secretFields: ["machineIdentityClientSecret"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "machine-identity-universal-auth": {
      instanceUrl: "https://example.com",
      machineIdentityClientId: "00000000-0000-4000-8000-0000000000b1",
      machineIdentityClientSecret: "emulator-machine-identity-secret",
    },
  },
});
