import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/travis-ci/travis-ci-sync-schemas.ts`. */
export const travisCi = destinationRow({
  destination: "travis-ci",
  label: "Travis CI",
  family: "CI/CD platform",
  origin: "service-enum",
  connectionApp: "travis-ci",
  destinationConfig: strictObject({
    /** The Travis CI repository's id. */
    repositoryId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The repository's slug, `<owner>/<name>`. */
    repositorySlug: z.string().trim().min(1, { error: "must not be empty" }),
    /** The branch the environment variables apply to; unset: every branch. */
    branch: z.string().trim().min(1, { error: "must not be empty" }).optional(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { repositoryId: "123456", repositorySlug: "emulator/web", branch: "main" } },
});
