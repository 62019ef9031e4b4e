import { z } from "zod";
import { type SecretFolder as ServiceFolder, SecretFolderCreateSchema, SecretFolderUpdateSchema } from "../sdk/schemas";
import type { SecretFolderCreate, SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import { defineResource, commonOptions } from "./definition";
import { isNotFound, orUndefinedOn404 } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type ArgsOf } from "./inputs";
import { familyReads } from "./shared-reads";
import { parentOf } from "./folder-moves";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing folder with this name in the parent path instead of failing. Default false. */
  adoptExisting: z.boolean().default(false),
  /**
   * On delete, also delete the secrets and folders still in it. Default false: the service refuses
   * to delete a folder that holds anything, so nothing the program does not declare is lost.
   */
  forceDelete: z.boolean().default(false),
});

/** The args of a folder: the create body's schema and the options'. */
export type SecretFolderArgs = ArgsOf<SecretFolderCreate> & ArgsOf<z.input<typeof options>>;

type Args = z.output<typeof SecretFolderCreateSchema>;
type Options = z.output<typeof options>;

/** A folder with its place: where its read by id says it is, or where it was listed or written. */
export type PlacedFolder = ServiceFolder & { projectId: string; environmentSlug: string; parentPath: string };

/** A folder's path from its parent's and its name. */
export const childPath = (parent: string, name: string) => (parent === "/" ? `/${name}` : `${parent}/${name}`);

/** A folder the list, create or update answered, placed where it was asked for. */
const placedAt = (f: ServiceFolder, place: { projectId: string; environment: string; path: string }): PlacedFolder => ({
  ...f,
  projectId: place.projectId,
  environmentSlug: place.environment,
  parentPath: place.path,
});

/**
 * The key of one folder's objects in the shared reads (provider/shared-reads.ts): folders and
 * secrets are listed by folder, not by project.
 */
export const folderScope = (projectId: unknown, environment: unknown, path: unknown): string | undefined =>
  [projectId, environment, path].every((v) => typeof v === "string")
    ? JSON.stringify([projectId, environment, path])
    : undefined;

/** The place a `folderScope` key names. */
export function scopePlace(scope: string): { projectId: string; environment: string; path: string } {
  const [projectId, environment, path] = z.tuple([z.string(), z.string(), z.string()]).parse(JSON.parse(scope));
  return { projectId, environment, path };
}

/** The folders in one parent path, one read. */
async function listFolders(client: SecretOpsClient, scope: string): Promise<PlacedFolder[]> {
  const place = scopePlace(scope);
  return (await client.secretFolders.list(place)).map((f) => placedAt(f, place));
}

/** The folder by id: the read says where it is. */
async function readFolder(client: SecretOpsClient, id: string): Promise<PlacedFolder | undefined> {
  const f = await orUndefinedOn404(client.secretFolders.get(id));
  if (!f?.projectId || !f.environment || f.path === undefined) return undefined;
  return { ...f, projectId: f.projectId, environmentSlug: f.environment.envSlug, parentPath: parentOf(f.path) };
}

/** The service's refusal to delete a folder that holds something, with what to do. */
function notEmpty(e: unknown): Error | undefined {
  if (!(e instanceof SecretOpsApiError) || !/because it contains resources/i.test(e.message)) return undefined;
  return new Error(
    `${e.message.replace(/\.$/, "")} (the service's words). Secrets and folders the program declares in it are ` +
      `deleted first when they name the folder by its outputs (secretPath: folder.secretPath). To delete what ` +
      `the program does not declare with it, set forceDelete: true on the folder`,
  );
}

/**
 * A folder of an environment, at `path` (its parent's path; the service makes the parents it
 * lacks). Its `secretPath` output is what secrets, syncs and rotations in it name. Renamed in place
 * when `name` changes; replaced when `projectId`, `environment` or `path` changes. Deleting it is
 * refused while it holds anything, unless `forceDelete`.
 */
export const secretFolderDefinition = defineResource<PlacedFolder, Args, Options>()({
  type: "SecretFolder",
  schemas: () => ({ args: SecretFolderCreateSchema, update: SecretFolderUpdateSchema }),
  options,
  // The PATCH names the folder's place to find it: it cannot move one.
  replaceOnChange: ["projectId", "environment", "path"],
  // A replacement moves the folder to another parent, where its name is free: the new one comes
  // first, so what moves with it (secrets naming its `secretPath`) has somewhere to go.
  deleteBeforeReplace: false,
  absentMeans: { description: null },
  reported: {
    projectId: (f) => f.projectId,
    environment: (f) => f.environmentSlug,
    name: (f) => f.name,
    path: (f) => f.parentPath,
    description: (f) => f.description ?? null,
  },
  computed: {
    /** The folder's own path (`/app/db`): what secrets, syncs and rotations in it name. */
    secretPath: (f) => childPath(f.parentPath, f.name),
    version: (f) => f.version,
    createdAt: (f) => f.createdAt,
    updatedAt: (f) => f.updatedAt,
  },
  exclusive: uniqueIn("SecretFolder", "name", ["projectId", "environment", "path"], "in one parent path"),
  // Renaming its environment or parent (or one above) moves it, with its id and content; so does its own rename for what is in it.
  inTree: {
    pathField: "path",
    holds: {
      kind: "folder",
      of: (v) => (typeof v.path === "string" && typeof v.name === "string" ? childPath(v.path, v.name) : undefined),
    },
  },

  create: async (client, args) => placedAt(await client.secretFolders.create(args), args),
  async find(client, args) {
    const found = (await client.secretFolders.list(args)).find((f) => f.name === args.name);
    return found && placedAt(found, args);
  },
  read: (client, id) => readFolder(client, id),
  listed: {
    scopeOf: (outs) => folderScope(outs.projectId, outs.environment, outs.path),
    reads: familyReads(listFolders),
  },
  async update(client, id, patch, outs) {
    const place = { projectId: outs.projectId, environment: outs.environment, path: outs.path };
    const updated = await client.secretFolders.update(id, {
      ...place,
      name: patch.name ?? outs.name,
      ...(patch.description !== undefined && { description: patch.description }),
    });
    return placedAt(updated, place);
  },
  async delete(client, id, outs) {
    const remove = (place: { projectId: string; environment: string; path: string }) =>
      client.secretFolders.delete(id, { ...place, forceDelete: outs.forceDelete }).catch((e: unknown) => {
        throw notEmpty(e) ?? e;
      });
    try {
      await remove({ projectId: outs.projectId, environment: outs.environment, path: outs.path });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // Not in its recorded parent: a parent renamed since. Deleted where it is, if it still is.
      const now = await readFolder(client, id);
      if (now) await remove({ projectId: now.projectId, environment: now.environmentSlug, path: now.parentPath });
    }
  },
});
