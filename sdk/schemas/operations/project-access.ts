import {
  ProjectRoleCreateSchema,
  ProjectRoleEnvelope,
  ProjectRoleListEnvelope,
  ProjectRoleParams,
  ProjectRoleSlugParams,
  ProjectRolesParams,
  ProjectRoleUpdateSchema,
} from "../project-roles";
import {
  IdentityMembershipCreateSchema,
  IdentityMembershipUpdateSchema,
  identityMembershipRules,
  ProjectIdentityMembershipEnvelope,
  ProjectIdentityMembershipListEnvelope,
  ProjectIdentityMembershipListQuery,
  ProjectIdentityMembershipParams,
  ProjectIdentityMembershipRolesEnvelope,
  ProjectIdentityMembershipsParams,
} from "../project-memberships";
import { apiPaths } from "../paths";
import { op } from "./operation";

/**
 * A project's custom roles (docs/service-api.md §19; `ee/routes/v1/project-role-router.ts`): listed
 * without their permissions, read by slug with them, changed and deleted by id.
 */
export const projectRoleOperations = {
  list: op({
    method: "GET",
    path: apiPaths.projectRoles,
    params: ProjectRolesParams,
    response: ProjectRoleListEnvelope,
  }),
  getBySlug: op({
    method: "GET",
    path: `${apiPaths.projectRoles}/slug/:roleSlug`,
    params: ProjectRoleSlugParams,
    response: ProjectRoleEnvelope,
  }),
  create: op({
    method: "POST",
    path: apiPaths.projectRoles,
    params: ProjectRolesParams,
    body: ProjectRoleCreateSchema,
    response: ProjectRoleEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${apiPaths.projectRoles}/:roleId`,
    params: ProjectRoleParams,
    body: ProjectRoleUpdateSchema,
    response: ProjectRoleEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${apiPaths.projectRoles}/:roleId`,
    params: ProjectRoleParams,
    response: ProjectRoleEnvelope,
  }),
};

/**
 * An identity's membership of a project (docs/service-api.md §19;
 * `server/routes/v1/identity-project-router.ts`): one per identity and project, addressed by both.
 * The PATCH replaces the whole role list and answers the new roles only.
 */
export const identityMembershipOperations = {
  list: op({
    method: "GET",
    path: apiPaths.projectIdentityMemberships,
    params: ProjectIdentityMembershipsParams,
    query: ProjectIdentityMembershipListQuery,
    response: ProjectIdentityMembershipListEnvelope,
  }),
  get: op({
    method: "GET",
    path: `${apiPaths.projectIdentityMemberships}/:identityId`,
    params: ProjectIdentityMembershipParams,
    response: ProjectIdentityMembershipEnvelope,
  }),
  create: op({
    method: "POST",
    path: `${apiPaths.projectIdentityMemberships}/:identityId`,
    params: ProjectIdentityMembershipParams,
    body: IdentityMembershipCreateSchema,
    rules: identityMembershipRules,
    response: ProjectIdentityMembershipEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${apiPaths.projectIdentityMemberships}/:identityId`,
    params: ProjectIdentityMembershipParams,
    body: IdentityMembershipUpdateSchema,
    rules: identityMembershipRules,
    response: ProjectIdentityMembershipRolesEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${apiPaths.projectIdentityMemberships}/:identityId`,
    params: ProjectIdentityMembershipParams,
    response: ProjectIdentityMembershipEnvelope,
  }),
};
