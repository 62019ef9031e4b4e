import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
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
import { route } from "../route-registration";
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
 * Secret rotations v2 (docs/api-spec.md §4.3, docs/service-api.md §3), one set of routes per row of `rotationTypes`.
 * Credentials are issued synchronously on create and on rotate-secrets, and the mapped secrets
 * are written into the rotation's folder (the per-folder secret store).
 */
export function registerSecretRotationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  const folderPath = (r: StoredRotation) => store.folders.get(r.folderId)?.path ?? "";
  const meta = (r: StoredRotation) => objectMeta(store, r, { type: r.type, rotationId: r.id });
  const view = (r: StoredRotation) => rotationView(store, r);
  const nextRotationAt = (r: StoredRotation, failed = false) =>
    computeNextRotationAt(
      new Date(failed ? (r.lastRotationAttemptedAt ?? r.createdAt) : (r.lastRotatedAt ?? r.createdAt)),
      r.rotationInterval,
      r.rotateAtUtc,
      {
        isAutoRotationEnabled: r.isAutoRotationEnabled,
        failed,
      },
    )?.toISOString() ?? null;
  /** Secret names of `mapping` already used in the folder, other than `own` ones. */
  const clashes = (folderId: string, mapping: Record<string, string>, own: readonly string[] = []) => {
    const secrets = store.folderSecrets(folderId);
    return [...new Set(Object.values(mapping))].filter((n) => secrets.has(n) && !own.includes(n));
  };
  const checkMapping = (folderId: string, path: string, mapping: Record<string, string>, own?: readonly string[]) => {
    const names = Object.values(mapping);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) throw badRequest(`Secret name "${dup}" is mapped more than once`);
    const taken = clashes(folderId, mapping, own);
    if (taken.length > 0)
      throw badRequest(`The following secrets already exist at the path "${path}": ${taken.join(", ")}`);
  };
  const writeSecrets = (r: StoredRotation) => {
    const secrets = store.folderSecrets(r.folderId);
    const creds = r.generatedCredentials[r.activeIndex] ?? {};
    for (const [field, name] of Object.entries(r.secretsMapping)) secrets.set(name, creds[field] ?? "");
  };

  // Every type's rotations of a project in one call (the service's `listSecretRotations`).
  route(app, allSecretRotationOperations.list, async (req) => ({
    secretRotations: listOfKind(
      ctx,
      {
        objects: store.rotations,
        subject: subjects.secretRotations,
        ofKind: () => true,
        listMeta: (list) => ({ count: list.length, rotationIds: list.map((r) => r.id) }),
        events: { list: "get-secret-rotations", get: "get-secret-rotation" },
      },
      req,
      req.query.projectId,
    ).map(view),
  }));

  for (const type of Object.values(rotationTypes) as RotationType[]) {
    const ops = secretRotationOperations(type);
    const wrongType = (id: string) => badRequest(`Secret Rotation with ID "${id}" is not configured for ${type.label}`);
    const rotations: ObjectsOfKind<StoredRotation> = {
      objects: store.rotations,
      subject: subjects.secretRotations,
      ofKind: (r) => r.type === type.type,
      notFound: (id) => notFound(`Could not find ${type.label} Rotation with ID ${id}`),
      wrongKind: wrongType,
      meta,
      listMeta: (list) => ({ type: type.type, count: list.length, rotationIds: list.map((r) => r.id) }),
      events: { list: "get-secret-rotations", get: "get-secret-rotation" },
    };
    const find = (req: FastifyRequest, rotationId: string, action: string) =>
      findOfKind(ctx, rotations, actorOf(req), rotationId, action);
    const nameTaken = (folderId: string, name: string, exceptId?: string) => {
      for (const r of store.rotations.values())
        if (r.folderId === folderId && r.name === name && r.id !== exceptId) return true;
      return false;
    };

    route(app, ops.list, async (req) => ({
      secretRotations: listOfKind(ctx, rotations, req, req.query.projectId).map(view),
    }));

    route(app, ops.get, async (req) => ({
      secretRotation: view(getOfKind(ctx, rotations, req, req.params.rotationId)),
    }));

    route(app, ops.getByName, async (req) => {
      const actor = actorOf(req);
      const { rotationName } = req.params;
      const q = req.query;
      requireProject(ctx, actor, q.projectId, "read", subjects.secretRotations);
      // A folder that does not exist is the service's 400, not a 404 for the rotation
      // (secret-rotation-v2-service.ts `findSecretRotationByName`).
      const { folder } = resolveFolder(ctx, q.projectId, q.environment, q.secretPath);
      const r = [...store.rotations.values()].find((x) => x.folderId === folder.id && x.name === rotationName);
      if (!r) throw notFound(`Could not find ${type.label} Rotation with name "${rotationName}"`);
      if (r.type !== type.type) throw wrongType(r.id);
      recordEvent(ctx, req, actor, rotations.events.get, meta(r), r.projectId);
      return { secretRotation: view(r) };
    });

    route(app, ops.create, async (req) => {
      const actor = actorOf(req);
      const { body } = req;
      const folder = placeNewObject(ctx, rotations, actor, body, type.connectionApp);
      if (nameTaken(folder.id, body.name)) {
        throw badRequest(
          `A Secret Rotation with the name "${body.name}" already exists at the secret path "${folder.path}"`,
        );
      }
      const secretsMapping = body.secretsMapping as Record<string, string>;
      checkMapping(folder.id, folder.path, secretsMapping);
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
      store.rotations.set(r.id, r);
      writeSecrets(r);
      recordEvent(ctx, req, actor, "create-secret-rotation", meta(r), r.projectId);
      return { secretRotation: view(r) };
    });

    route(app, ops.update, async (req) => {
      const actor = actorOf(req);
      const { body } = req;
      const r = find(req, req.params.rotationId, "edit");
      if (body.name !== undefined && nameTaken(r.folderId, body.name, r.id)) {
        throw badRequest(
          `A Secret Rotation with the name "${body.name}" already exists at the secret path "${folderPath(r)}"`,
        );
      }
      const newMapping = body.secretsMapping as Record<string, string> | undefined;
      const oldNames = Object.values(r.secretsMapping);
      if (newMapping) checkMapping(r.folderId, folderPath(r), newMapping, oldNames);

      if (body.name !== undefined) r.name = body.name;
      if (body.description !== undefined) r.description = body.description;
      if (body.isAutoRotationEnabled !== undefined) r.isAutoRotationEnabled = body.isAutoRotationEnabled;
      if (body.rotationInterval !== undefined) r.rotationInterval = body.rotationInterval;
      if (body.rotateAtUtc !== undefined) r.rotateAtUtc = body.rotateAtUtc;
      if (body.parameters !== undefined) r.parameters = body.parameters;
      if (newMapping) {
        // Renames the mapped secrets (docs/service-api.md §3).
        const secrets = store.folderSecrets(r.folderId);
        for (const n of oldNames) secrets.delete(n);
        r.secretsMapping = newMapping;
        writeSecrets(r);
      }
      r.nextRotationAt = r.rotationStatus === "failed" ? nextRotationAt(r, true) : nextRotationAt(r);
      r.updatedAt = store.writeTime(r);
      recordEvent(ctx, req, actor, "update-secret-rotation", meta(r), r.projectId);
      return { secretRotation: view(r) };
    });

    route(app, ops.delete, async (req) => {
      const actor = actorOf(req);
      const { deleteSecrets, revokeGeneratedCredentials } = req.query;
      const r = find(req, req.params.rotationId, "delete");
      const deleted = view(r);
      if (deleteSecrets) {
        const secrets = store.folderSecrets(r.folderId);
        for (const n of Object.values(r.secretsMapping)) secrets.delete(n);
      }
      // revokeGeneratedCredentials: the credentials are revoked at the provider; the emulator
      // has no provider, so it only drops them with the rotation.
      store.rotations.delete(r.id);
      recordEvent(
        ctx,
        req,
        actor,
        "delete-secret-rotation",
        { ...meta(r), deleteSecrets, revokeGeneratedCredentials },
        r.projectId,
      );
      return { secretRotation: deleted };
    });

    route(app, ops.rotate, async (req) => {
      const actor = actorOf(req);
      const r = find(req, req.params.rotationId, "rotate-secrets");
      const index = 1 - r.activeIndex;
      const creds = generateCredentials(type, r.parameters, index);
      const now = store.writeTime(r);
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
      writeSecrets(r);
      recordEvent(ctx, req, actor, "secret-rotation-rotate-secrets", meta(r), r.projectId);
      return { secretRotation: view(r) };
    });

    route(app, ops.generatedCredentials, async (req) => {
      const actor = actorOf(req);
      const r = find(req, req.params.rotationId, "read-generated-credentials");
      recordEvent(ctx, req, actor, "get-secret-rotation-generated-credentials", meta(r), r.projectId);
      return {
        generatedCredentials: r.generatedCredentials,
        activeIndex: r.activeIndex,
        rotationId: r.id,
        type: r.type,
      };
    });
  }
}
