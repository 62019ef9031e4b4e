import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const id = z.string().trim().min(1, { error: "must not be empty" });

/** The service's `services/secret-sync/railway/railway-sync-schemas.ts`. */
export const railway = destinationRow({
  destination: "railway",
  label: "Railway",
  family: "Application platform",
  origin: "service-enum",
  connectionApp: "railway",
  destinationConfig: strictObject({
    /** The Railway project's id. */
    projectId: id,
    /** The Railway project's name: a label, not part of where the secrets land. */
    projectName: z.string().trim(),
    /** The Railway environment's id. */
    environmentId: id,
    /** The Railway environment's name: a label, not part of where the secrets land. */
    environmentName: z.string().trim(),
    /** The Railway service's id, to write to one service's variables; unset for the environment's shared variables. */
    serviceId: z.string().optional(),
    /** The Railway service's name: a label, not part of where the secrets land. */
    serviceName: z.string().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["projectName", "environmentName", "serviceName"],
  example: {
    destinationConfig: {
      projectId: "00000000-0000-4000-8000-0000000000d2",
      projectName: "web",
      environmentId: "00000000-0000-4000-8000-0000000000d3",
      environmentName: "production",
    },
  },
});
