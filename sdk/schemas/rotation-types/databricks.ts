import { z } from "zod";
import { type KindOrigin, secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/**
 * The two Databricks types share their parameters, mapping and credentials, as the service's
 * `ee/services/secret-rotation-v2/databricks-service-principal-secret/databricks-service-principal-secret-rotation-schemas.ts`
 * and `ee/services/secret-rotation-v2/databricks-service-account-secret/databricks-service-account-secret-rotation-schemas.ts` do.
 */
const databricksType = <const T extends string>(type: T, label: string, origin: KindOrigin) =>
  rotationRow({
    type,
    label,
    family: "Data platform service principal secret",
    origin,
    connectionApp: "databricks",
    parameters: strictObject({
      /** The id of the service principal whose OAuth secrets are rotated. */
      servicePrincipalId: str,
      /** The service principal's name, for display. */
      servicePrincipalName: z.string().trim().optional(),
      /** The service principal's OAuth client (application) id. */
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
    example: {
      parameters: {
        servicePrincipalId: "1234567890",
        servicePrincipalName: "emulator-ci",
        clientId: "00000000-0000-4000-8000-0000000000b1",
      },
    },
  });

export const databricksServicePrincipalSecret = databricksType(
  "databricks-service-principal-secret",
  "Databricks Service Principal Secret",
  "service-enum",
);
export const databricksServiceAccountSecret = databricksType(
  "databricks-service-account-secret",
  "Databricks Service Account Secret",
  { folder: "ee/services/secret-rotation-v2/databricks-service-account-secret/" },
);
