import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/hasura-cloud/hasura-cloud-sync-schemas.ts`. */
export const hasuraCloud = destinationRow({
  destination: "hasura-cloud",
  label: "Hasura Cloud",
  family: "GraphQL platform",
  origin: { folder: "services/secret-sync/hasura-cloud/" },
  connectionApp: "hasura-cloud",
  destinationConfig: strictObject({
    /** The Hasura Cloud project's id. */
    projectId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The project's name (required, may be empty): a label, not part of where the secrets land. */
    projectName: z.string().trim(),
    /** The project's tenant id. */
    tenantId: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["projectName"],
  example: {
    destinationConfig: {
      projectId: "00000000-0000-4000-8000-0000000000d1",
      projectName: "emulator-project",
      tenantId: "00000000-0000-4000-8000-0000000000d2",
    },
  },
});
