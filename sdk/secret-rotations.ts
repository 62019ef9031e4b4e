import type { Transport } from "./http";
import { requireRow } from "./rows";
import {
  type RotationTypeSlug,
  type SecretRotation,
  type SecretRotationOption,
  allSecretRotationOperations,
  rotationType,
  rotationTypeSlugs,
  secretRotationOperations,
  secretRotationOptionOperations,
} from "./schemas";
import type { GeneratedCredentials, SecretRotationCreateInput, SecretRotationUpdateInput } from "./types";

export interface GeneratedCredentialsResult<T extends RotationTypeSlug> {
  /** One or two sets (the active one and the previous one); they are secrets. */
  generatedCredentials: GeneratedCredentials<T>[];
  activeIndex: number;
  rotationId: string;
  type: string;
}

/** Secret rotations: one client for every type, each call one row of `secretRotationOperations`. */
export class SecretRotationsApi {
  constructor(private readonly t: Transport) {}

  private ops(type: string) {
    return secretRotationOperations(requireRow(rotationType, type, "type", rotationTypeSlugs));
  }

  async list<T extends RotationTypeSlug>(type: T, projectId: string): Promise<SecretRotation[]> {
    return (await this.t.call(this.ops(type).list, { query: { projectId } })).secretRotations;
  }

  /** The project's rotations of every type, in one call (one read of the rate limit). */
  async listAll(projectId: string): Promise<SecretRotation[]> {
    return (await this.t.call(allSecretRotationOperations.list, { query: { projectId } })).secretRotations;
  }

  /**
   * The rotation types the server offers, sorted by name: each one's slug, name and connection
   * kind (`GET /api/v2/secret-rotations/options`). One read; it takes no project. A type newer
   * than this package is listed too.
   */
  async listOptions(): Promise<SecretRotationOption[]> {
    return (await this.t.call(secretRotationOptionOperations.list, {})).secretRotationOptions;
  }

  async get<T extends RotationTypeSlug>(type: T, id: string): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).get, { params: { rotationId: id } })).secretRotation;
  }

  /**
   * Find by name: rotation names are unique per folder, so the folder is part of the key. A folder
   * that does not exist is the service's 400, not a 404.
   */
  async getByName<T extends RotationTypeSlug>(
    type: T,
    name: string,
    where: { projectId: string; environment: string; secretPath: string },
  ): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).getByName, { params: { rotationName: name }, query: where }))
      .secretRotation;
  }

  /** Create issues the first credentials synchronously. */
  async create<T extends RotationTypeSlug>(type: T, body: SecretRotationCreateInput<T>): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).create, { body })).secretRotation;
  }

  async update<T extends RotationTypeSlug>(
    type: T,
    id: string,
    body: SecretRotationUpdateInput<T>,
  ): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).update, { params: { rotationId: id }, body })).secretRotation;
  }

  /** Both flags default to false. Returns the rotation as it was before deletion. */
  async delete<T extends RotationTypeSlug>(
    type: T,
    id: string,
    opts: { deleteSecrets?: boolean; revokeGeneratedCredentials?: boolean } = {},
  ): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).delete, { params: { rotationId: id }, query: opts })).secretRotation;
  }

  /**
   * Rotate now (synchronous on the service). Not repeated after a 5xx or timeout: a second
   * rotation would retire the credentials the first one just issued. Such a failure is
   * `ambiguous`; read the rotation to see `lastRotatedAt`/`rotationStatus`.
   */
  async rotate<T extends RotationTypeSlug>(type: T, id: string): Promise<SecretRotation> {
    return (await this.t.call(this.ops(type).rotate, { params: { rotationId: id } })).secretRotation;
  }

  /** The current (and previous) credentials. The result holds secrets: do not log it. */
  async generatedCredentials<T extends RotationTypeSlug>(type: T, id: string): Promise<GeneratedCredentialsResult<T>> {
    return (await this.t.call(this.ops(type).generatedCredentials, {
      params: { rotationId: id },
    })) as GeneratedCredentialsResult<T>;
  }
}
