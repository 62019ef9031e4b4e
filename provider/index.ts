export {
  SecretSync,
  GenericSecretSync,
  type SecretSyncArgs,
  type GenericSecretSyncArgs,
  type SecretSyncCommonArgs,
} from "./secret-sync";
export { SecretRotation, type SecretRotationArgs, type SecretRotationCommonArgs } from "./secret-rotation";
export { CertificateProfile, type CertificateProfileArgs } from "./certificate-profile";
export { AppConnection, type AppConnectionArgs } from "./app-connection";
export { AppConnectionSettings, type AppConnectionSettingsArgs } from "./app-connection-settings";
export { Project, type ProjectArgs } from "./project";
export { ProjectEnvironment, type ProjectEnvironmentArgs } from "./project-environment";
export { SecretFolder, type SecretFolderArgs } from "./secret-folder";
export { Secret, type SecretArgs } from "./secret";
export { CertificateAuthority, type CertificateAuthorityArgs } from "./certificate-authority";
export { CertificatePolicy, type CertificatePolicyArgs } from "./certificate-policy";
export { getAuditLogs, getAuditLogsOutput, type GetAuditLogsArgs, type GetAuditLogsResult } from "./audit-logs";
export { settingSources } from "./config";
