import { type Plain, containsUnknown, sameValue } from "./values";

/**
 * The environments and folders the program renames (or replaces) in this operation, as their diffs
 * decided, for the objects inside them (`ResourceDefinition.inTree`). The service keeps an object
 * in a folder, and a folder in an environment, by id, so renaming an environment's slug or a
 * folder moves what is in it, each keeping its id; the program names the new slug or path through
 * the container's outputs (`prod.slug`, `web.secretPath`), unknown at preview and changed at `up`.
 * Without this, each object inside would read as one to make anew there (a replacement). A
 * container's diff runs before the diffs of what names its outputs (the engine registers those only
 * once its outputs resolve), and one provider process serves every resource of a program, so this
 * record, kept in the process, is complete when it is read.
 */

/** A folder's change: renamed (its objects are then at `to`), or replaced (made anew, empty). */
export type FolderChange = { readonly to: string } | "replaced";

/** Where a folder is: its endpoint (undefined: the stack's), project and environment. */
export interface FolderScope {
  endpoint: string | undefined;
  projectId: unknown;
  environment: unknown;
}

const folderChanges = new Map<string, FolderChange>();
const environmentRenames = new Map<string, string>();

const folderKey = (scope: FolderScope, path: string) =>
  JSON.stringify([scope.endpoint ?? "", scope.projectId, scope.environment, path]);
const environmentKey = (endpoint: string | undefined, projectId: unknown, slug: unknown) =>
  JSON.stringify([endpoint ?? "", projectId, slug]);

/** A path's parent (`/app` for `/app/db`, `/` for `/app`). */
export const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

/** Records the change of the folder at `path` (its own path, `/app/db`). */
export function folderChanged(scope: FolderScope, path: string, change: FolderChange): void {
  folderChanges.set(folderKey(scope, path), change);
}

/** Records an environment's new slug. */
export function environmentRenamed(endpoint: string | undefined, projectId: unknown, from: string, to: string): void {
  environmentRenames.set(environmentKey(endpoint, projectId, from), to);
}

/**
 * The change of the nearest folder at or above `path` that the program renames or replaces in this
 * operation, with the path the objects at `path` then have; undefined when none is.
 */
export function folderChangeAt(scope: FolderScope, path: string): FolderChange | undefined {
  for (let at = path; ; at = parentOf(at)) {
    const change = folderChanges.get(folderKey(scope, at));
    if (change)
      return change === "replaced" ? change : { to: at === "/" ? change.to : change.to + path.slice(at.length) };
    if (at === "/") return undefined;
  }
}

/** The program's value `wanted` is the one a rename gives (`to`), or an output not known yet. */
const follows = (wanted: unknown, to: string) => containsUnknown(wanted) || wanted === to;

/**
 * The args that changed only because the object's environment or folder (or one above it) was
 * renamed: the values it has now, where it moved with them. The program names them (or names them
 * by outputs still unknown) and keeps the object's project. Empty when the program moves the
 * object itself. `pathField`: the arg naming its folder's path (none for an environment).
 */
export function followedPlace(
  pathField: string | undefined,
  args: Plain,
  observed: Plain,
  endpoint: string | undefined,
): Plain {
  if (!sameValue(args.projectId, observed.projectId)) return {};
  const followed: Plain = {};
  if (!sameValue(args.environment, observed.environment)) {
    const to = environmentRenames.get(environmentKey(endpoint, observed.projectId, observed.environment));
    if (to === undefined || !follows(args.environment, to)) return {};
    followed.environment = to;
  }
  const from = pathField === undefined ? undefined : observed[pathField];
  if (pathField === undefined || typeof from !== "string" || sameValue(args[pathField], from)) return followed;
  const change = folderChangeAt({ endpoint, projectId: observed.projectId, environment: observed.environment }, from);
  if (change === undefined || change === "replaced" || !follows(args[pathField], change.to)) return {};
  return { ...followed, [pathField]: change.to };
}
