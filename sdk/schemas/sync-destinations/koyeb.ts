import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/koyeb/koyeb-sync-schemas.ts`. Koyeb secrets belong to the
 * whole organization of the connection's API key, so the destination has no fields.
 */
export const koyeb = destinationRow({
  destination: "koyeb",
  label: "Koyeb",
  family: "Application platform",
  origin: { folder: "services/secret-sync/koyeb/" },
  connectionApp: "koyeb",
  destinationConfig: strictObject({}),
  extraSyncOptions: {},
  // Koyeb masks secret values in its API responses, so the service cannot import from it.
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: {} },
});
