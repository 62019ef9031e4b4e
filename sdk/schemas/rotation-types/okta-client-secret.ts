import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/okta-client-secret/okta-client-secret-rotation-schemas.ts`. */
export const oktaClientSecret = rotationRow({
  type: "okta-client-secret",
  label: "Okta Client Secret",
  family: "Identity platform client secret",
  origin: "service-enum",
  connectionApp: "okta",
  parameters: strictObject({
    /** The client id of the Okta application whose secret is rotated. */
    clientId: str,
  }),
  secretsMapping: strictObject({
    /** The secret the client id is written to. */
    clientId: secretName,
    /** The secret the client secret is written to. */
    clientSecret: secretName,
  }),
  generatedCredentials: z.object({ clientId: z.string(), clientSecret: z.string(), secretId: z.string() }),
  secretFields: ["clientSecret"],
  example: { parameters: { clientId: "0oaemulatorclient" } },
});
