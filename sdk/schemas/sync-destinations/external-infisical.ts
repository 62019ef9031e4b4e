import { strictObject, trimmedNonEmpty } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/external-infisical/external-infisical-sync-schemas.ts`. */
export const externalInfisical = destinationRow({
  destination: "external-infisical",
  label: "Infisical",
  family: "Secrets manager",
  origin: "service-enum",
  connectionApp: "external-infisical",
  // The service's `supportsKeySchema: false`: it ignores or refuses `keySchema` here, which the
  // common sync options cannot express; the SDK passes it on and leaves the verdict to the service.
  destinationConfig: strictObject({
    /** The id of the project on the other Infisical instance the secrets are written to. */
    projectId: trimmedNonEmpty,
    /** The slug of that project's environment. */
    environment: trimmedNonEmpty,
    /** The folder path in that environment; default `/` (the service's default). */
    secretPath: trimmedNonEmpty.default("/"),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: { projectId: "00000000-0000-4000-8000-0000000000b1", environment: "prod", secretPath: "/" },
  },
});
