import { z } from "zod";
import { dateTime, slug, strictObject, uuid } from "./common";

/**
 * Projects and their environments (docs/service-api.md §10), at `/api/v1/projects`
 * (routes/v1/project-router.ts, routes/v1/project-env-router.ts; services/project/project-service.ts,
 * services/project-env/project-env-service.ts).
 */

/**
 * The service's project types (`ProjectType`, db/schemas/models.ts): what a project manages; the
 * connection options route lists only the kinds a project of a type can use.
 */
export const projectTypes = ["secret-manager", "cert-manager", "kms", "ssh", "secret-scanning", "pam"] as const;
export type ProjectType = (typeof projectTypes)[number];

/** The service's default environments of a new project (`DEFAULT_PROJECT_ENVS`, project-service.ts). */
export const defaultProjectEnvironments = [
  { name: "Development", slug: "dev" },
  { name: "Staging", slug: "staging" },
  { name: "Production", slug: "prod" },
] as const;

const projectName = z.string().trim().max(64, { error: "Name must be 64 or fewer characters" });
const projectDescription = z.string().trim().max(1024, { error: "Description must be 1024 or fewer characters" });

/** A project slug on create: `slugSchema({ min: 5, max: 36 })`. */
const projectSlug = slug("Slug", 36).min(5, { error: "must be at least 5 characters" });

/** POST /api/v1/projects body. */
export const ProjectCreateSchema = strictObject({
  /** The project's name, at most 64 characters (names need not be unique). Changing it updates in place. */
  projectName,
  /** At most 1024 characters. Changing it updates in place. */
  projectDescription: projectDescription.optional(),
  /**
   * 5 to 36 lowercase letters, digits and single hyphens, unique in the organization. Without
   * one the service makes one from the name (`<name>-<4 characters>`). Changing it updates in place.
   */
  slug: projectSlug.optional(),
  /**
   * The KMS key (id) the project encrypts its secrets with; default the organization's. Only at
   * creation: the service never reports it nor changes it after.
   */
  kmsKeyId: z.string().min(1, { error: "must not be empty" }).optional(),
  /**
   * The project template the project starts from (its environments and roles), by name; default
   * the service's own, whose environments are `dev`, `staging` and `prod`. Only at creation.
   */
  template: slug("Template Name", 64).optional(),
  /** What the project manages: `secret-manager` (default), `cert-manager`, `kms`, `ssh`, …. Changing it replaces the project. */
  type: z.enum(projectTypes).default("secret-manager"),
  /**
   * Create the template's environments with the project (default true): false starts the project
   * with none. Only at creation.
   */
  shouldCreateDefaultEnvs: z.boolean().optional(),
  /** Refuse to delete the project while true (the service answers 403). Default false. Changing it updates in place. */
  hasDeleteProtection: z.boolean().default(false),
});
export type ProjectCreate = z.input<typeof ProjectCreateSchema>;

/** PATCH /api/v1/projects/{projectId} body: every field optional; `type` and `kmsKeyId` cannot change. */
export const ProjectUpdateSchema = strictObject({
  name: projectName.optional(),
  description: projectDescription.optional(),
  // The PATCH's slug rule is the project-slug regex of the newest router (`_` allowed, at most 64).
  slug: z
    .string()
    .trim()
    .max(64, { error: "Slug must be 64 characters or fewer" })
    .regex(/^[a-z0-9]+(?:[_-][a-z0-9]+)*$/, {
      error:
        "Project slug can only contain lowercase letters and numbers, with optional single hyphens (-) or underscores (_) between words. Cannot start or end with a hyphen or underscore.",
    })
    .optional(),
  autoCapitalization: z.boolean().optional(),
  hasDeleteProtection: z.boolean().optional(),
});
export type ProjectUpdate = z.input<typeof ProjectUpdateSchema>;

/** An environment as a project lists it. */
export const ProjectEnvironmentRefSchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });

/** A project as returned. Read leniently: fields older servers lack are optional. */
export const ProjectSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullish(),
  orgId: z.string().optional(),
  type: z.string().optional(),
  hasDeleteProtection: z.boolean().nullish(),
  autoCapitalization: z.boolean().nullish(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
  environments: z.array(ProjectEnvironmentRefSchema).optional(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectEnvelope = z.object({ project: ProjectSchema });
export const ProjectListEnvelope = z.object({ projects: z.array(ProjectSchema) });
export const ProjectListQuery = z.object({ type: z.enum(projectTypes).optional() });

// Environments.

const environmentFields = {
  /** The environment's display name, e.g. `Production`. Changing it updates in place. */
  name: z.string().trim().min(1, { error: "must not be empty" }).max(255, { error: "must be at most 255 characters" }),
  /** Its slug, unique in the project, as syncs, rotations and secrets name it. Changing it updates in place. */
  slug: slug("Slug", 64),
  /** Its place in the project's list, from 1; without one it goes last. Changing it updates in place. */
  position: z.number().int({ error: "must be a whole number" }).min(1, { error: "must be at least 1" }).optional(),
};

/** POST /api/v1/projects/{projectId}/environments body. */
export const ProjectEnvironmentCreateSchema = strictObject(environmentFields);
export type ProjectEnvironmentCreate = z.input<typeof ProjectEnvironmentCreateSchema>;

/** PATCH /api/v1/projects/{projectId}/environments/{id} body. */
export const ProjectEnvironmentUpdateSchema = strictObject({
  name: environmentFields.name.optional(),
  slug: environmentFields.slug.optional(),
  position: environmentFields.position,
});
export type ProjectEnvironmentUpdate = z.input<typeof ProjectEnvironmentUpdateSchema>;

/** An environment as returned. */
export const ProjectEnvironmentSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  slug: z.string(),
  position: z.number().optional(),
  projectId: z.string(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type ProjectEnvironment = z.infer<typeof ProjectEnvironmentSchema>;

/** Create, PATCH and DELETE answer with a message and the project's id beside the environment. */
export const ProjectEnvironmentEnvelope = z.object({
  environment: ProjectEnvironmentSchema,
  projectId: z.string().optional(),
  message: z.string().optional(),
});

/** The params of the environment routes. */
export const ProjectEnvironmentParams = z.object({ projectId: uuid, id: uuid });
