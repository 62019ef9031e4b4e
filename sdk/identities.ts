import type { Transport } from "./http";
import {
  type ClientSecretCreate,
  type ClientSecretData,
  type Identity,
  type IdentityAuth,
  type IdentityAuthMethodRow,
  type IdentityCreate,
  type IdentityMembership,
  type IdentityUpdate,
  clientSecretOperations,
  identityAuthMethodRow,
  identityAuthOperations,
  identityOperations,
  projectIdentityOperations,
  tokenAuthOperations,
} from "./schemas";
import { SecretOpsError } from "./errors";

/**
 * A machine identity as this package reads it, whichever route answered: an organization's
 * (`role` from its membership; a custom role by its slug) or a project's own (`projectId`, no role).
 */
export type MachineIdentityRecord = Identity & { role?: string };

/** The identity of a membership answer (GET /api/v1/identities/{id}), with its role and metadata. */
export function fromMembership(m: IdentityMembership): MachineIdentityRecord {
  const role = m.role === "custom" && m.customRole ? m.customRole.slug : m.role;
  return { ...m.identity, role, metadata: m.metadata ?? m.identity.metadata ?? [] };
}

/**
 * Machine identities (docs/service-api.md §18): an organization's (`/api/v1/identities`) and a
 * project's own (`/api/v1/projects/{projectId}/identities`).
 */
export class IdentitiesApi {
  constructor(private readonly t: Transport) {}

  async get(identityId: string): Promise<MachineIdentityRecord> {
    return fromMembership((await this.t.call(identityOperations.get, { params: { identityId } })).identity);
  }
  /** Every identity of the organization, in one call. */
  async list(orgId: string): Promise<MachineIdentityRecord[]> {
    return (await this.t.call(identityOperations.list, { query: { orgId } })).identities.map(fromMembership);
  }
  /** The answer has no role: the one sent is the one stored. */
  async create(body: IdentityCreate): Promise<MachineIdentityRecord> {
    const { identity } = await this.t.call(identityOperations.create, { body });
    return { ...identity, role: body.role ?? "no-access" };
  }
  async update(identityId: string, body: IdentityUpdate): Promise<Identity> {
    return (await this.t.call(identityOperations.update, { params: { identityId }, body })).identity;
  }
  async delete(identityId: string): Promise<Identity> {
    return (await this.t.call(identityOperations.delete, { params: { identityId } })).identity;
  }

  // A project's own identities.
  async getInProject(projectId: string, identityId: string): Promise<MachineIdentityRecord> {
    return (await this.t.call(projectIdentityOperations.get, { params: { projectId, identityId } })).identity;
  }
  async listInProject(projectId: string, query: { offset?: number; limit?: number; search?: string } = {}) {
    return this.t.call(projectIdentityOperations.list, { params: { projectId }, query });
  }
  async createInProject(
    projectId: string,
    body: { name: string; hasDeleteProtection?: boolean; metadata?: { key: string; value: string }[] },
  ): Promise<MachineIdentityRecord> {
    return (await this.t.call(projectIdentityOperations.create, { params: { projectId }, body })).identity;
  }
  async updateInProject(
    projectId: string,
    identityId: string,
    body: { name?: string; hasDeleteProtection?: boolean; metadata?: { key: string; value: string }[] },
  ): Promise<MachineIdentityRecord> {
    return (await this.t.call(projectIdentityOperations.update, { params: { projectId, identityId }, body })).identity;
  }
  async deleteInProject(projectId: string, identityId: string): Promise<Identity> {
    return (await this.t.call(projectIdentityOperations.delete, { params: { projectId, identityId } })).identity;
  }
}

function rowOf(method: string): IdentityAuthMethodRow {
  const row = identityAuthMethodRow(method);
  if (!row) throw new SecretOpsError(`unknown identity auth method "${method}"`);
  return row;
}

/**
 * An identity's login methods, one row of `identityAuthMethods` each. The SDK types each method's
 * body from its row; the method is a string here because callers (the provider) know it at run time.
 */
export class IdentityAuthsApi {
  constructor(private readonly t: Transport) {}

  #unwrap(row: IdentityAuthMethodRow, answer: Record<string, unknown>): IdentityAuth {
    return answer[row.responseKey] as IdentityAuth;
  }
  async attach(method: string, identityId: string, body: Record<string, unknown>): Promise<IdentityAuth> {
    const row = rowOf(method);
    return this.#unwrap(row, await this.t.call(identityAuthOperations(row).attach, { params: { identityId }, body }));
  }
  async get(method: string, identityId: string): Promise<IdentityAuth> {
    const row = rowOf(method);
    return this.#unwrap(row, await this.t.call(identityAuthOperations(row).get, { params: { identityId } }));
  }
  async update(method: string, identityId: string, body: Record<string, unknown>): Promise<IdentityAuth> {
    const row = rowOf(method);
    return this.#unwrap(row, await this.t.call(identityAuthOperations(row).update, { params: { identityId }, body }));
  }
  async revoke(method: string, identityId: string): Promise<IdentityAuth> {
    const row = rowOf(method);
    return this.#unwrap(row, await this.t.call(identityAuthOperations(row).revoke, { params: { identityId } }));
  }

  /** Universal auth: a new client secret. The answer is the only time the service shows the secret. */
  async createClientSecret(
    identityId: string,
    body: ClientSecretCreate = {},
  ): Promise<{ clientSecret: string; clientSecretData: ClientSecretData }> {
    return this.t.call(clientSecretOperations.create, { params: { identityId }, body });
  }
  async getClientSecret(identityId: string, clientSecretId: string): Promise<ClientSecretData> {
    return (await this.t.call(clientSecretOperations.get, { params: { identityId, clientSecretId } })).clientSecretData;
  }
  async listClientSecrets(identityId: string): Promise<ClientSecretData[]> {
    return (await this.t.call(clientSecretOperations.list, { params: { identityId } })).clientSecretData;
  }
  async revokeClientSecret(identityId: string, clientSecretId: string): Promise<ClientSecretData> {
    return (await this.t.call(clientSecretOperations.revoke, { params: { identityId, clientSecretId } }))
      .clientSecretData;
  }

  /** Token auth: an access token for the identity, made by this client's caller. */
  async createToken(identityId: string, name?: string) {
    return this.t.call(tokenAuthOperations.createToken, { params: { identityId }, body: { name } });
  }
}
