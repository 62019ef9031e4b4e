import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/bitbucket/bitbucket-sync-schemas.ts`. */
export const bitbucket = destinationRow({
  destination: "bitbucket",
  label: "Bitbucket",
  family: "Source-hosting service",
  origin: "service-enum",
  connectionApp: "bitbucket",
  // bitbucket-sync-schemas.ts: the slugs are plain strings, without a length check.
  destinationConfig: strictObject({
    /** The repository's slug, whose pipeline variables the secrets become. */
    repositorySlug: z.string(),
    /** The id of a deployment environment of the repository; unset: repository variables. */
    environmentId: z.string().optional(),
    /** The slug of the Bitbucket workspace that holds the repository. */
    workspaceSlug: z.string(),
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { repositorySlug: "emulator-repo", workspaceSlug: "emulator-workspace" } },
});
