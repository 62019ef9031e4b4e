import { z } from "zod";
import {
  type RotationTypeSlug,
  type SecretRotation as RemoteRotation,
  rotationType,
  rotationTypeSlugs,
  secretRotationCreateSchema,
  secretRotationOperations,
  unknownKindRule,
} from "../sdk/schemas";
import type { SecretOpsClient, SecretRotationCreateInput } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { familyReads } from "./shared-reads";
import { type ArgsOf } from "./inputs";
import { isPlainObject } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing rotation with this name in the folder instead of failing. With the TypeScript classes (dynamic providers), which `pulumi import` cannot import, this is how an object made elsewhere is taken over; through the native provider, `pulumi import` works too. Default false. */
  adoptExisting: z.boolean().default(false),
  /** On delete, also delete the secrets the rotation wrote. Default false: they stay. */
  deleteSecrets: z.boolean().default(false),
  /** On delete, revoke the generated credentials at the provider first. Default false: they stay valid. */
  revokeGeneratedCredentials: z.boolean().default(false),
});

/**
 * Args of a rotation of type `T` (by default any: the union of each type's args, discriminated by
 * `type`, the rotation type's real slug): from the create body's schema and the options'.
 */
export type SecretRotationArgs<T extends RotationTypeSlug = RotationTypeSlug> = T extends RotationTypeSlug
  ? ArgsOf<SecretRotationCreateInput<T>> &
      ArgsOf<z.input<typeof options>> & {
        /** The rotation type's real slug: selects the typed args. Changing it replaces the rotation. */
        type: T;
      }
  : never;

/** Fields every secret rotation has, whatever its type, and the provider options. */
export type SecretRotationCommonArgs = Omit<SecretRotationArgs, "type" | "parameters" | "secretsMapping">;

/**
 * A rotation replacing another writes its secrets where the other left them: the same folder and
 * at least one of the same secret names. The service refuses to create a rotation over existing
 * secrets, so the one being replaced takes its secrets with it (whatever `deleteSecrets` says);
 * its successor writes them anew straight after. Elsewhere, `deleteSecrets` decides as on destroy.
 */
function takesOverSecrets(outs: RotationArgs, successor: RotationArgs): boolean {
  const samePlace = (["projectId", "environment", "secretPath"] as const).every((k) => outs[k] === successor[k]);
  const names = (mapping: unknown) => (isPlainObject(mapping) ? Object.values(mapping) : []);
  const before = new Set(names(outs.secretsMapping));
  return samePlace && names(successor.secretsMapping).some((n) => before.has(n));
}

/**
 * The service's refusal to create a rotation over existing secrets, with what to do: such secrets
 * are most often what a rotation destroyed with `deleteSecrets: false` (the default) left behind.
 */
function leftoverSecrets(e: unknown): Error | undefined {
  if (!(e instanceof SecretOpsApiError) || !/secrets already exist at the path/i.test(e.message)) return undefined;
  return new Error(
    `secretsMapping: ${e.message.replace(/\.$/, "")}. A rotation writes only secrets it creates; these are ` +
      `most likely left by a rotation deleted with deleteSecrets: false (the default). Delete those secrets ` +
      `(or move them) and run the update again, or map other secret names`,
  );
}

/** A rotation's args as `check` made them: its type's create body's schema's output, and its type. */
type RotationArgs = z.output<ReturnType<typeof secretRotationCreateSchema>> & { type: RotationTypeSlug };
type RotationOptions = z.output<typeof options>;

/**
 * The SDK's rotation client for a type known only at run time. The SDK types each type's body on
 * its own; `check` has validated these args against their type's schema, so this file calls it
 * through this view (its one cast).
 */
interface AnyTypeRotations {
  get(type: RotationTypeSlug, id: string): Promise<RemoteRotation>;
  getByName(
    type: RotationTypeSlug,
    name: string,
    where: { projectId: string; environment: string; secretPath: string },
  ): Promise<RemoteRotation>;
  create(type: RotationTypeSlug, body: Omit<RotationArgs, "type">): Promise<RemoteRotation>;
  update(type: RotationTypeSlug, id: string, body: Partial<RotationArgs>): Promise<RemoteRotation>;
  delete(
    type: RotationTypeSlug,
    id: string,
    opts: { deleteSecrets: boolean; revokeGeneratedCredentials: boolean },
  ): Promise<RemoteRotation>;
}
const rotations = (client: SecretOpsClient) => client.secretRotations as unknown as AnyTypeRotations;

/**
 * A secret rotation: replaces a credential in an external system on a schedule and writes the
 * new values into secrets. Replaced when `projectId`, `connectionId`, `environment`,
 * `secretPath` or `type` changes (delete first: names are unique per folder).
 */
export const secretRotationDefinition = defineResource<RemoteRotation, RotationArgs, RotationOptions>()({
  type: "SecretRotation",
  kindField: "type",
  schemas(args) {
    const row = typeof args.type === "string" ? rotationType(args.type) : undefined;
    if (!row) return unknownKindRule("rotation type", args.type, rotationTypeSlugs);
    const ops = secretRotationOperations(row);
    return { args: ops.create.body, update: ops.update.body };
  },
  options,
  deleteBeforeReplace: true,
  // The service keeps the rotation's folder by id: renaming it (or its environment) moves the rotation.
  inTree: { pathField: "secretPath" },
  absentMeans: { description: null },
  reported: {
    name: (r) => r.name,
    projectId: (r) => r.projectId,
    connectionId: (r) => r.connectionId,
    environment: (r) => r.environment?.slug,
    secretPath: (r) => r.folder?.path,
    type: (r) => r.type,
    rotationInterval: (r) => r.rotationInterval,
    rotateAtUtc: (r) => r.rotateAtUtc,
    parameters: (r) => r.parameters,
    secretsMapping: (r) => r.secretsMapping,
    description: (r) => r.description,
    isAutoRotationEnabled: (r) => r.isAutoRotationEnabled,
  },
  computed: {
    /** `success` or `failed`. */
    rotationStatus: (r) => r.rotationStatus,
    /** Which of the two credential sets is active: 0 or 1. */
    activeIndex: (r) => r.activeIndex,
    /** Absent (null at the service) when auto-rotation is off. */
    nextRotationAt: (r) => r.nextRotationAt,
    lastRotatedAt: (r) => r.lastRotatedAt,
    lastRotationMessage: (r) => r.lastRotationMessage,
    folderId: (r) => r.folderId,
    createdAt: (r) => r.createdAt,
    updatedAt: (r) => r.updatedAt,
  },

  async create(client, args) {
    try {
      // The type is the route's; the body is the rest.
      const { type, ...body } = args;
      return await rotations(client).create(type, body);
    } catch (e) {
      throw leftoverSecrets(e) ?? e;
    }
  },
  find: (client, args) =>
    orUndefinedOn404(
      rotations(client).getByName(args.type, args.name, {
        projectId: args.projectId,
        environment: args.environment,
        secretPath: args.secretPath,
      }),
    ),
  read: (client, id, outs) => orUndefinedOn404(rotations(client).get(outs.type, id)),
  listed: {
    scopeOf: (outs) => outs.projectId,
    reads: familyReads((client, projectId) => client.secretRotations.listAll(projectId)),
  },
  update: (client, id, patch, outs) => rotations(client).update(outs.type, id, patch),
  async delete(client, id, outs, successor) {
    await rotations(client).delete(outs.type, id, {
      deleteSecrets: outs.deleteSecrets === true || (successor !== undefined && takesOverSecrets(outs, successor)),
      revokeGeneratedCredentials: outs.revokeGeneratedCredentials === true,
    });
  },
});
