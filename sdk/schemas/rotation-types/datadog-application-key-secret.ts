import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/datadog-application-key-secret/datadog-application-key-secret-rotation-schemas.ts`. */
export const datadogApplicationKeySecret = rotationRow({
  type: "datadog-application-key-secret",
  label: "Datadog Application Key Secret",
  family: "Monitoring platform application key",
  origin: { folder: "ee/services/secret-rotation-v2/datadog-application-key-secret/" },
  connectionApp: "datadog",
  parameters: strictObject({
    /** The id of the Datadog service account whose application keys are rotated. */
    serviceAccountId: str,
  }),
  secretsMapping: strictObject({
    /** The secret the active application key's id is written to. */
    applicationKeyId: secretName,
    /** The secret the active application key is written to. */
    applicationKey: secretName,
  }),
  generatedCredentials: z.object({ applicationKeyId: z.string(), applicationKey: z.string() }),
  secretFields: ["applicationKey"],
  example: { parameters: { serviceAccountId: "00000000-0000-4000-8000-0000000000b1" } },
});
