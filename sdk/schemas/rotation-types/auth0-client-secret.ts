import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/auth0-client-secret/auth0-client-secret-rotation-schemas.ts`. */
export const auth0ClientSecret = rotationRow({
  type: "auth0-client-secret",
  label: "Auth0 Client Secret",
  family: "Identity platform client secret",
  origin: "service-enum",
  connectionApp: "auth0",
  parameters: strictObject({
    /** The client id of the Auth0 application whose secret is rotated. */
    clientId: str,
  }),
  secretsMapping: strictObject({
    /** The secret the client id is written to. */
    clientId: secretName,
    /** The secret the client secret is written to. */
    clientSecret: secretName,
  }),
  generatedCredentials: z.object({ clientId: z.string(), clientSecret: z.string() }),
  secretFields: ["clientSecret"],
  example: { parameters: { clientId: "emulator-auth0-app" } },
});
