/**
 * The SDK: the one place that knows HTTP, shapes and failure handling.
 * The shared schemas and kind tables are re-exported, so consumers need only this module.
 */
export { SecretOpsClient, authFromEnv, type SecretOpsClientOptions } from "./client";
export type { SecretOpsAuth, UniversalAuthCredentials, JwtLoginCredentials, JwtSource, LoginInfo } from "./auth";
export {
  KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH,
  githubActionsIdToken,
  jwtFromFile,
  kubernetesServiceAccountToken,
} from "./jwt-sources";
export {
  SecretOpsError,
  SecretOpsValidationError,
  SecretOpsResponseError,
  SecretOpsApiError,
  SecretOpsNetworkError,
  isAmbiguous,
  type Issue,
  type HttpMethod,
} from "./errors";
export type { RequestInfo, SecretOpsLogger } from "./http";
export { defaultRetryOptions, serverDelayMs, backoffDelayMs, retryDelayMs, type RetryOptions } from "./retry";
export { defaultRateLimit, resetSharedLimiters, type RateLimitOptions } from "./throttle";
export type { AppConnectionsApi } from "./app-connections";
export type { SecretSyncsApi, ImportBehavior } from "./secret-syncs";
export type { SecretRotationsApi, GeneratedCredentialsResult } from "./secret-rotations";
export type {
  CertificateProfilesApi,
  CertificateProfileList,
  CertificateProfileListQueryInput,
} from "./certificate-profiles";
export type { AuditLogsApi } from "./audit-logs";
export type { IdentitiesApi, IdentityAuthsApi, MachineIdentityRecord } from "./identities";
export type { IdentityMembershipsApi, ProjectRolesApi } from "./project-access";
export type {
  ProjectsApi,
  ProjectEnvironmentsApi,
  SecretFoldersApi,
  SecretsApi,
  InternalCasApi,
  CertificatePoliciesApi,
} from "./project-tree";
export type * from "./types";
export * from "./schemas";
