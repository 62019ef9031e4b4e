import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/salesforce-oauth-credentials/salesforce-oauth-credentials-rotation-schemas.ts`. */
export const salesforceOauthCredentials = rotationRow({
  type: "salesforce-oauth-credentials",
  label: "Salesforce OAuth Credentials",
  family: "CRM platform OAuth client credentials",
  origin: { folder: "ee/services/secret-rotation-v2/salesforce-oauth-credentials/" },
  connectionApp: "salesforce",
  parameters: strictObject({
    /** The identifier of the external client app whose consumer key and secret are rotated. */
    appId: str,
    /** That app's name. */
    appName: str,
  }),
  secretsMapping: strictObject({
    /** The secret the active consumer key is written to. */
    consumerKey: secretName,
    /** The secret the active consumer secret is written to. */
    consumerSecret: secretName,
  }),
  generatedCredentials: z.object({
    consumerKey: z.string(),
    consumerSecret: z.string(),
    stagedCredentialUrl: z.string(),
  }),
  secretFields: ["consumerKey", "consumerSecret"],
  example: { parameters: { appId: "0xIemulator000001", appName: "emulator-app" } },
});
