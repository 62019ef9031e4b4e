import { z } from "zod";
import { dateTime, nonEmpty, slug, strictObject } from "./common";

/**
 * A project's custom roles (docs/service-api.md §19; the service's
 * `ee/routes/v1/project-role-router.ts`, at `/api/v1/projects/:projectId/roles`). Permissions are
 * the service's v2 shape (`ProjectPermissionV2Schema`): one rule per subject, its actions, optional
 * conditions, and `inverted` for a rule that forbids.
 */

/**
 * The service's `ProjectMembershipRole` values (`db/schemas/models.ts`): the slugs its create and
 * PATCH refuse for a custom role (`custom` marks a custom role in a membership; the others are built in).
 */
export const reservedProjectRoleSlugs = [
  "admin",
  "member",
  "custom",
  "viewer",
  "no-access",
  "ssh-host-bootstrapper",
  "cryptographic-operator",
] as const;

/** The built-in roles every project has (`admin`, `member`, `viewer`, `no-access`). */
export const builtInProjectRoles = ["admin", "member", "viewer", "no-access"] as const;

/** The service's words for a reserved slug. */
export const RESERVED_SLUG_MESSAGE = "Please choose a different slug, the slug you have entered is reserved";

const roleSlug = slug("slug", 64).refine((v) => !(reservedProjectRoleSlugs as readonly string[]).includes(v), {
  error: `${RESERVED_SLUG_MESSAGE} (a built-in role's slug: ${reservedProjectRoleSlugs.join(", ")})`,
});

/** One v2 permission rule, as the program sends it. */
export const ProjectPermissionSchema = strictObject({
  /** What the rule is about: `secrets`, `secret-folders`, `environments`, `identity`, `role`, ... (the service's `ProjectPermissionSub`). */
  subject: nonEmpty,
  /** The actions the rule grants (or forbids, if inverted): `read`, `create`, `edit`, `delete`, ... At least one. */
  action: z.array(nonEmpty).min(1, { error: "must have at least 1 action" }),
  /** Conditions on the subject's fields, e.g. `{ environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } }`. */
  conditions: z.record(z.string(), z.unknown()).optional(),
  /** True for a rule that forbids what it names. Default false. */
  inverted: z.boolean().optional(),
});
export type ProjectPermission = z.input<typeof ProjectPermissionSchema>;

/** POST /api/v1/projects/{projectId}/roles body. */
export const ProjectRoleCreateSchema = strictObject({
  /** The role's slug, unique in the project: lowercase letters, digits and single hyphens, at most 64; not a built-in role's. */
  slug: roleSlug,
  /** Its display name, not empty. */
  name: z.string().trim().min(1, { error: "must not be empty" }),
  /** What the role is for. */
  description: z.string().trim().nullish(),
  /** Its rules, in the service's v2 shape. */
  permissions: z.array(ProjectPermissionSchema),
});
export type ProjectRoleCreate = z.input<typeof ProjectRoleCreateSchema>;

/** PATCH /api/v1/projects/{projectId}/roles/{roleId} body: any of the create fields. */
export const ProjectRoleUpdateSchema = strictObject({
  slug: roleSlug.optional(),
  name: z.string().trim().optional(),
  description: z.string().trim().nullish(),
  permissions: z.array(ProjectPermissionSchema).optional(),
});
export type ProjectRoleUpdate = z.input<typeof ProjectRoleUpdateSchema>;

/** A permission rule as the service answers it (read leniently). */
export const ProjectPermissionRecordSchema = z.looseObject({
  subject: z.union([z.string(), z.array(z.string())]),
  action: z.union([z.string(), z.array(z.string())]),
  conditions: z.record(z.string(), z.unknown()).nullish(),
  inverted: z.boolean().optional(),
});

/** A role as the service answers it (`SanitizedRoleSchema`); the list answer has no permissions. */
export const ProjectRoleRecordSchema = z.object({
  id: z.string().min(1),
  projectId: z.string().nullish(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  permissions: z.array(ProjectPermissionRecordSchema).optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
});
export type ProjectRoleRecord = z.output<typeof ProjectRoleRecordSchema>;

export const ProjectRoleEnvelope = z.object({ role: ProjectRoleRecordSchema });
export const ProjectRoleListEnvelope = z.object({ roles: z.array(ProjectRoleRecordSchema) });
export const ProjectRolesParams = z.object({ projectId: z.string().min(1) });
export const ProjectRoleParams = z.object({ projectId: z.string().min(1), roleId: z.string().min(1) });
export const ProjectRoleSlugParams = z.object({ projectId: z.string().min(1), roleSlug: z.string().min(1) });
