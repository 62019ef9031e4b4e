import { z } from "zod";
import { dateTime, environmentSlug, nonEmpty, secretPath, serviceBoolean, strictObject } from "./common";

/**
 * Secret folders (docs/service-api.md §11), at `/api/v2/folders` (routes/v2/secret-folder-router.ts,
 * services/secret-folder/secret-folder-service.ts). A folder is named in its parent's path; the
 * service makes the parent folders a create's path lacks.
 */

/** `isValidFolderName` (lib/validator/validate-folder-name.ts): letters, digits, dashes and underscores. */
export const folderName = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .regex(/^[a-zA-Z0-9-_]+$/, {
    error: "Invalid folder name. Only alphanumeric characters, dashes, and underscores are allowed.",
  });

const folderFields = {
  /** The project. Changing it replaces the folder. */
  projectId: nonEmpty,
  /** The environment's slug. Changing it replaces the folder. */
  environment: environmentSlug,
  /** The folder's name in its parent: letters, digits, dashes and underscores, unique there. Changing it renames the folder in place. */
  name: folderName,
  /**
   * The parent folder's path, default `/`; the service makes the folders it lacks. Changing it
   * replaces the folder (the service cannot move one).
   */
  path: secretPath.default("/"),
  /** Changing it updates in place. */
  description: z.string().nullish(),
};

/** POST /api/v2/folders body. */
export const SecretFolderCreateSchema = strictObject(folderFields);
export type SecretFolderCreate = z.input<typeof SecretFolderCreateSchema>;

/** PATCH /api/v2/folders/{folderId} body: the folder's place (to find it) and its new name and description. */
export const SecretFolderUpdateSchema = strictObject(folderFields);
export type SecretFolderUpdate = z.input<typeof SecretFolderUpdateSchema>;

/** DELETE /api/v2/folders/{folderIdOrName} body. */
export const SecretFolderDeleteSchema = strictObject({
  projectId: nonEmpty,
  environment: environmentSlug,
  path: secretPath.default("/"),
  /** Delete a folder that still holds secrets or folders (the service refuses otherwise). */
  forceDelete: z.boolean().optional(),
});
export type SecretFolderDelete = z.input<typeof SecretFolderDeleteSchema>;

/** GET /api/v2/folders query: the folders of one path (with `recursive`, every folder below it). */
export const SecretFolderListQuery = z.object({
  projectId: nonEmpty,
  environment: environmentSlug,
  path: secretPath.default("/"),
  recursive: serviceBoolean,
});

/** A folder as returned: `path` is the folder's own full path (`/app/db` for `db` in `/app`). */
export const SecretFolderSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  path: z.string().optional(),
  parentId: z.string().nullish(),
  envId: z.string().optional(),
  description: z.string().nullish(),
  version: z.number().nullish(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
  /** The read by id joins these. */
  projectId: z.string().optional(),
  environment: z.object({ envId: z.string(), envName: z.string(), envSlug: z.string() }).optional(),
  /** A recursive list gives each folder's path relative to the listed one. */
  relativePath: z.string().optional(),
});
export type SecretFolder = z.infer<typeof SecretFolderSchema>;

export const SecretFolderEnvelope = z.object({ folder: SecretFolderSchema });
export const SecretFolderListEnvelope = z.object({ folders: z.array(SecretFolderSchema) });
