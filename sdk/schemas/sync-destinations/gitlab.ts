import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { destinationRow } from "./row";

const scopeFields = {
  project: ["projectId", "projectName"],
  group: ["groupId", "groupName"],
} as const;

/**
 * The service's `services/secret-sync/gitlab/gitlab-sync-schemas.ts` (scopes in
 * `gitlab-sync-enums.ts`). Its `destinationConfig` is a union on `scope`: `project` with
 * `projectId` and `projectName`, or `group` with `groupId` and `groupName`. Here one object whose
 * refinement asks for the scope's two fields and refuses the other scope's. The defaults are the
 * service's, which it stores.
 */
export const gitlab = destinationRow({
  destination: "gitlab",
  label: "GitLab",
  family: "DevOps platform",
  origin: "service-enum",
  connectionApp: "gitlab",
  destinationConfig: strictObject({
    /** Where the CI/CD variables go: a `project` or a `group`. */
    scope: z.enum(["project", "group"]),
    /** The GitLab project's id; with `scope: "project"` only, and required there. */
    projectId: nonEmpty.optional(),
    /** The GitLab project's name, for display; with `scope: "project"` only, and required there. */
    projectName: nonEmpty.optional(),
    /** The GitLab group's id; with `scope: "group"` only, and required there. */
    groupId: nonEmpty.optional(),
    /** The GitLab group's name, for display; with `scope: "group"` only, and required there. */
    groupName: nonEmpty.optional(),
    /** The GitLab environment scope of the variables; default `*` (every environment). */
    targetEnvironment: z.string().default("*"),
    /** Make the variables protected (only protected branches and tags see them); default false. */
    shouldProtectSecrets: z.boolean().default(false),
    /** Make the variables masked in job logs; default false. */
    shouldMaskSecrets: z.boolean().default(false),
    /** Make the variables hidden in the GitLab UI; default false. */
    shouldHideSecrets: z.boolean().default(false),
  }).superRefine((c, ctx) => {
    const other = c.scope === "project" ? "group" : "project";
    for (const f of scopeFields[c.scope]) {
      if (c[f] === undefined)
        ctx.addIssue({ code: "custom", path: [f], message: `is required with scope "${c.scope}"` });
    }
    for (const f of scopeFields[other]) {
      if (c[f] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [f],
          message: `must not be set with scope "${c.scope}"`,
          params: fieldOfAnotherBranch,
        });
      }
    }
  }),
  extraSyncOptions: {},
  canImport: false,
  // The service's skip fields and its own rule (services/secret-sync/secret-sync-maps.ts,
  // SECRET_SYNC_SKIP_FIELDS_MAP and DESTINATION_DUPLICATE_CHECK_MAP): the same project (or group),
  // and the same `targetEnvironment`, or either one every environment (absent, "" or "*").
  duplicateCheckIgnores: [
    "projectName",
    "shouldProtectSecrets",
    "shouldMaskSecrets",
    "shouldHideSecrets",
    "targetEnvironment",
    "groupName",
    "groupId",
    "projectId",
  ],
  sameDestination(existing, candidate) {
    const idKey = candidate.scope === "group" ? "groupId" : "projectId";
    if (existing[idKey] !== candidate[idKey]) return false;
    const every = (env: unknown) => typeof env !== "string" || env === "" || env === "*";
    const [a, b] = [existing.targetEnvironment, candidate.targetEnvironment];
    return every(a) || every(b) || a === b;
  },
  example: {
    destinationConfig: {
      scope: "project",
      projectId: "1001",
      projectName: "web",
      targetEnvironment: "*",
      shouldProtectSecrets: false,
      shouldMaskSecrets: false,
      shouldHideSecrets: false,
    },
  },
});
