import {
  ClientSecretCreatedSchema,
  ClientSecretCreateSchema,
  ClientSecretEnvelope,
  ClientSecretListEnvelope,
  ClientSecretParams,
  IdentityAuthParams,
  type IdentityAuthMethodRow,
  IdentityCreateSchema,
  IdentityEnvelope,
  IdentityListEnvelope,
  IdentityListQuery,
  IdentityMembershipEnvelope,
  IdentityParams,
  IdentityUpdateSchema,
  ProjectIdentityCreateSchema,
  ProjectIdentityItemParams,
  ProjectIdentityListEnvelope,
  ProjectIdentityListQuery,
  ProjectIdentityParams,
  ProjectIdentityUpdateSchema,
  TokenAuthTokenCreatedSchema,
  TokenAuthTokenCreateSchema,
  identityAuthAttachSchema,
  identityAuthEnvelope,
  identityAuthRules,
  identityAuthUpdateSchema,
} from "../identities";
import { IdentityJwtLoginSchema, UniversalAuthTokenSchema } from "../auth";
import { perRow } from "../common";
import { apiPaths } from "../paths";
import { op } from "./operation";

/**
 * Machine identities (docs/service-api.md §18): an organization's at `/api/v1/identities`
 * (identity-router.ts), a project's own at `/api/v1/projects/:projectId/identities`
 * (project-identity-router.ts).
 */
export const identityOperations = {
  list: op({ method: "GET", path: apiPaths.identities, query: IdentityListQuery, response: IdentityListEnvelope }),
  /** The identity's organization membership, the identity under `identity`. */
  get: op({
    method: "GET",
    path: `${apiPaths.identities}/:identityId`,
    params: IdentityParams,
    response: IdentityMembershipEnvelope,
  }),
  create: op({ method: "POST", path: apiPaths.identities, body: IdentityCreateSchema, response: IdentityEnvelope }),
  update: op({
    method: "PATCH",
    path: `${apiPaths.identities}/:identityId`,
    params: IdentityParams,
    body: IdentityUpdateSchema,
    response: IdentityEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${apiPaths.identities}/:identityId`,
    params: IdentityParams,
    response: IdentityEnvelope,
  }),
};

export const projectIdentityOperations = {
  list: op({
    method: "GET",
    path: apiPaths.projectIdentities,
    params: ProjectIdentityParams,
    query: ProjectIdentityListQuery,
    response: ProjectIdentityListEnvelope,
  }),
  get: op({
    method: "GET",
    path: `${apiPaths.projectIdentities}/:identityId`,
    params: ProjectIdentityItemParams,
    response: IdentityEnvelope,
  }),
  create: op({
    method: "POST",
    path: apiPaths.projectIdentities,
    params: ProjectIdentityParams,
    body: ProjectIdentityCreateSchema,
    response: IdentityEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${apiPaths.projectIdentities}/:identityId`,
    params: ProjectIdentityItemParams,
    body: ProjectIdentityUpdateSchema,
    response: IdentityEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${apiPaths.projectIdentities}/:identityId`,
    params: ProjectIdentityItemParams,
    response: IdentityEnvelope,
  }),
};

/** One login method's routes on an identity: attach, read, update and revoke (`identity-<method>-router.ts`). */
export const identityAuthOperations = perRow((row: IdentityAuthMethodRow) => {
  const path = apiPaths.identityAuth(row.method);
  const envelope = identityAuthEnvelope(row);
  return {
    attach: op({
      method: "POST",
      path,
      params: IdentityAuthParams,
      body: identityAuthAttachSchema(row),
      rules: identityAuthRules(row, true),
      response: envelope,
    }),
    get: op({ method: "GET", path, params: IdentityAuthParams, response: envelope }),
    update: op({
      method: "PATCH",
      path,
      params: IdentityAuthParams,
      body: identityAuthUpdateSchema(row),
      rules: identityAuthRules(row, false),
      response: envelope,
    }),
    revoke: op({ method: "DELETE", path, params: IdentityAuthParams, response: envelope }),
  };
});

const clientSecrets = `${apiPaths.identityAuth("universal-auth")}/client-secrets`;

/** Universal-auth client secrets: made once (the secret in the answer only), listed, read and revoked; no PATCH. */
export const clientSecretOperations = {
  create: op({
    method: "POST",
    path: clientSecrets,
    params: IdentityAuthParams,
    body: ClientSecretCreateSchema,
    response: ClientSecretCreatedSchema,
  }),
  list: op({ method: "GET", path: clientSecrets, params: IdentityAuthParams, response: ClientSecretListEnvelope }),
  get: op({
    method: "GET",
    path: `${clientSecrets}/:clientSecretId`,
    params: ClientSecretParams,
    response: ClientSecretEnvelope,
  }),
  /** Repeating a revoke is harmless. */
  revoke: op({
    method: "POST",
    path: `${clientSecrets}/:clientSecretId/revoke`,
    params: ClientSecretParams,
    response: ClientSecretEnvelope,
    idempotent: true,
  }),
};

/** Token auth: an access token made by a caller allowed to, for the identity. */
export const tokenAuthOperations = {
  createToken: op({
    method: "POST",
    path: `${apiPaths.identityAuth("token-auth")}/tokens`,
    params: IdentityAuthParams,
    body: TokenAuthTokenCreateSchema,
    response: TokenAuthTokenCreatedSchema,
  }),
};

/** A login that sends a JWT (`POST /api/v1/auth/{method}/login`); repeating it only issues another token. */
export const identityJwtLogin = perRow((row: IdentityAuthMethodRow) =>
  op({
    method: "POST",
    path: apiPaths.identityLogin(row.method),
    body: IdentityJwtLoginSchema,
    response: UniversalAuthTokenSchema,
    auth: false,
    idempotent: true,
  }),
);
