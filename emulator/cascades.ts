import type { Store } from "./store";
import { authKey } from "./store";
import type { Environment, Folder, Project, StoredIdentityAuth } from "./types";

/**
 * What a deletion takes with it, as the service's foreign keys do (docs/service-api.md §10, §11):
 * a folder its subfolders and secrets, an environment its folders, a project everything in it.
 */

/**
 * Deletes a folder, every folder below it and their secrets. Syncs and rotations there stay, with
 * no folder (the service's `folderId ... ON DELETE SET NULL`, which keeps their configuration).
 */
export function deleteFolderTree(store: Store, folder: Folder): void {
  const gone = [folder, ...store.descendantFolders(folder)];
  const ids = new Set(gone.map((f) => f.id));
  for (const f of gone) store.removeFolder(f);
  for (const s of store.syncs.values()) if (s.folderId !== null && ids.has(s.folderId)) s.folderId = null;
  // [UNCONFIRMED] rotations are kept with no folder, as syncs are (one version of the service's
  // migration sets their folder null, another deletes them).
  for (const r of store.rotations.values()) if (r.folderId !== null && ids.has(r.folderId)) r.folderId = null;
}

/** Deletes an environment (hard delete) with its folders and secrets. */
export function deleteEnvironment(store: Store, env: Environment): void {
  const root = store.folderByEnvPath(env.id, "/");
  if (root) deleteFolderTree(store, root);
  // Folders not reachable from the root (none, unless a data file was edited) go too.
  for (const f of [...store.folders.values()]) if (f.environmentId === env.id) deleteFolderTree(store, f);
  store.removeEnvironment(env);
}

/**
 * Deletes a project and what is in it: environments, folders, secrets, syncs, rotations,
 * certificate profiles, CAs, certificate policies and the project's own app connections; the
 * identities are no longer members.
 */
export function deleteProject(store: Store, project: Project): void {
  const id = project.id;
  for (const e of [...store.environments.values()]) if (e.projectId === id) deleteEnvironment(store, e);
  const inProject = <T extends { projectId: string | null }>(m: Map<string, T>) => {
    for (const [key, o] of [...m]) if (o.projectId === id) m.delete(key);
  };
  inProject(store.syncs);
  inProject(store.rotations);
  inProject(store.profiles);
  inProject(store.cas);
  inProject(store.policies);
  inProject(store.connections);
  // Its custom roles and identity memberships (their rows' projectId foreign keys cascade).
  for (const [key, m] of [...store.identityMemberships]) if (m.projectId === id) store.identityMemberships.delete(key);
  inProject(store.projectRoles);
  // [UNCONFIRMED] a project's own identities go with it (their projectId's foreign key is not read).
  for (const identity of [...store.identities.values()])
    if (identity.projectId === id) deleteIdentity(store, identity.id);
  store.projects.delete(id);
}

/**
 * Deletes an identity with what hangs off it, as the service's foreign keys do (docs/service-api.md
 * §18, §19): its login methods, their client secrets, its access tokens (they stop working), its
 * project memberships with their roles, and its lockout counters.
 */
export function deleteIdentity(store: Store, identityId: string): void {
  for (const [key, a] of [...store.identityAuths]) if (a.identityId === identityId) store.identityAuths.delete(key);
  for (const [id, c] of [...store.clientSecrets]) if (c.identityId === identityId) store.clientSecrets.delete(id);
  for (const [token, t] of [...store.tokens]) if (t.identityId === identityId) store.tokens.delete(token);
  for (const [key, m] of [...store.identityMemberships])
    if (m.identityId === identityId) store.identityMemberships.delete(key);
  for (const key of [...store.lockouts.keys()])
    if (key.startsWith(`lockout:identity:${identityId}:`)) store.lockouts.delete(key);
  store.identities.delete(identityId);
}

/**
 * Revokes one login method with what hangs off it: its client secrets, the access tokens it
 * issued and its lockout counters (`deleteIdentity` does the same for all of an identity's).
 */
export function revokeIdentityAuth(store: Store, a: StoredIdentityAuth): void {
  store.identityAuths.delete(authKey(a.identityId, a.method));
  for (const [id, c] of [...store.clientSecrets]) if (c.identityUAId === a.id) store.clientSecrets.delete(id);
  for (const [t, tok] of [...store.tokens])
    if (tok.identityId === a.identityId && tok.authMethod === a.method) store.tokens.delete(t);
  for (const key of [...store.lockouts.keys()])
    if (key.startsWith(`lockout:identity:${a.identityId}:${a.method}:`)) store.lockouts.delete(key);
}
