import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import {
  apiPaths,
  allSecretRotationOperations,
  computeNextRotationAt,
  rotationTypes,
  secretRotationOperations,
  type PasswordRequirements,
  type RotationType,
} from "../../sdk/schemas";
import { actorOf, recordEvent, requireProject, resolveFolder, subjects, type EmulatorContext } from "../context";
import { generatePassword, randomSecret } from "../credentials";
import { ApiError, badRequest, notFound } from "../errors";
import { writeSecretValue } from "../records";
import {
  routeKindOperations,
  routeOperations,
  type OperationRequest,
  type ScopedHandlers,
} from "../route-registration";
import type { StoredRotation } from "../types";
import { rotationView } from "../views";
import { findOfKind, getOfKind, listOfKind, objectMeta, placeNewObject, type ObjectsOfKind } from "./kind-objects";

const GENERATION_FAILED = "Infisical encountered an issue while generating credentials with the configured inputs: ";

/**
 * How the emulator makes up each generated credential field, by field name (the fields of a
 * type's `generatedCredentials` schema). SQL types alternate between `username1` and `username2`;
 * other types get a fresh username; passwords follow `passwordRequirements`.
 */
function generateField(field: string, parameters: Record<string, unknown>, index: number): string | { error: string } {
  switch (field) {
    case "username": {
      const fixed = parameters[`username${index + 1}`];
      return typeof fixed === "string" ? fixed : `emulator-${randomBytes(6).toString("hex")}`;
    }
    case "password":
      return generatePassword(parameters.passwordRequirements as PasswordRequirements | undefined);
    case "clientId":
      return typeof parameters.clientId === "string" ? parameters.clientId : randomUUID();
    case "keyId":
      return randomUUID();
    default:
      return randomSecret();
  }
}

function generateCredentials(
  type: RotationType,
  parameters: Record<string, unknown>,
  index: number,
): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const field of Object.keys(type.generatedCredentials.shape)) {
    const v = generateField(field, parameters, index);
    if (typeof v !== "string") return v;
    out[field] = v;
  }
  return out;
}

/**
 * Secret rotations v2 (docs/api-spec.md §4.3, docs/service-api.md §3), one set of routes per row
 * of `rotationTypes`, from its rows of the operations table. Credentials are issued synchronously
 * on create and on rotate-secrets, and the mapped secrets are written into the rotation's folder
 * (the per-folder secret store).
 */
export function registerSecretRotationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, allSecretRotationOperations, { list: listAllRotations }, ctx);
  const family = {
    rows: Object.values(rotationTypes) as RotationType[],
    slug: (type: RotationType) => type.type,
    base: apiPaths.secretRotations,
    operations: secretRotationOperations,
    scope: (type: RotationType) => typeScope(ctx, type),
  };
  routeKindOperations(app, family, typeHandlers);
}

type RotationOperations = ReturnType<typeof secretRotationOperations>;
type RotationRequest<K extends keyof RotationOperations> = OperationRequest<RotationOperations[K]>;

/** What the routes of one rotation type share. */
interface TypeScope {
  readonly ctx: EmulatorContext;
  readonly type: RotationType;
  /** The type's rotations, as the routes every kind of object shares see them. */
  readonly rotations: ObjectsOfKind<StoredRotation>;
}

const typeHandlers: ScopedHandlers<TypeScope, RotationOperations> = {
  list: listRotations,
  get: getRotation,
  getByName: getRotationByName,
  create: createRotation,
  update: updateRotation,
  delete: deleteRotation,
  rotate,
  generatedCredentials,
};

const rotationMeta = (ctx: EmulatorContext, r: StoredRotation) =>
  objectMeta(ctx.store, r, { type: r.type, rotationId: r.id });

const wrongType = (type: RotationType, id: string) =>
  badRequest(`Secret Rotation with ID "${id}" is not configured for ${type.label}`);

function typeScope(ctx: EmulatorContext, type: RotationType): TypeScope {
  const rotations: ObjectsOfKind<StoredRotation> = {
    objects: ctx.store.rotations,
    subject: subjects.secretRotations,
    ofKind: (r) => r.type === type.type,
    notFound: (id) => notFound(`Could not find ${type.label} Rotation with ID ${id}`),
    wrongKind: (id) => wrongType(type, id),
    meta: (r) => rotationMeta(ctx, r),
    listMeta: (list) => ({ type: type.type, count: list.length, rotationIds: list.map((r) => r.id) }),
    events: { list: "get-secret-rotations", get: "get-secret-rotation" },
  };
  return { ctx, type, rotations };
}

const folderPath = (ctx: EmulatorContext, r: StoredRotation) => ctx.store.folders.get(r.folderId ?? "")?.path ?? "";

function nameTaken(ctx: EmulatorContext, folderId: string | null, name: string, exceptId?: string): boolean {
  for (const r of ctx.store.rotations.values())
    if (r.folderId === folderId && r.name === name && r.id !== exceptId) return true;
  return false;
}

const nameTakenError = (name: string, path: string) =>
  badRequest(`A Secret Rotation with the name "${name}" already exists at the secret path "${path}"`);

function nextRotationAt(r: StoredRotation, failed = false): string | null {
  const from = failed ? (r.lastRotationAttemptedAt ?? r.createdAt) : (r.lastRotatedAt ?? r.createdAt);
  const next = computeNextRotationAt(new Date(from), r.rotationInterval, r.rotateAtUtc, {
    isAutoRotationEnabled: r.isAutoRotationEnabled,
    failed,
  });
  return next?.toISOString() ?? null;
}

/** Secret names of `mapping` already used in the folder, other than `own` ones. */
function clashes(ctx: EmulatorContext, folderId: string, mapping: Record<string, string>, own: readonly string[]) {
  const secrets = ctx.store.folderSecrets(folderId);
  return [...new Set(Object.values(mapping))].filter((n) => secrets.has(n) && !own.includes(n));
}

function checkMapping(
  ctx: EmulatorContext,
  folderId: string,
  path: string,
  mapping: Record<string, string>,
  own: readonly string[] = [],
): void {
  const names = Object.values(mapping);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw badRequest(`Secret name "${dup}" is mapped more than once`);
  const taken = clashes(ctx, folderId, mapping, own);
  if (taken.length > 0)
    throw badRequest(`The following secrets already exist at the path "${path}": ${taken.join(", ")}`);
}

/**
 * The active credentials into the mapped secrets of the rotation's folder: a secret created, or a
 * new version of it (docs/service-api.md §12). [UNCONFIRMED] A rotation whose folder was deleted
 * writes nowhere.
 */
function writeSecrets(ctx: EmulatorContext, r: StoredRotation): void {
  if (r.folderId === null) return;
  const creds = r.generatedCredentials[r.activeIndex] ?? {};
  for (const [field, name] of Object.entries(r.secretsMapping))
    writeSecretValue(ctx.store, r.folderId, name, creds[field] ?? "");
}

/** Deletes the rotation's mapped secrets `names` from its folder. */
function deleteSecrets(ctx: EmulatorContext, r: StoredRotation, names: readonly string[]): void {
  if (r.folderId === null) return;
  const secrets = ctx.store.folderSecrets(r.folderId);
  for (const n of names) secrets.delete(n);
}

/** Every type's rotations of a project in one call (the service's `listSecretRotations`). */
async function listAllRotations(ctx: EmulatorContext, req: OperationRequest<typeof allSecretRotationOperations.list>) {
  const rotations = listOfKind(
    ctx,
    {
      objects: ctx.store.rotations,
      subject: subjects.secretRotations,
      ofKind: () => true,
      listMeta: (list) => ({ count: list.length, rotationIds: list.map((r) => r.id) }),
      events: { list: "get-secret-rotations", get: "get-secret-rotation" },
    },
    req,
    req.query.projectId,
  );
  return { secretRotations: rotations.map((r) => rotationView(ctx.store, r)) };
}

async function listRotations({ ctx, rotations }: TypeScope, req: RotationRequest<"list">) {
  const list = listOfKind(ctx, rotations, req, req.query.projectId);
  return { secretRotations: list.map((r) => rotationView(ctx.store, r)) };
}

async function getRotation({ ctx, rotations }: TypeScope, req: RotationRequest<"get">) {
  return { secretRotation: rotationView(ctx.store, getOfKind(ctx, rotations, req, req.params.rotationId)) };
}

async function getRotationByName({ ctx, type, rotations }: TypeScope, req: RotationRequest<"getByName">) {
  const actor = actorOf(req);
  const { rotationName } = req.params;
  const q = req.query;
  requireProject(ctx, actor, q.projectId, "read", subjects.secretRotations, {
    environment: q.environment,
    secretPath: q.secretPath,
  });
  // A folder that does not exist is the service's 400, not a 404 for the rotation
  // (secret-rotation-v2-service.ts `findSecretRotationByName`).
  const { folder } = resolveFolder(ctx, q.projectId, q.environment, q.secretPath);
  const r = [...ctx.store.rotations.values()].find((x) => x.folderId === folder.id && x.name === rotationName);
  if (!r) throw notFound(`Could not find ${type.label} Rotation with name "${rotationName}"`);
  if (r.type !== type.type) throw wrongType(type, r.id);
  recordEvent(ctx, req, actor, rotations.events.get, rotationMeta(ctx, r), r.projectId);
  return { secretRotation: rotationView(ctx.store, r) };
}

async function createRotation({ ctx, type, rotations }: TypeScope, req: RotationRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  const folder = placeNewObject(ctx, rotations, actor, body, type.connectionApp);
  if (nameTaken(ctx, folder.id, body.name)) throw nameTakenError(body.name, folder.path);
  const secretsMapping = body.secretsMapping as Record<string, string>;
  checkMapping(ctx, folder.id, folder.path, secretsMapping);
  const creds = generateCredentials(type, body.parameters, 0);
  if ("error" in creds) throw badRequest(`${GENERATION_FAILED}${creds.error}`);
  const now = new Date().toISOString();
  const r: StoredRotation = {
    id: randomUUID(),
    name: body.name,
    description: body.description ?? null,
    type: type.type,
    projectId: body.projectId,
    folderId: folder.id,
    connectionId: body.connectionId,
    createdAt: now,
    updatedAt: now,
    rotationInterval: body.rotationInterval,
    rotateAtUtc: body.rotateAtUtc,
    isAutoRotationEnabled: body.isAutoRotationEnabled,
    parameters: body.parameters,
    secretsMapping,
    activeIndex: 0,
    rotationStatus: "success",
    lastRotationAttemptedAt: now,
    lastRotatedAt: now,
    lastRotationMessage: null,
    lastRotationJobId: null,
    nextRotationAt: null,
    isLastRotationManual: true,
    generatedCredentials: [creds as Record<string, string>],
  };
  r.nextRotationAt = nextRotationAt(r);
  ctx.store.rotations.set(r.id, r);
  writeSecrets(ctx, r);
  recordEvent(ctx, req, actor, "create-secret-rotation", rotationMeta(ctx, r), r.projectId);
  return { secretRotation: rotationView(ctx.store, r) };
}

async function updateRotation({ ctx, rotations }: TypeScope, req: RotationRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const r = findOfKind(ctx, rotations, actor, req.params.rotationId, "edit");
  if (body.name !== undefined && nameTaken(ctx, r.folderId, body.name, r.id))
    throw nameTakenError(body.name, folderPath(ctx, r));
  const newMapping = body.secretsMapping as Record<string, string> | undefined;
  const oldNames = Object.values(r.secretsMapping);
  if (newMapping && r.folderId !== null) checkMapping(ctx, r.folderId, folderPath(ctx, r), newMapping, oldNames);

  if (body.name !== undefined) r.name = body.name;
  if (body.description !== undefined) r.description = body.description;
  if (body.isAutoRotationEnabled !== undefined) r.isAutoRotationEnabled = body.isAutoRotationEnabled;
  if (body.rotationInterval !== undefined) r.rotationInterval = body.rotationInterval;
  if (body.rotateAtUtc !== undefined) r.rotateAtUtc = body.rotateAtUtc;
  if (body.parameters !== undefined) r.parameters = body.parameters;
  if (newMapping) {
    // Renames the mapped secrets (docs/service-api.md §3).
    deleteSecrets(ctx, r, oldNames);
    r.secretsMapping = newMapping;
    writeSecrets(ctx, r);
  }
  r.nextRotationAt = r.rotationStatus === "failed" ? nextRotationAt(r, true) : nextRotationAt(r);
  r.updatedAt = ctx.store.writeTime(r);
  recordEvent(ctx, req, actor, "update-secret-rotation", rotationMeta(ctx, r), r.projectId);
  return { secretRotation: rotationView(ctx.store, r) };
}

async function deleteRotation({ ctx, rotations }: TypeScope, req: RotationRequest<"delete">) {
  const actor = actorOf(req);
  const { deleteSecrets: deleteMapped, revokeGeneratedCredentials } = req.query;
  const r = findOfKind(ctx, rotations, actor, req.params.rotationId, "delete");
  const deleted = rotationView(ctx.store, r);
  if (deleteMapped) deleteSecrets(ctx, r, Object.values(r.secretsMapping));
  // revokeGeneratedCredentials: the credentials are revoked at the provider; the emulator
  // has no provider, so it only drops them with the rotation.
  ctx.store.rotations.delete(r.id);
  const meta = { ...rotationMeta(ctx, r), deleteSecrets: deleteMapped, revokeGeneratedCredentials };
  recordEvent(ctx, req, actor, "delete-secret-rotation", meta, r.projectId);
  return { secretRotation: deleted };
}

async function rotate({ ctx, type, rotations }: TypeScope, req: RotationRequest<"rotate">) {
  const actor = actorOf(req);
  const r = findOfKind(ctx, rotations, actor, req.params.rotationId, "rotate-secrets");
  const index = 1 - r.activeIndex;
  const creds = generateCredentials(type, r.parameters, index);
  const now = ctx.store.writeTime(r);
  r.lastRotationAttemptedAt = now;
  r.isLastRotationManual = true;
  r.updatedAt = now;
  if ("error" in creds) {
    // A failed manual rotation: 500, and the rotation is marked failed (docs/service-api.md §3).
    r.rotationStatus = "failed";
    r.lastRotationMessage = `${GENERATION_FAILED}${creds.error}`;
    r.nextRotationAt = nextRotationAt(r, true);
    throw new ApiError(500, "InternalServerError", r.lastRotationMessage);
  }
  r.generatedCredentials[index] = creds as Record<string, string>;
  r.activeIndex = index;
  r.rotationStatus = "success";
  r.lastRotationMessage = null;
  r.lastRotatedAt = now;
  r.nextRotationAt = nextRotationAt(r);
  writeSecrets(ctx, r);
  recordEvent(ctx, req, actor, "secret-rotation-rotate-secrets", rotationMeta(ctx, r), r.projectId);
  return { secretRotation: rotationView(ctx.store, r) };
}

async function generatedCredentials({ ctx, rotations }: TypeScope, req: RotationRequest<"generatedCredentials">) {
  const actor = actorOf(req);
  const r = findOfKind(ctx, rotations, actor, req.params.rotationId, "read-generated-credentials");
  recordEvent(ctx, req, actor, "get-secret-rotation-generated-credentials", rotationMeta(ctx, r), r.projectId);
  return {
    generatedCredentials: r.generatedCredentials,
    activeIndex: r.activeIndex,
    rotationId: r.id,
    type: r.type,
  };
}
