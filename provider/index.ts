/**
 * What a program imports. Each export is typed by the declarations generated from the derived
 * types (provider/program-types.ts), and this file's own declarations name nothing else, so a
 * program's type-check loads those and `@pulumi/pulumi` only, never the schemas or their library
 * (scripts/program-types.ts says why). Each resource's doc is on its constructor's declaration.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as program from "./program-types";
import * as appConnection from "./app-connection";
import * as appConnectionSettings from "./app-connection-settings";
import * as auditLogs from "./audit-logs";
import * as certificateAuthority from "./certificate-authority";
import * as certificatePolicy from "./certificate-policy";
import * as certificateProfile from "./certificate-profile";
import * as project from "./project";
import * as projectEnvironment from "./project-environment";
import * as secret from "./secret";
import * as secretFolder from "./secret-folder";
import * as secretRotation from "./secret-rotation";
import * as secretSync from "./secret-sync";

export { settingSources } from "./setting-sources";

export const SecretSync: program.SecretSyncConstructor = secretSync.SecretSync;
export type SecretSync = program.SecretSync;
export const GenericSecretSync: program.GenericSecretSyncConstructor = secretSync.GenericSecretSync;
export type GenericSecretSync = program.SecretSync;
export const SecretRotation: program.SecretRotationConstructor = secretRotation.SecretRotation;
export type SecretRotation = program.SecretRotation;
export const CertificateProfile: program.CertificateProfileConstructor = certificateProfile.CertificateProfile;
export type CertificateProfile = program.CertificateProfile;
export const AppConnection: program.AppConnectionConstructor = appConnection.AppConnection;
export type AppConnection = program.AppConnection;
export const AppConnectionSettings: program.AppConnectionSettingsConstructor =
  appConnectionSettings.AppConnectionSettings;
export type AppConnectionSettings = program.AppConnectionSettings;
export const Project: program.ProjectConstructor = project.Project;
export type Project = program.Project;
export const ProjectEnvironment: program.ProjectEnvironmentConstructor = projectEnvironment.ProjectEnvironment;
export type ProjectEnvironment = program.ProjectEnvironment;
export const SecretFolder: program.SecretFolderConstructor = secretFolder.SecretFolder;
export type SecretFolder = program.SecretFolder;
export const Secret: program.SecretConstructor = secret.Secret;
export type Secret = program.Secret;
export const CertificateAuthority: program.CertificateAuthorityConstructor = certificateAuthority.CertificateAuthority;
export type CertificateAuthority = program.CertificateAuthority;
export const CertificatePolicy: program.CertificatePolicyConstructor = certificatePolicy.CertificatePolicy;
export type CertificatePolicy = program.CertificatePolicy;

export const getAuditLogs: (args?: program.GetAuditLogsArgs) => Promise<program.GetAuditLogsResult> =
  auditLogs.getAuditLogs;
export const getAuditLogsOutput: (args?: {
  [K in keyof program.GetAuditLogsArgs]: pulumi.Input<program.GetAuditLogsArgs[K]>;
}) => pulumi.Output<program.GetAuditLogsResult> = auditLogs.getAuditLogsOutput;

export type {
  SecretSyncArgs,
  GenericSecretSyncArgs,
  SecretSyncCommonArgs,
  SecretRotationArgs,
  SecretRotationCommonArgs,
  CertificateProfileArgs,
  AppConnectionArgs,
  AppConnectionSettingsArgs,
  ProjectArgs,
  ProjectEnvironmentArgs,
  SecretFolderArgs,
  SecretArgs,
  CertificateAuthorityArgs,
  CertificatePolicyArgs,
  GetAuditLogsArgs,
  GetAuditLogsResult,
} from "./program-types";
