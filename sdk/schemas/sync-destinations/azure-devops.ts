import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/azure-devops/azure-devops-sync-schemas.ts`. */
export const azureDevops = destinationRow({
  destination: "azure-devops",
  label: "Azure DevOps",
  family: "CI/CD platform",
  origin: "service-enum",
  connectionApp: "azure-devops",
  destinationConfig: strictObject({
    /** The Azure DevOps project's id: its variable group receives the secrets. */
    devopsProjectId: nonEmpty,
    /** The Azure DevOps project's name: a label, not part of where the secrets land. */
    devopsProjectName: z.string().optional(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["devopsProjectName"],
  example: { destinationConfig: { devopsProjectId: "emulator-devops-project", devopsProjectName: "web" } },
});
