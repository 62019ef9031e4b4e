import { z } from "zod";
import { type Transport, segment } from "./http";
import { perRow, requireRow } from "./rows";
import {
  type RotationType,
  type RotationTypeSlug,
  type SecretRotation,
  GeneratedCredentialsResponseSchema,
  SecretRotationByNameQuery,
  SecretRotationDeleteQuery,
  SecretRotationEnvelope,
  SecretRotationListEnvelope,
  SecretRotationListQuery,
  apiPaths,
  nonEmpty,
  rotationType,
  rotationTypeSlugs,
  secretRotationCreateSchema,
  secretRotationUpdateSchema,
  uuid,
} from "./schemas";
import type { GeneratedCredentials, SecretRotationCreateInput, SecretRotationUpdateInput } from "./types";

/** Secret rotations v2 (spec 4.3; reference §3 for reads, delete, rotate and generated credentials). */

const createSchema = perRow((r: RotationType) => secretRotationCreateSchema(r));
const updateSchema = perRow((r: RotationType) => secretRotationUpdateSchema(r));
/** The shared response schema, with each credential set checked against the type's own shape. */
const generatedSchema = perRow((r: RotationType) =>
  GeneratedCredentialsResponseSchema.extend({ generatedCredentials: z.array(r.generatedCredentials).min(1).max(2) }),
);

export interface GeneratedCredentialsResult<T extends RotationTypeSlug> {
  /** One or two sets (the active one and the previous one); they are secrets. */
  generatedCredentials: GeneratedCredentials<T>[];
  activeIndex: number;
  rotationId: string;
  type: string;
}

export class SecretRotationsApi {
  constructor(private readonly t: Transport) {}

  private row(type: string): RotationType {
    return requireRow(rotationType, type, "type", rotationTypeSlugs);
  }

  async list<T extends RotationTypeSlug>(type: T, projectId: string): Promise<SecretRotation[]> {
    this.row(type);
    const res = await this.t.request({
      method: "GET",
      path: apiPaths.secretRotations(type),
      query: { projectId },
      querySchema: SecretRotationListQuery,
      responseSchema: SecretRotationListEnvelope,
    });
    return res.secretRotations;
  }

  async get<T extends RotationTypeSlug>(type: T, id: string): Promise<SecretRotation> {
    this.row(type);
    const res = await this.t.request({
      method: "GET",
      path: `${apiPaths.secretRotations(type)}/${segment(id)}`,
      params: { rotationId: [id, uuid] },
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  /** Find by name: rotation names are unique per folder, so the folder is part of the key. */
  async getByName<T extends RotationTypeSlug>(
    type: T,
    name: string,
    where: { projectId: string; environment: string; secretPath: string },
  ): Promise<SecretRotation> {
    this.row(type);
    const res = await this.t.request({
      method: "GET",
      path: `${apiPaths.secretRotations(type)}/rotation-name/${segment(name)}`,
      params: { name: [name, nonEmpty] },
      query: where,
      querySchema: SecretRotationByNameQuery,
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  /** Create issues the first credentials synchronously (reference §3). */
  async create<T extends RotationTypeSlug>(type: T, body: SecretRotationCreateInput<T>): Promise<SecretRotation> {
    const row = this.row(type);
    const res = await this.t.request({
      method: "POST",
      path: apiPaths.secretRotations(type),
      body,
      bodySchema: createSchema(row),
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  async update<T extends RotationTypeSlug>(
    type: T,
    id: string,
    body: SecretRotationUpdateInput<T>,
  ): Promise<SecretRotation> {
    const row = this.row(type);
    const res = await this.t.request({
      method: "PATCH",
      path: `${apiPaths.secretRotations(type)}/${segment(id)}`,
      params: { rotationId: [id, uuid] },
      body,
      bodySchema: updateSchema(row),
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  /** Both flags default to false. Returns the rotation as it was before deletion. */
  async delete<T extends RotationTypeSlug>(
    type: T,
    id: string,
    opts: { deleteSecrets?: boolean; revokeGeneratedCredentials?: boolean } = {},
  ): Promise<SecretRotation> {
    this.row(type);
    const res = await this.t.request({
      method: "DELETE",
      path: `${apiPaths.secretRotations(type)}/${segment(id)}`,
      params: { rotationId: [id, uuid] },
      query: opts,
      querySchema: SecretRotationDeleteQuery,
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  /**
   * Rotate now (synchronous on the service). Not repeated after a 5xx or timeout: a second
   * rotation would retire the credentials the first one just issued. Such a failure is
   * `ambiguous`; read the rotation to see `lastRotatedAt`/`rotationStatus`.
   */
  async rotate<T extends RotationTypeSlug>(type: T, id: string): Promise<SecretRotation> {
    this.row(type);
    const res = await this.t.request({
      method: "POST",
      path: `${apiPaths.secretRotations(type)}/${segment(id)}/rotate-secrets`,
      params: { rotationId: [id, uuid] },
      responseSchema: SecretRotationEnvelope,
    });
    return res.secretRotation;
  }

  /** The current (and previous) credentials. The result holds secrets: do not log it. */
  async generatedCredentials<T extends RotationTypeSlug>(type: T, id: string): Promise<GeneratedCredentialsResult<T>> {
    const row = this.row(type);
    const res = await this.t.request({
      method: "GET",
      path: `${apiPaths.secretRotations(type)}/${segment(id)}/generated-credentials`,
      params: { rotationId: [id, uuid] },
      responseSchema: generatedSchema(row),
    });
    return res as GeneratedCredentialsResult<T>;
  }
}
