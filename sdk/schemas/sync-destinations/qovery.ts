import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/qovery/qovery-sync-schemas.ts`. */
export const qovery = destinationRow({
  destination: "qovery",
  label: "Qovery",
  family: "Deployment platform",
  origin: "service-enum",
  connectionApp: "qovery",
  // The scope follows from `environmentId`: unset, the sync writes project-level variables.
  destinationConfig: strictObject({
    /** The Qovery organization's id. */
    organizationId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The organization's name: a label, not part of where the secrets land. */
    organizationName: z.string().trim().optional(),
    /** The Qovery project's id. */
    projectId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The project's name: a label, not part of where the secrets land. */
    projectName: z.string().trim().optional(),
    /** The Qovery environment's id; unset: the sync writes at project level. */
    environmentId: z.string().trim().optional(),
    /** The environment's name: a label, not part of where the secrets land. */
    environmentName: z.string().trim().optional(),
    /** Whether secrets become Qovery `secret`s (the service's default) or plain `variable`s. */
    variableType: z.enum(["secret", "variable"]).default("secret"),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["organizationName", "projectName", "environmentName"],
  example: {
    destinationConfig: {
      organizationId: "emulator-org-1",
      organizationName: "emulator",
      projectId: "emulator-project-1",
      projectName: "web",
      environmentId: "emulator-env-1",
      environmentName: "production",
      variableType: "secret",
    },
  },
});
