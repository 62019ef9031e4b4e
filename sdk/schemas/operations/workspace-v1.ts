import { z } from "zod";
import { environmentSlug, nonEmpty, secretPath } from "../common";
import { folderName, SecretFolderEnvelope, SecretFolderListEnvelope } from "../secret-folders";
import { op } from "./operation";

/**
 * Routes of older versions the vendor's clients still call (docs/service-api.md §22), served from
 * the same store as the current ones. `/api/v1/folders` (routes/v1/secret-folder-router.ts) names
 * the project `workspaceId`.
 */

const v1Folders = "/api/v1/folders";

/**
 * The service reads `path || directory` with `path` defaulting to `/`, so `directory` (the CLI's
 * old name) is accepted but never used.
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

/** DELETE /api/v1/folders/{folderIdOrName} body: no `forceDelete` on this version. */
export const SecretFolderV1DeleteSchema = z.object(folderPlace);

/** GET /api/v1/folders query. */
export const SecretFolderV1ListQuery = z.object(folderPlace);

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
