import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow } from "./row";

/** The dbt Cloud permission sets a service token can be granted. */
const DBT_PERMISSION_SETS = [
  "account_admin",
  "account_viewer",
  "admin",
  "analyst",
  "billing_admin",
  "cost_insights_admin",
  "cost_insights_viewer",
  "cost_management_admin",
  "cost_management_viewer",
  "database_admin",
  "developer",
  "fusion_admin",
  "git_admin",
  "job_admin",
  "job_runner",
  "job_viewer",
  "manage_marketplace_apps",
  "member",
  "metadata_only",
  "owner",
  "project_creator",
  "readonly",
  "scim_only",
  "security_admin",
  "semantic_layer_only",
  "stakeholder",
  "team_admin",
  "webhooks_only",
] as const;

/** The service's `ee/services/secret-rotation-v2/dbt-service-token/dbt-service-token-rotation-schemas.ts`. */
export const dbtServiceToken = rotationRow({
  type: "dbt-service-token",
  label: "DBT Service Token",
  family: "Data platform service token",
  origin: { folder: "ee/services/secret-rotation-v2/dbt-service-token/" },
  connectionApp: "dbt",
  parameters: strictObject({
    /** The permissions each issued service token gets: at least one grant. */
    permissionGrants: z
      .array(
        strictObject({
          /** The dbt Cloud permission set granted, e.g. `job_runner`. */
          permissionSet: z.enum(DBT_PERMISSION_SETS),
          /** The dbt Cloud project (numeric id) the grant is limited to; unset for the whole account. */
          projectId: z.number().optional(),
        }),
      )
      .min(1, { error: "must have at least 1 grant" }),
  }),
  secretsMapping: strictObject({
    /** The secret the active service token is written to. */
    serviceToken: secretName,
  }),
  // The service returns `tokenId` as a number; the emulator makes up strings for every field.
  generatedCredentials: z.object({
    serviceToken: z.string(),
    tokenId: z.union([z.number(), z.string()]),
    tokenName: z.string(),
  }),
  secretFields: ["serviceToken"],
  example: { parameters: { permissionGrants: [{ permissionSet: "job_runner", projectId: 1 }] } },
});
