import type { FastifyInstance } from "fastify";
import { secretGetQueryRules, secretListQueryRules, secretOperations as ops } from "../../sdk/schemas";
import { actorOf, projectPermission, recordEvent, subjects, type EmulatorContext } from "../context";
import { ApiError, badRequest, notFound, validationIssue } from "../errors";
import { canReadSecret, throwIfMissingSecretRead, throwUnlessCan, type ProjectAbility } from "../permissions";
import { newSecret } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import { expandReferences } from "../secret-references";
import type { Folder, StoredSecret } from "../types";
import { secretView } from "../views";
import { folderIn } from "./secret-folders";

/**
 * Secrets (docs/service-api.md §12) under `/api/v4/secrets`: each named by its key in a folder,
 * which must exist (a list of a folder that does not is a 404). Values come back on every read
 * unless `viewSecretValue=false`, as written unless `expandSecretReferences=true`; they never
 * appear in the audit log (its metadata is the key, place, id and version) nor in an error.
 */
export function registerSecretRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, secretHandlers, ctx);
}

type SecretRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

export const secretHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listSecrets,
  getById: getSecretById,
  get: getSecret,
  create: createSecret,
  update: updateSecret,
  delete: deleteSecret,
};

interface Place {
  projectId: string;
  environment: string;
  secretPath: string;
}

/** The secret's folder: 404 with the service's text when the environment or the path does not exist. */
function folderOf(ctx: EmulatorContext, p: Place): Folder {
  const f = folderIn(ctx.store, p.projectId, p.environment, p.secretPath);
  if (!f) throw notFound(`Folder with path '${p.secretPath}' in environment with slug '${p.environment}' not found`);
  return f;
}

/** Where a secret is, as its answers say it: the folder's own path. */
const placeOf = (p: Place, f: Folder): Place => ({
  projectId: p.projectId,
  environment: p.environment,
  secretPath: f.path,
});

/**
 * The fields a secret's permission checks name (`SecretSubjectFields`, ee/services/permission/
 * project-permission.ts): the place, and the key when there is one. Secrets here carry no tags.
 */
const secretFields = (p: Place, key?: string) => ({
  environment: p.environment,
  secretPath: p.secretPath,
  ...(key !== undefined && { secretName: key, secretTags: [] as string[] }),
});

/** Whether the caller may see the secret's value (`hasSecretReadValueOrDescribePermission`, ReadValue). */
const valueShown = (ability: ProjectAbility, place: Place, s: StoredSecret) =>
  canReadSecret(ability, "readValue", secretFields(place, s.key));

/** The audit metadata of a secret: never its value. */
const secretMeta = (place: Place, s: StoredSecret) => ({
  environment: place.environment,
  secretPath: place.secretPath,
  secretId: s.id,
  secretKey: s.key,
  secretVersion: s.version,
});

/** Whether a rotation of the folder writes this key (its mapped secrets). */
function isRotated(ctx: EmulatorContext, folderId: string, key: string): boolean {
  for (const r of ctx.store.rotations.values())
    if (r.folderId === folderId && Object.values(r.secretsMapping).includes(key)) return true;
  return false;
}

async function listSecrets(ctx: EmulatorContext, req: SecretRequest<"list">) {
  const actor = actorOf(req);
  const q = req.query;
  // The router's own check, before the service's (its schema leaves both optional).
  const missing = secretListQueryRules(q)[0];
  if (missing) throw badRequest(missing.message);
  // Both present: the rule above.
  const asked = { projectId: q.projectId!, environment: q.environment!, secretPath: q.secretPath };
  const { ability } = projectPermission(ctx, actor, asked.projectId, subjects.secrets);
  throwIfMissingSecretRead(ability, "describeSecret", secretFields(asked));
  const f = folderIn(ctx.store, asked.projectId, asked.environment, asked.secretPath);
  if (!f) {
    throw new ApiError(
      404,
      "SecretPathNotFound",
      `Folder with path '${asked.secretPath}' in environment '${asked.environment}' was not found. Please ensure the environment slug and secret path is correct.`,
    );
  }
  const place = placeOf(asked, f);
  // With `recursive`, the folder and every folder below it (secret-v2-bridge-service.ts getSecrets,
  // `recursivelyGetSecretPaths`): each secret answered at its own folder's path.
  const folders = q.recursive ? [f, ...foldersBelow(ctx, f)] : [f];
  const found = folders.flatMap((folder) =>
    [...(ctx.store.secrets.get(folder.id)?.values() ?? [])].map((s) => ({ s, at: placeOf(asked, folder) })),
  );
  // Only the secrets the caller may describe; values only where it may read them. A secret below
  // the asked folder whose value the caller may not read is left out when values are asked for.
  const list = found.filter(
    ({ s, at }) =>
      canReadSecret(ability, "describeSecret", secretFields(at, s.key)) &&
      (!q.viewSecretValue || at.secretPath === place.secretPath || valueShown(ability, at, s)),
  );
  const meta = { environment: asked.environment, secretPath: place.secretPath, numberOfSecrets: list.length };
  recordEvent(ctx, req, actor, "get-secrets", meta, asked.projectId);
  // A value hidden from the caller is never expanded (nor are its references checked).
  const view = ({ s, at }: { s: StoredSecret; at: Place }) => {
    const shown = q.viewSecretValue && valueShown(ability, at, s);
    return secretView(s, at, shown, shown ? readValue(ctx, at, s, q, ability) : s.value);
  };
  return {
    secrets: list.map(view),
    imports: [],
  };
}

/** The folders below `f` in its environment, by path. */
function foldersBelow(ctx: EmulatorContext, f: Folder): Folder[] {
  const prefix = f.path === "/" ? "/" : `${f.path}/`;
  return [...ctx.store.folders.values()]
    .filter((x) => x.environmentId === f.environmentId && x.id !== f.id && x.path.startsWith(prefix))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The value a read returns: with its references expanded when the read asks for it and values
 * are shown (`expandSecretReferences`, docs/service-api.md §12), else as written.
 */
function readValue(
  ctx: EmulatorContext,
  place: Place,
  s: StoredSecret,
  q: { viewSecretValue: boolean; expandSecretReferences: boolean },
  ability: ProjectAbility,
): string {
  if (!q.viewSecretValue || !q.expandSecretReferences) return s.value;
  // Each secret referenced must be one the caller may read (the service's `canExpandValue`).
  return expandReferences(ctx.store, place, s, (environment, secretPath, key) =>
    canReadSecret(ability, "readValue", secretFields({ ...place, environment, secretPath }, key)),
  );
}

/** A secret by id, wherever it is, with its value and place. */
async function getSecretById(ctx: EmulatorContext, req: SecretRequest<"getById">) {
  const actor = actorOf(req);
  const { secretId } = req.params;
  const s = [...ctx.store.secrets.values()].flatMap((m) => [...m.values()]).find((x) => x.id === secretId);
  const f = s && ctx.store.folders.get(s.folderId);
  const env = f && ctx.store.environments.get(f.environmentId);
  // [UNCONFIRMED] the text of this 404.
  if (!s || !f || !env) throw notFound(`Secret with ID '${secretId}' not found`);
  const place = { projectId: f.projectId, environment: env.slug, secretPath: f.path };
  const { ability } = projectPermission(ctx, actor, f.projectId, subjects.secrets);
  throwIfMissingSecretRead(ability, "describeSecret", secretFields(place, s.key));
  recordEvent(ctx, req, actor, "get-secret", secretMeta(place, s), f.projectId);
  return { secret: secretView(s, place, valueShown(ability, place, s)) };
}

async function getSecret(ctx: EmulatorContext, req: SecretRequest<"get">) {
  const actor = actorOf(req);
  const q = req.query;
  // The router's own check, before the service's (its schema leaves it optional).
  const missing = secretGetQueryRules(q)[0];
  if (missing) throw badRequest(missing.message);
  // Present: the rule above.
  const asked = { projectId: q.projectId, environment: q.environment!, secretPath: q.secretPath };
  const key = req.params.secretName.trim();
  const { ability } = projectPermission(ctx, actor, q.projectId, subjects.secrets);
  throwIfMissingSecretRead(ability, "describeSecret", secretFields(asked, key));
  const f = folderOf(ctx, asked);
  const s = ctx.store.secrets.get(f.id)?.get(key);
  if (!s) throw notFound(`Secret with name '${key}' not found`);
  const place = placeOf(asked, f);
  recordEvent(ctx, req, actor, "get-secret", secretMeta(place, s), q.projectId);
  const shown = q.viewSecretValue && valueShown(ability, place, s);
  return { secret: secretView(s, place, shown, shown ? readValue(ctx, place, s, q, ability) : s.value) };
}

async function createSecret(ctx: EmulatorContext, req: SecretRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  const key = req.params.secretName.trim();
  // The service's `SecretNameSchema` on the path parameter.
  if (key.includes(":") || key.includes("/"))
    throw validationIssue(["secretName"], "Secret name cannot contain colon or forward slash.");
  const { ability } = projectPermission(ctx, actor, body.projectId, subjects.secrets);
  throwUnlessCan(ability, "create", subjects.secrets, secretFields(body, key));
  const f = folderOf(ctx, body);
  // A personal secret is a user's override of a shared one: every caller here is a machine
  // identity, which the service refuses before it looks for the shared secret (docs/service-api.md §12).
  if (body.type === "personal") throw badRequest("Must be user to create personal secret");
  const secrets = ctx.store.folderSecrets(f.id);
  if (secrets.has(key)) throw badRequest("Secret already exists");
  const s = newSecret(
    {
      folderId: f.id,
      key,
      value: body.secretValue,
      comment: body.secretComment ?? "",
      skipMultilineEncoding: body.skipMultilineEncoding ?? null,
    },
    new Date().toISOString(),
  );
  secrets.set(key, s);
  const place = placeOf(body, f);
  recordEvent(ctx, req, actor, "create-secret", secretMeta(place, s), body.projectId);
  syncFolder(ctx, s.folderId);
  return { secret: secretView(s, place, valueShown(ability, place, s)) };
}

/**
 * A secret written or deleted: the syncs of its folder run (`secretQueueService.syncSecrets`,
 * services/secret-v2-bridge/secret-v2-bridge-service.ts; docs/service-api.md §12), as each
 * pushes its folder's secrets.
 */
function syncFolder(ctx: EmulatorContext, folderId: string): void {
  for (const sync of ctx.store.syncs.values()) {
    if (sync.folderId === folderId && sync.isAutoSyncEnabled) ctx.jobs.enqueue(sync, "sync");
  }
}

/** Changes the value, comment or encoding, or renames (`newSecretName`); every PATCH is a new version. */
async function updateSecret(ctx: EmulatorContext, req: SecretRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const key = req.params.secretName.trim();
  const { ability } = projectPermission(ctx, actor, body.projectId, subjects.secrets);
  throwUnlessCan(ability, "edit", subjects.secrets, secretFields(body, key));
  const f = folderOf(ctx, body);
  const secrets = ctx.store.folderSecrets(f.id);
  const s = secrets.get(key);
  if (!s) throw notFound(`Secret with name ${key} not found`);
  const rename = body.newSecretName !== undefined && body.newSecretName !== s.key ? body.newSecretName : undefined;
  if ((body.secretValue !== undefined || rename !== undefined) && isRotated(ctx, f.id, s.key))
    throw badRequest("Cannot update rotated secret name or value");
  if (rename !== undefined && secrets.has(rename)) throw badRequest("Secret with the new name already exist");
  if (body.secretValue !== undefined) s.value = body.secretValue;
  if (body.secretComment !== undefined) s.comment = body.secretComment;
  if (body.skipMultilineEncoding !== undefined) s.skipMultilineEncoding = body.skipMultilineEncoding;
  if (rename !== undefined) {
    secrets.delete(s.key);
    s.key = rename;
    secrets.set(rename, s);
  }
  s.version += 1;
  s.updatedAt = ctx.store.writeTime(s);
  const place = placeOf(body, f);
  recordEvent(ctx, req, actor, "update-secret", secretMeta(place, s), body.projectId);
  syncFolder(ctx, s.folderId);
  return { secret: secretView(s, place, valueShown(ability, place, s)) };
}

async function deleteSecret(ctx: EmulatorContext, req: SecretRequest<"delete">) {
  const actor = actorOf(req);
  const { body } = req;
  const { ability } = projectPermission(ctx, actor, body.projectId, subjects.secrets);
  throwUnlessCan(ability, "delete", subjects.secrets, secretFields(body, req.params.secretName));
  const f = folderOf(ctx, body);
  const secrets = ctx.store.folderSecrets(f.id);
  const s = secrets.get(req.params.secretName);
  if (!s) throw notFound("Secret not found");
  secrets.delete(s.key);
  const place = placeOf(body, f);
  recordEvent(ctx, req, actor, "delete-secret", secretMeta(place, s), body.projectId);
  syncFolder(ctx, s.folderId);
  return { secret: secretView(s, place, valueShown(ability, place, s)) };
}
