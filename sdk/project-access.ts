import type { Transport } from "./http";
import type {
  IdentityMembershipCreate,
  IdentityMembershipRecord,
  IdentityMembershipUpdate,
} from "./schemas/project-memberships";
import type { ProjectRoleCreate, ProjectRoleRecord, ProjectRoleUpdate } from "./schemas/project-roles";
// The family's own rows only: a process serving roles and memberships loads no other family's tables.
import { identityMembershipOperations, projectRoleOperations } from "./schemas/operations/project-access";

/** The service's largest page of a project's identity memberships: a project's list in one call. */
const MEMBERSHIP_PAGE = 20000;

/** A project's custom roles (docs/service-api.md §19). */
export class ProjectRolesApi {
  constructor(private readonly t: Transport) {}

  /** Every custom role of the project, in one call; the service's list has no permissions. */
  async list(projectId: string): Promise<ProjectRoleRecord[]> {
    return (await this.t.call(projectRoleOperations.list, { params: { projectId } })).roles;
  }
  /** One role with its permissions. */
  async getBySlug(projectId: string, roleSlug: string): Promise<ProjectRoleRecord> {
    return (await this.t.call(projectRoleOperations.getBySlug, { params: { projectId, roleSlug } })).role;
  }
  async create(projectId: string, body: ProjectRoleCreate): Promise<ProjectRoleRecord> {
    return (await this.t.call(projectRoleOperations.create, { params: { projectId }, body })).role;
  }
  async update(projectId: string, roleId: string, body: ProjectRoleUpdate): Promise<ProjectRoleRecord> {
    return (await this.t.call(projectRoleOperations.update, { params: { projectId, roleId }, body })).role;
  }
  async delete(projectId: string, roleId: string): Promise<ProjectRoleRecord> {
    return (await this.t.call(projectRoleOperations.delete, { params: { projectId, roleId } })).role;
  }
}

/** Identities' memberships of a project, one per identity and project (docs/service-api.md §19). */
export class IdentityMembershipsApi {
  constructor(private readonly t: Transport) {}

  /** Every identity membership of the project, with roles, in one call. */
  async list(projectId: string): Promise<IdentityMembershipRecord[]> {
    const answer = await this.t.call(identityMembershipOperations.list, {
      params: { projectId },
      query: { offset: 0, limit: MEMBERSHIP_PAGE },
    });
    return answer.identityMemberships.map((m) => ({ ...m, projectId: m.projectId ?? projectId }));
  }
  async get(projectId: string, identityId: string): Promise<IdentityMembershipRecord> {
    const { identityMembership } = await this.t.call(identityMembershipOperations.get, {
      params: { projectId, identityId },
    });
    return { ...identityMembership, projectId: identityMembership.projectId ?? projectId };
  }
  /** The service's create answer has no roles: the membership is read back with them. */
  async create(
    projectId: string,
    identityId: string,
    body: IdentityMembershipCreate,
  ): Promise<IdentityMembershipRecord> {
    await this.t.call(identityMembershipOperations.create, { params: { projectId, identityId }, body });
    return this.get(projectId, identityId);
  }
  /** Replaces the whole role list (one PATCH); the answer has the roles only, so the membership is read back. */
  async update(
    projectId: string,
    identityId: string,
    body: IdentityMembershipUpdate,
  ): Promise<IdentityMembershipRecord> {
    await this.t.call(identityMembershipOperations.update, { params: { projectId, identityId }, body });
    return this.get(projectId, identityId);
  }
  /** The deleted membership, without its roles. */
  async delete(projectId: string, identityId: string): Promise<IdentityMembershipRecord> {
    const { identityMembership } = await this.t.call(identityMembershipOperations.delete, {
      params: { projectId, identityId },
    });
    return { ...identityMembership, projectId: identityMembership.projectId ?? projectId };
  }
}
