import { type Plain, containsUnknown, sameValue } from "./values";

/**
 * The folders the program renames or replaces in this operation, as their diffs decided, for the
 * objects inside them (`ResourceDefinition.inFolder`). The service keeps an object in a folder by
 * the folder's id, so renaming a folder moves what is in it, each keeping its id; the program
 * names the folder's new path through the folder's `secretPath` output, unknown at preview and
 * changed at `up`. Without this, each object inside would read as one to make anew at the new
 * path (a replacement). A folder's diff runs before the diffs of what names its outputs (the
 * engine registers those only once the folder's outputs resolve), and one provider process serves
 * every resource of a program, so this record, kept in the process, is complete when it is read.
 */

/** A folder's change: renamed (its objects are then at `to`), or replaced (made anew, empty). */
export type FolderChange = { readonly to: string } | "replaced";

/** Where a folder is: its endpoint (undefined: the stack's), project and environment. */
export interface FolderScope {
  endpoint: string | undefined;
  projectId: unknown;
  environment: unknown;
}

const changes = new Map<string, FolderChange>();

const keyOf = (scope: FolderScope, path: string) =>
  JSON.stringify([scope.endpoint ?? "", scope.projectId, scope.environment, path]);

/** A path's parent (`/app` for `/app/db`, `/` for `/app`). */
export const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

/** Records the change of the folder at `path` (its own path, `/app/db`). */
export function folderChanged(scope: FolderScope, path: string, change: FolderChange): void {
  changes.set(keyOf(scope, path), change);
}

/**
 * The change of the nearest folder at or above `path` that the program renames or replaces in this
 * operation, with the path the objects at `path` then have; undefined when none is.
 */
export function folderChangeAt(scope: FolderScope, path: string): FolderChange | undefined {
  for (let at = path; ; at = parentOf(at)) {
    const change = changes.get(keyOf(scope, at));
    if (change)
      return change === "replaced" ? change : { to: at === "/" ? change.to : change.to + path.slice(at.length) };
    if (at === "/") return undefined;
  }
}

/**
 * The path an object whose folder path changes from `olds[field]` to `args[field]` moved to with
 * its folder: the path its renamed folder gives it, where the program names that path (or names it
 * by an output still unknown) and keeps the object's project and environment. Undefined otherwise:
 * the program moves the object itself.
 */
export function followedPath(
  field: string,
  args: Plain,
  olds: Plain,
  endpoint: string | undefined,
): string | undefined {
  const from = olds[field];
  if (typeof from !== "string") return undefined;
  const samePlace = (["projectId", "environment"] as const).every((k) => sameValue(args[k], olds[k]));
  if (!samePlace) return undefined;
  const change = folderChangeAt({ endpoint, projectId: olds.projectId, environment: olds.environment }, from);
  if (change === undefined || change === "replaced") return undefined;
  const wanted = args[field];
  return containsUnknown(wanted) || wanted === change.to ? change.to : undefined;
}
