import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** A Portainer id: a whole number above 0 (a JSON number). */
const portainerId = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .positive({ error: "must be above 0" });

/** The service's `services/secret-sync/portainer/portainer-sync-schemas.ts`. */
export const portainer = destinationRow({
  destination: "portainer",
  label: "Portainer",
  family: "Container management platform",
  origin: { folder: "services/secret-sync/portainer/" },
  connectionApp: "portainer",
  destinationConfig: strictObject({
    /** The Portainer environment's id. */
    environmentId: portainerId,
    /** The id of the stack whose environment variables the secrets become. */
    stackId: portainerId,
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { environmentId: 1, stackId: 7 } },
});
