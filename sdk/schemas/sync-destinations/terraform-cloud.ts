import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { destinationRow } from "./row";

const variableSetFields = ["variableSetName", "variableSetId"] as const;
const workspaceFields = ["workspaceName", "workspaceId"] as const;

/** The service's `services/secret-sync/terraform-cloud/terraform-cloud-sync-schemas.ts`. */
export const terraformCloud = destinationRow({
  destination: "terraform-cloud",
  label: "Terraform Cloud",
  family: "Infrastructure-as-code platform",
  origin: "service-enum",
  connectionApp: "terraform-cloud",
  // The service's union on `scope`: `variable-set` (variableSetName, variableSetId) or
  // `workspace` (workspaceName, workspaceId); each with org and category.
  destinationConfig: strictObject({
    /** Where the variables go: a `variable-set` or a `workspace`. */
    scope: z.enum(["variable-set", "workspace"]),
    /** The Terraform Cloud organization's name. */
    org: nonEmpty,
    /** The variable set's name, with scope `variable-set`: a label, not part of where the secrets land. */
    variableSetName: nonEmpty.optional(),
    /** The variable set's id, with scope `variable-set`. */
    variableSetId: nonEmpty.optional(),
    /** The workspace's name, with scope `workspace`: a label, not part of where the secrets land. */
    workspaceName: nonEmpty.optional(),
    /** The workspace's id, with scope `workspace`. */
    workspaceId: nonEmpty.optional(),
    /** The kind of variable written: `env` (environment variables) or `terraform` (Terraform variables). */
    category: z.enum(["env", "terraform"]),
  }).superRefine((c, ctx) => {
    const [needed, other] =
      c.scope === "variable-set" ? [variableSetFields, workspaceFields] : [workspaceFields, variableSetFields];
    for (const f of needed) {
      if (c[f] === undefined)
        ctx.addIssue({ code: "custom", path: [f], message: `is required with scope "${c.scope}"` });
    }
    for (const f of other) {
      if (c[f] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [f],
          message: `is not allowed with scope "${c.scope}"`,
          params: fieldOfAnotherBranch,
        });
      }
    }
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["variableSetName", "workspaceName"],
  example: {
    destinationConfig: {
      scope: "workspace",
      org: "example-org",
      workspaceName: "web-prod",
      workspaceId: "ws-exampleid0000001",
      category: "env",
    },
  },
});
