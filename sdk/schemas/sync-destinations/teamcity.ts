import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/teamcity/teamcity-sync-schemas.ts`. */
export const teamcity = destinationRow({
  destination: "teamcity",
  label: "TeamCity",
  family: "CI/CD platform",
  origin: "service-enum",
  connectionApp: "teamcity",
  destinationConfig: strictObject({
    /** The TeamCity project's id. */
    project: z.string().trim().min(1, { error: "must not be empty" }),
    /** The build configuration's id; unset to write the project's parameters. */
    buildConfig: z.string().trim().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { project: "Example_Project", buildConfig: "Example_Project_Build" } },
});
