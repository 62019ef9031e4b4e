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
export { getAuditLogs, getAuditLogsOutput, type GetAuditLogsArgs, type GetAuditLogsResult } from "./audit-logs";
export { settingSources } from "./config";
