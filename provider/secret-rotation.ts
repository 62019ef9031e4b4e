import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  RotateAtUtc,
  RotationTypeSlug,
  SecretRotation as RemoteRotation,
  rotationType,
  rotationTypes,
  secretRotationCreateSchema,
} from "../sdk/schemas";
import type { RotationParametersInput, SecretsMappingInput } from "../sdk";
import { orUndefinedOn404 } from "./not-found";
import { DeepInput, TYPE_MODULE, registerProps, serializedProvider, withSecretOutputs } from "./resource";
import { Family } from "./scaffold";

/** Fields every secret rotation has, whatever its type (spec 4.3). */
export interface SecretRotationCommonArgs {
  /** Rotation name: 1 to 64 characters, lowercase letters, digits and single hyphens. Unique in its folder; renaming updates in place. */
  name: pulumi.Input<string>;
  /** The project (at least 1 character). Changing it replaces the rotation. */
  projectId: pulumi.Input<string>;
  /** UUID of an app connection of the type's kind. Changing it replaces the rotation. */
  connectionId: pulumi.Input<string>;
  /** Slug of the environment the secrets are written to, 1 to 64 characters. Changing it replaces the rotation. */
  environment: pulumi.Input<string>;
  /** Folder the secrets are written to, at least 1 character. Changing it replaces the rotation. */
  secretPath: pulumi.Input<string>;
  /** Days between rotations, at least 1. */
  rotationInterval: pulumi.Input<number>;
  /** UTC time of day to rotate at: `hours` 0 to 23, `minutes` 0 to 59. Default 00:00. */
  rotateAtUtc?: DeepInput<RotateAtUtc>;
  /** At most 256 characters. */
  description?: pulumi.Input<string | null>;
  /** Rotate on schedule. Default true. */
  isAutoRotationEnabled?: pulumi.Input<boolean>;

  // Provider options: never sent to the service.
  /** Take over an existing rotation with this name in the folder instead of failing. The import path for dynamic resources. Default false. */
  adoptExisting?: pulumi.Input<boolean>;
  /** On delete, also delete the secrets the rotation wrote. Default false: they stay. */
  deleteSecrets?: pulumi.Input<boolean>;
  /** On delete, revoke the generated credentials at the provider first. Default false: they stay valid. */
  revokeGeneratedCredentials?: pulumi.Input<boolean>;
}

/** Args discriminated by `type`, the rotation type's real slug. */
export type SecretRotationArgs = {
  [T in RotationTypeSlug]: SecretRotationCommonArgs & {
    /** The rotation type. Changing it replaces the rotation. */
    type: T;
    /** Type-specific parameters. SQL types: `username1`, `username2` (two existing users used alternately), `rotationStatement?` (must use `{{username}}` and `{{password}}`), `passwordRequirements?` (length 1 to 250). */
    parameters: DeepInput<RotationParametersInput<T>>;
    /** Names of the secrets the credentials are written to (no `:` or `/`). */
    secretsMapping: DeepInput<SecretsMappingInput<T>>;
  };
}[RotationTypeSlug];

const options = z.object({
  adoptExisting: z.boolean().default(false),
  deleteSecrets: z.boolean().default(false),
  revokeGeneratedCredentials: z.boolean().default(false),
});

export const secretRotationFamily: Family<RemoteRotation> = {
  name: "SecretRotation",
  kindField: "type",
  schema: (args) => {
    const row = typeof args.type === "string" ? rotationType(args.type) : undefined;
    return row ? secretRotationCreateSchema(row) : `type must be one of ${Object.keys(rotationTypes).join(", ")}`;
  },
  options,
  replaceOnChange: ["projectId", "connectionId", "environment", "secretPath", "type"],
  deleteBeforeReplace: true,
  secretPaths: () => [],
  clearable: { description: null },
  project: (r) => ({
    name: r.name,
    projectId: r.projectId,
    connectionId: r.connectionId,
    environment: r.environment?.slug,
    secretPath: r.folder?.path,
    type: r.type,
    rotationInterval: r.rotationInterval,
    rotateAtUtc: r.rotateAtUtc,
    parameters: r.parameters,
    secretsMapping: r.secretsMapping,
    description: r.description,
    isAutoRotationEnabled: r.isAutoRotationEnabled,
  }),
  computed: (r) => ({
    rotationStatus: r.rotationStatus,
    activeIndex: r.activeIndex,
    nextRotationAt: r.nextRotationAt,
    lastRotatedAt: r.lastRotatedAt,
    lastRotationMessage: r.lastRotationMessage,
    folderId: r.folderId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }),

  create: (client, args) => client.secretRotations.create(args.type as RotationTypeSlug, args as never),
  findExisting: (client, args) =>
    orUndefinedOn404(
      client.secretRotations.getByName(args.type as RotationTypeSlug, args.name as string, {
        projectId: args.projectId as string,
        environment: args.environment as string,
        secretPath: args.secretPath as string,
      }),
    ),
  read: (client, id, outs) => orUndefinedOn404(client.secretRotations.get(outs.type as RotationTypeSlug, id)),
  update: (client, id, patch, outs) => client.secretRotations.update(outs.type as RotationTypeSlug, id, patch as never),
  async delete(client, id, outs) {
    await client.secretRotations.delete(outs.type as RotationTypeSlug, id, {
      deleteSecrets: outs.deleteSecrets === true,
      revokeGeneratedCredentials: outs.revokeGeneratedCredentials === true,
    });
  },
};

const outputNames = [
  "name",
  "projectId",
  "connectionId",
  "environment",
  "secretPath",
  "type",
  "rotationInterval",
  "rotateAtUtc",
  "parameters",
  "secretsMapping",
  "description",
  "isAutoRotationEnabled",
  "rotationStatus",
  "activeIndex",
  "nextRotationAt",
  "lastRotatedAt",
  "lastRotationMessage",
  "folderId",
  "createdAt",
  "updatedAt",
] as const;

/**
 * A secret rotation: replaces a credential in an external system on a schedule and writes the
 * new values into secrets. Replaced when `projectId`, `connectionId`, `environment`,
 * `secretPath` or `type` changes (delete first: names are unique per folder).
 */
export class SecretRotation extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly projectId: pulumi.Output<string>;
  declare readonly connectionId: pulumi.Output<string>;
  declare readonly environment: pulumi.Output<string>;
  declare readonly secretPath: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly rotationInterval: pulumi.Output<number>;
  declare readonly rotateAtUtc: pulumi.Output<RotateAtUtc>;
  declare readonly parameters: pulumi.Output<Record<string, unknown>>;
  declare readonly secretsMapping: pulumi.Output<Record<string, string>>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly isAutoRotationEnabled: pulumi.Output<boolean>;
  /** `success` or `failed`. */
  declare readonly rotationStatus: pulumi.Output<string | null>;
  /** Which of the two credential sets is active: 0 or 1. */
  declare readonly activeIndex: pulumi.Output<number>;
  /** Null when auto-rotation is off. */
  declare readonly nextRotationAt: pulumi.Output<string | null>;
  declare readonly lastRotatedAt: pulumi.Output<string | null>;
  declare readonly lastRotationMessage: pulumi.Output<string | null>;
  declare readonly folderId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: SecretRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      serializedProvider("SecretRotation"),
      name,
      registerProps(args, [], outputNames),
      withSecretOutputs(opts, []),
      TYPE_MODULE,
      "SecretRotation",
    );
  }
}
