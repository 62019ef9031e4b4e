import { z } from "zod";
import { strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { destinationRow } from "./row";

/** Which fields each `scope` takes: the variants of the service's union on `scope`. */
const SCOPE_FIELDS = {
  organization: ["org", "visibility", "selectedRepositoryIds"],
  repository: ["owner", "repo"],
  "repository-environment": ["owner", "repo", "env"],
} as const;
const REQUIRED = {
  organization: ["org", "visibility"],
  repository: ["owner", "repo"],
  "repository-environment": ["owner", "repo", "env"],
} as const;
const ALL_FIELDS = ["org", "visibility", "selectedRepositoryIds", "owner", "repo", "env"] as const;

/**
 * The service's `services/secret-sync/github/github-sync-schemas.ts`. Its `destinationConfig` is a
 * union on `scope`, modelled as one object with every variant's fields and the rule below.
 */
export const github = destinationRow({
  destination: "github",
  label: "GitHub",
  family: "CI/CD platform",
  origin: "service-enum",
  connectionApp: "github",
  destinationConfig: strictObject({
    /** Where the secrets go: `organization` secrets, `repository` secrets, or a repository environment's (`repository-environment`). */
    scope: z.enum(["organization", "repository", "repository-environment"]),
    /** With `organization`: the organization's name. */
    org: z.string().min(1, { error: "must not be empty" }).optional(),
    /** With `organization`: which repositories may use the secrets: `all`, `private` or `selected`. */
    visibility: z.enum(["all", "private", "selected"]).optional(),
    /** With `organization` and `visibility: "selected"` (and only then): the ids of the repositories, at least one. */
    selectedRepositoryIds: z.array(z.number()).optional(),
    /** With `repository` or `repository-environment`: the repository owner's name. */
    owner: z.string().min(1, { error: "must not be empty" }).optional(),
    /** With `repository` or `repository-environment`: the repository's name. */
    repo: z.string().min(1, { error: "must not be empty" }).optional(),
    /** With `repository-environment`: the environment's name. */
    env: z.string().min(1, { error: "must not be empty" }).optional(),
  }).superRefine((c, ctx) => {
    const allowed: readonly string[] = SCOPE_FIELDS[c.scope];
    for (const f of ALL_FIELDS) {
      if (c[f] === undefined) {
        if ((REQUIRED[c.scope] as readonly string[]).includes(f))
          ctx.addIssue({ code: "custom", message: `is required with scope "${c.scope}"`, path: [f] });
      } else if (!allowed.includes(f)) {
        ctx.addIssue({
          code: "custom",
          message: `is not a field of scope "${c.scope}"`,
          path: [f],
          params: fieldOfAnotherBranch,
        });
      }
    }
    if (c.scope !== "organization") return;
    if (c.visibility === "selected") {
      if (!c.selectedRepositoryIds?.length)
        ctx.addIssue({ code: "custom", message: "Select at least 1 repository", path: ["selectedRepositoryIds"] });
    } else if (c.selectedRepositoryIds?.length) {
      ctx.addIssue({
        code: "custom",
        message: 'Selected repositories is only supported for visibility "Selected"',
        path: ["selectedRepositoryIds"],
      });
    }
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "repository", owner: "emulator-org", repo: "web" } },
});
