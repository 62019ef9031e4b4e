import { z } from "zod";
import { environmentSlug, nonEmpty, secretPath, serviceBoolean } from "../common";
import {
  ProjectEnvironmentCreateSchema,
  ProjectEnvironmentEnvelope,
  ProjectEnvironmentSchema,
  ProjectEnvironmentUpdateSchema,
  ProjectCreateSchema,
  ProjectEnvelope,
  ProjectSchema,
} from "../projects";
import { folderName, SecretFolderEnvelope, SecretFolderListEnvelope } from "../secret-folders";
import { op } from "./operation";

/**
 * Routes of older versions the vendor's clients still call (docs/service-api.md §22), served from
 * the same store as the current ones. `/api/v1/folders` (routes/v1/secret-folder-router.ts) names
 * the project `workspaceId`.
 */

const v1Folders = "/api/v1/folders";

/**
 * The service's writes read `path || directory` with `path` defaulting to `/`, so there `directory`
 * (the CLI's old name) is accepted but never used.
 */
const folderPlace = {
  workspaceId: nonEmpty,
  environment: environmentSlug,
  path: secretPath.optional(),
  directory: secretPath.optional(),
};

/** POST and PATCH /api/v1/folders body. */
export const SecretFolderV1WriteSchema = z.object({
  ...folderPlace,
  name: folderName,
  description: z.string().nullish(),
});

/** DELETE /api/v1/folders/{folderIdOrName} body: no `forceDelete` field; the route always forces. */
export const SecretFolderV1DeleteSchema = z.object(folderPlace);

/**
 * GET /api/v1/folders query. Here `path` has no default, so the router's `path || directory || "/"`
 * reads `directory` when `path` is absent; `recursive` is the service's `booleanSchema`.
 */
export const SecretFolderV1ListQuery = z.object({ ...folderPlace, recursive: serviceBoolean });

export const secretFolderV1Operations = {
  list: op({ method: "GET", path: v1Folders, query: SecretFolderV1ListQuery, response: SecretFolderListEnvelope }),
  get: op({
    method: "GET",
    path: `${v1Folders}/:id`,
    params: z.object({ id: nonEmpty }),
    response: SecretFolderEnvelope,
  }),
  create: op({
    method: "POST",
    path: v1Folders,
    body: SecretFolderV1WriteSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
  update: op({
    method: "PATCH",
    path: `${v1Folders}/:folderId`,
    params: z.object({ folderId: nonEmpty }),
    body: SecretFolderV1WriteSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
  delete: op({
    method: "DELETE",
    path: `${v1Folders}/:folderIdOrName`,
    params: z.object({ folderIdOrName: nonEmpty }),
    body: SecretFolderV1DeleteSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
};

/**
 * `/api/v1/workspace/{workspaceId}/environments` (routes/v1/deprecated-project-env-router.ts): the
 * current routes' bodies, but unknown fields are dropped, not refused (the vendor's Node SDK sends
 * `projectId` in the body), and the writes answer the project as `workspace`.
 */
const v1Environments = "/api/v1/workspace/:workspaceId/environments";
const workspaceEnvParams = z.object({ workspaceId: nonEmpty, id: nonEmpty });

/** The answer of the v1 environment writes: `workspace` where v1/projects says `projectId`. */
export const ProjectEnvironmentV1Envelope = z.object({
  message: z.string(),
  workspace: z.string(),
  environment: ProjectEnvironmentSchema,
});

export const projectEnvironmentV1Operations = {
  get: op({
    method: "GET",
    path: `${v1Environments}/:envId`,
    params: z.object({ workspaceId: nonEmpty, envId: nonEmpty }),
    response: ProjectEnvironmentEnvelope,
  }),
  create: op({
    method: "POST",
    path: v1Environments,
    params: z.object({ workspaceId: nonEmpty }),
    body: z.object(ProjectEnvironmentCreateSchema.shape),
    response: ProjectEnvironmentV1Envelope,
  }),
  update: op({
    method: "PATCH",
    path: `${v1Environments}/:id`,
    params: workspaceEnvParams,
    body: z.object(ProjectEnvironmentUpdateSchema.shape),
    response: ProjectEnvironmentV1Envelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${v1Environments}/:id`,
    params: workspaceEnvParams,
    response: ProjectEnvironmentV1Envelope,
  }),
};

/** GET /api/v1/workspace/{workspaceId} answer: the project, with its environments, as `workspace`. */
export const WorkspaceV1Envelope = z.object({ workspace: ProjectSchema });

/** `/api/v1/workspace/{workspaceId}` (routes/v1/deprecated-project-router.ts): the same `getAProject`. */
export const workspaceV1Operations = {
  /**
   * POST /api/v2/workspace (routes/v2/deprecated-project-router.ts): the current create's fields,
   * unknown ones dropped (the Terraform provider sends `organizationSlug`).
   */
  create: op({
    method: "POST",
    path: "/api/v2/workspace",
    body: z.object(ProjectCreateSchema.shape),
    response: ProjectEnvelope,
  }),
  /** GET /api/v2/workspace/{slug}: the project itself, in no envelope, as the current slug read. */
  getBySlug: op({
    method: "GET",
    path: "/api/v2/workspace/:slug",
    params: z.object({ slug: nonEmpty }),
    response: ProjectSchema,
  }),
  get: op({
    method: "GET",
    path: "/api/v1/workspace/:workspaceId",
    params: z.object({ workspaceId: nonEmpty }),
    response: WorkspaceV1Envelope,
  }),
};
