import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/circleci/circleci-sync-schemas.ts`. */
export const circleci = destinationRow({
  destination: "circleci",
  label: "CircleCI",
  family: "CI/CD platform",
  origin: "service-enum",
  connectionApp: "circleci",
  // circleci-sync-schemas.ts: on create only `projectId` is trimmed (an update trims all three).
  destinationConfig: strictObject({
    /** The CircleCI organization's name. */
    orgName: z.string().min(1, { error: "must not be empty" }),
    /** The CircleCI project's name. */
    projectName: z.string().min(1, { error: "must not be empty" }),
    /** The CircleCI project's id, whose environment variables the secrets become. */
    projectId: z.string().trim().min(1, { error: "must not be empty" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: {
      orgName: "emulator-org",
      projectName: "emulator-project",
      projectId: "00000000-0000-4000-8000-0000000000b1",
    },
  },
});
