import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const nonEmpty = z.string().min(1, { error: "must not be empty" });

/**
 * The service's `services/secret-sync/gitea/gitea-sync-schemas.ts`, in its version with the
 * destination (commit c592d3d4; scopes in `gitea-sync-enums.ts`). Its `destinationConfig` is a
 * union on `scope`: `organization` with `org`, or `repository` with `owner` and `repo`. Here one
 * object whose refinement asks for the scope's fields and refuses the other scope's. The service
 * does not trim these strings.
 */
export const gitea = destinationRow({
  destination: "gitea",
  label: "Gitea",
  family: "Source-hosting service",
  origin: { folder: "services/secret-sync/gitea/" },
  connectionApp: "gitea",
  destinationConfig: strictObject({
    /** Where the secrets go: `organization` (its Actions secrets) or `repository`. */
    scope: z.enum(["organization", "repository"]),
    /** The organization; with `scope: "organization"` only, and required there. */
    org: strictObject({
      /** The organization's name. */
      name: nonEmpty,
      /** The organization's full name. */
      fullName: nonEmpty,
    }).optional(),
    /** The repository's owner; with `scope: "repository"` only, and required there. */
    owner: nonEmpty.optional(),
    /** The repository's name; with `scope: "repository"` only, and required there. */
    repo: nonEmpty.optional(),
  }).superRefine((c, ctx) => {
    const own = c.scope === "organization" ? (["org"] as const) : (["owner", "repo"] as const);
    const other = c.scope === "organization" ? (["owner", "repo"] as const) : (["org"] as const);
    for (const f of own)
      if (c[f] === undefined)
        ctx.addIssue({ code: "custom", path: [f], message: `is required with scope "${c.scope}"` });
    for (const f of other)
      if (c[f] !== undefined)
        ctx.addIssue({ code: "custom", path: [f], message: `must not be set with scope "${c.scope}"` });
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "repository", owner: "emulator", repo: "web" } },
});
