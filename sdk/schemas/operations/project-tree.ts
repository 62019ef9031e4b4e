import { z } from "zod";
import { nonEmpty, uuid } from "../common";
import {
  CaCsrSchema,
  CaImportCertificateSchema,
  CaImportedSchema,
  CaSignIntermediateSchema,
  CaSignedIntermediateSchema,
  InternalCaCreateSchema,
  InternalCaListQuery,
  InternalCaListSchema,
  InternalCaSchema,
  InternalCaUpdateSchema,
} from "../certificate-authorities";
import {
  CertificatePolicyCreateSchema,
  CertificatePolicyEnvelope,
  CertificatePolicyListEnvelope,
  CertificatePolicyListQuery,
  CertificatePolicyParams,
  CertificatePolicyUpdateSchema,
  certificatePolicyRules,
} from "../certificate-policies";
import { apiPaths } from "../paths";
import {
  ProjectCreateSchema,
  ProjectEnvelope,
  ProjectEnvironmentCreateSchema,
  ProjectEnvironmentEnvelope,
  ProjectEnvironmentParams,
  ProjectEnvironmentUpdateSchema,
  ProjectListEnvelope,
  ProjectListQuery,
  ProjectSchema,
  ProjectUpdateSchema,
} from "../projects";
import {
  SecretFolderCreateSchema,
  SecretFolderDeleteSchema,
  SecretFolderEnvelope,
  SecretFolderListEnvelope,
  SecretFolderListQuery,
  SecretFolderUpdateSchema,
} from "../secret-folders";
import {
  SecretCreateSchema,
  SecretDeleteSchema,
  SecretEnvelope,
  SecretListEnvelope,
  SecretGetQuery,
  SecretListQuery,
  secretGetQueryRules,
  secretListQueryRules,
  SecretUpdateSchema,
} from "../secrets";
import { op } from "./operation";

/**
 * The tree every resource hangs on: projects, their environments, folders and secrets, and the
 * certificate authorities and policies a profile names (docs/service-api.md §10 to §14).
 */

const projects = apiPaths.projects;
const projectId = z.object({ projectId: uuid });

/** Projects: `/api/v1/projects`. */
export const projectOperations = {
  list: op({ method: "GET", path: projects, query: ProjectListQuery, response: ProjectListEnvelope }),
  get: op({ method: "GET", path: `${projects}/:projectId`, params: projectId, response: ProjectEnvelope }),
  /** Answers the project itself, in no envelope. */
  getBySlug: op({
    method: "GET",
    path: `${projects}/slug/:slug`,
    params: z.object({ slug: nonEmpty }),
    response: ProjectSchema,
  }),
  create: op({ method: "POST", path: projects, body: ProjectCreateSchema, response: ProjectEnvelope }),
  update: op({
    method: "PATCH",
    path: `${projects}/:projectId`,
    params: projectId,
    body: ProjectUpdateSchema,
    response: ProjectEnvelope,
  }),
  delete: op({ method: "DELETE", path: `${projects}/:projectId`, params: projectId, response: ProjectEnvelope }),
};

const environments = apiPaths.projectEnvironments(":projectId");

/** A project's environments: `/api/v1/projects/{projectId}/environments` (listed by the project's read). */
export const projectEnvironmentOperations = {
  get: op({
    method: "GET",
    path: `${environments}/:id`,
    params: ProjectEnvironmentParams,
    response: ProjectEnvironmentEnvelope,
  }),
  create: op({
    method: "POST",
    path: environments,
    params: projectId,
    body: ProjectEnvironmentCreateSchema,
    response: ProjectEnvironmentEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${environments}/:id`,
    params: ProjectEnvironmentParams,
    body: ProjectEnvironmentUpdateSchema,
    response: ProjectEnvironmentEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${environments}/:id`,
    params: ProjectEnvironmentParams,
    response: ProjectEnvironmentEnvelope,
  }),
};

const folders = apiPaths.secretFolders;

/** Secret folders: `/api/v2/folders`; the writes count in the secrets bucket, the reads as reads. */
export const secretFolderOperations = {
  list: op({ method: "GET", path: folders, query: SecretFolderListQuery, response: SecretFolderListEnvelope }),
  get: op({
    method: "GET",
    path: `${folders}/:id`,
    params: z.object({ id: nonEmpty }),
    response: SecretFolderEnvelope,
  }),
  create: op({
    method: "POST",
    path: folders,
    body: SecretFolderCreateSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
  update: op({
    method: "PATCH",
    path: `${folders}/:folderId`,
    params: z.object({ folderId: nonEmpty }),
    body: SecretFolderUpdateSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
  delete: op({
    method: "DELETE",
    path: `${folders}/:folderIdOrName`,
    params: z.object({ folderIdOrName: nonEmpty }),
    body: SecretFolderDeleteSchema,
    response: SecretFolderEnvelope,
    bucket: "secrets",
  }),
};

const secrets = apiPaths.secrets;
const secretName = z.object({ secretName: nonEmpty });

/** Secrets: `/api/v4/secrets`; every route counts in the secrets bucket (docs/service-api.md §8). */
export const secretOperations = {
  /** A folder's secrets. */
  list: op({
    method: "GET",
    path: secrets,
    query: SecretListQuery,
    queryRules: secretListQueryRules,
    response: SecretListEnvelope,
    bucket: "secrets",
  }),
  /** With its value, place and key: what a secret renamed or imported is found by. */
  getById: op({
    method: "GET",
    path: `${secrets}/id/:secretId`,
    params: z.object({ secretId: nonEmpty }),
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  get: op({
    method: "GET",
    path: `${secrets}/:secretName`,
    params: secretName,
    query: SecretGetQuery,
    queryRules: secretGetQueryRules,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  create: op({
    method: "POST",
    path: `${secrets}/:secretName`,
    params: secretName,
    body: SecretCreateSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  update: op({
    method: "PATCH",
    path: `${secrets}/:secretName`,
    params: secretName,
    body: SecretUpdateSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  delete: op({
    method: "DELETE",
    path: `${secrets}/:secretName`,
    params: secretName,
    body: SecretDeleteSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
};

const cas = apiPaths.internalCertificateAuthorities;
const caId = z.object({ caId: uuid });

/** Internal certificate authorities: `/api/v1/cert-manager/ca/internal`; every answer is the CA itself. */
export const internalCaOperations = {
  list: op({ method: "GET", path: cas, query: InternalCaListQuery, response: InternalCaListSchema }),
  get: op({ method: "GET", path: `${cas}/:caId`, params: caId, response: InternalCaSchema }),
  create: op({ method: "POST", path: cas, body: InternalCaCreateSchema, response: InternalCaSchema }),
  update: op({
    method: "PATCH",
    path: `${cas}/:caId`,
    params: caId,
    body: InternalCaUpdateSchema,
    response: InternalCaSchema,
  }),
  delete: op({ method: "DELETE", path: `${cas}/:caId`, params: caId, response: InternalCaSchema }),
  /** An intermediate's certificate signing request. */
  csr: op({ method: "GET", path: `${cas}/:caId/csr`, params: caId, response: CaCsrSchema }),
  /** A CA signs an intermediate's CSR. */
  signIntermediate: op({
    method: "POST",
    path: `${cas}/:caId/sign-intermediate`,
    params: caId,
    body: CaSignIntermediateSchema,
    response: CaSignedIntermediateSchema,
    idempotent: true,
  }),
  /** An intermediate takes its signed certificate and chain: it becomes active. */
  importCertificate: op({
    method: "POST",
    path: `${cas}/:caId/import-certificate`,
    params: caId,
    body: CaImportCertificateSchema,
    response: CaImportedSchema,
    idempotent: true,
  }),
};

const policies = apiPaths.certificatePolicies;

/** Certificate policies: `/api/v1/cert-manager/certificate-policies`. */
export const certificatePolicyOperations = {
  list: op({
    method: "GET",
    path: policies,
    query: CertificatePolicyListQuery,
    response: CertificatePolicyListEnvelope,
  }),
  get: op({
    method: "GET",
    path: `${policies}/:id`,
    params: CertificatePolicyParams,
    response: CertificatePolicyEnvelope,
  }),
  create: op({
    method: "POST",
    path: policies,
    body: CertificatePolicyCreateSchema,
    rules: certificatePolicyRules,
    response: CertificatePolicyEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${policies}/:id`,
    params: CertificatePolicyParams,
    body: CertificatePolicyUpdateSchema,
    rules: certificatePolicyRules,
    response: CertificatePolicyEnvelope,
  }),
  delete: op({
    method: "DELETE",
    path: `${policies}/:id`,
    params: CertificatePolicyParams,
    response: CertificatePolicyEnvelope,
  }),
};
