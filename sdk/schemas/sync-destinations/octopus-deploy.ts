import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/octopus-deploy/octopus-deploy-sync-schemas.ts`. */
export const octopusDeploy = destinationRow({
  destination: "octopus-deploy",
  label: "Octopus Deploy",
  family: "Deployment tool",
  origin: "service-enum",
  connectionApp: "octopus-deploy",
  // The service intersects a base (`spaceId`, `scope` defaulting to "project") with a union on
  // `scope` whose only variant is "project": the union needs `scope` in the input, so it is
  // required in effect, and `projectId` with it.
  destinationConfig: strictObject({
    /** The Octopus Deploy space's id. */
    spaceId: z.string().min(1, { error: "must not be empty" }),
    /** The space's name, for display (a field of the service's newer schema, commit 7b3d001d). */
    spaceName: z.string().optional(),
    /** Where the variables are written: only `project`, a project's variables. */
    scope: z.enum(["project"]),
    /** The Octopus Deploy project's id. */
    projectId: z.string().min(1, { error: "must not be empty" }),
    /** The project's name, for display (a field of the service's newer schema, commit 7b3d001d). */
    projectName: z.string().optional(),
    /** Octopus scope values the variables get; each list is optional. */
    scopeValues: strictObject({
      /** Environment ids. */
      environments: z.array(z.string()).optional(),
      /** Target roles. */
      roles: z.array(z.string()).optional(),
      /** Deployment target (machine) ids. */
      machines: z.array(z.string()).optional(),
      /** Process ids. */
      processes: z.array(z.string()).optional(),
      /** Deployment step (action) ids. */
      actions: z.array(z.string()).optional(),
      /** Channel ids. */
      channels: z.array(z.string()).optional(),
    }).optional(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: {
      spaceId: "Spaces-1",
      scope: "project",
      projectId: "Projects-1",
      scopeValues: { environments: ["Environments-1"] },
    },
  },
});
