import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/azure-client-secret/azure-client-secret-rotation-schemas.ts`. */
export const azureClientSecret = rotationRow({
  type: "azure-client-secret",
  label: "Azure Client Secret",
  family: "Cloud app registration client secret",
  origin: "service-enum",
  connectionApp: "azure-client-secrets",
  parameters: strictObject({
    /** The app registration's object id. */
    objectId: str,
    /** The app registration's application (client) id. */
    clientId: str,
    /** The app registration's name, for display. */
    appName: z.string().optional(),
  }),
  secretsMapping: strictObject({
    /** The secret the client id is written to. */
    clientId: secretName,
    /** The secret the client secret is written to. */
    clientSecret: secretName,
  }),
  generatedCredentials: z.object({ clientId: z.string(), clientSecret: z.string(), keyId: z.string() }),
  secretFields: ["clientSecret"],
  example: { parameters: { objectId: "obj-1", clientId: "client-1", appName: "my-app" } },
});
