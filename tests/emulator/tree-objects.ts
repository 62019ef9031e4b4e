import { apiPaths, type Project } from "../../sdk/schemas";
import { FX, uniq, type Api, type Json } from "./helpers";

/** Shared steps of the project tree's route tests (projects, environments, folders, secrets). */

export const projects = apiPaths.projects;
export const folders = apiPaths.secretFolders;
export const secrets = apiPaths.secrets;

/** Makes a project (with dev, staging and prod unless `extra` says otherwise); fails the test on an error. */
export async function createProject(api: Api, extra: Record<string, unknown> = {}): Promise<Project & Json> {
  const res = await api.post(projects, { projectName: uniq("Tree Project"), ...extra });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.project;
}

export async function createFolder(api: Api, body: Record<string, unknown>): Promise<Json> {
  const res = await api.post(folders, body);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.folder;
}

export async function createSecret(
  api: Api,
  place: { projectId: string; environment: string; secretPath?: string },
  key: string,
  value: string,
  extra: Record<string, unknown> = {},
): Promise<Json> {
  const res = await api.post(`${secrets}/${key}`, { ...place, secretValue: value, ...extra });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.secret;
}

/** An azure-key-vault sync of the folder (a destination with a one-field config). */
export function syncBody(
  projectId: string,
  environment: string,
  secretPath: string,
  extra: Record<string, unknown> = {},
) {
  return {
    name: uniq("tree-sync"),
    projectId,
    connectionId: FX.connection("azure-key-vault").id,
    environment,
    secretPath,
    isAutoSyncEnabled: false,
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
    ...extra,
  };
}

export const akvSyncs = apiPaths.secretSyncs("azure-key-vault");
export const mysqlRotations = apiPaths.secretRotations("mysql-credentials");

/** A mysql-credentials rotation writing two secrets into the folder. */
export function rotationBody(projectId: string, environment: string, secretPath: string) {
  return {
    name: uniq("tree-rotation"),
    projectId,
    connectionId: FX.connection("mysql").id,
    environment,
    secretPath,
    rotationInterval: 5,
    parameters: { username1: "a", username2: "b" },
    secretsMapping: {
      username: uniq("U").toUpperCase().replace(/-/g, "_"),
      password: uniq("P").toUpperCase().replace(/-/g, "_"),
    },
  };
}

/**
 * The audit entries of a project of one event type, newest first (looked up in the organization's
 * log, so a deleted project's entries are found too).
 */
export async function auditOf(api: Api, projectId: string, eventType: string): Promise<Json[]> {
  const res = await api.get(apiPaths.auditLogs, {
    query: { eventType, limit: 1000, endDate: new Date(Date.now() + 60_000).toISOString() },
  });
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.auditLogs.filter((e: Json) => e.projectId === projectId);
}
