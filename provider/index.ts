/**
 * What a program imports: the resource classes, built from what each registers
 * (provider/program-resources.ts) and typed by the declarations generated from the definitions'
 * derived types (provider/program-types.ts). A program loads neither the definitions nor their
 * schemas, and its type-check neither their types (scripts/program-types.ts says why). Each
 * resource's doc is on its constructor's declaration.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as program from "./program-types";
import { resourceClass, withProgramType } from "./program-side";

export { settingSources } from "./setting-sources";

/** One class for both exports: a GenericSecretSync is a SecretSync (`instanceof`), of the same type. */
const SyncClass = resourceClass("SecretSync");
export const SecretSync = withProgramType<program.SecretSyncConstructor>(SyncClass);
export type SecretSync = program.SecretSync;
/**
 * The escape hatch: a sync to a destination this package has no typed row for (one newer than the
 * package), or with `destinationConfig` or `syncOptions` fields newer than its row. Its slug must
 * be slug-shaped, and the fields every sync has are checked; `destinationConfig` and the extra
 * `syncOptions` are passed through unchecked. Same resource type as `SecretSync`.
 */
export const GenericSecretSync = withProgramType<program.GenericSecretSyncConstructor>(
  class GenericSecretSync extends SyncClass {
    constructor(name: string, args: program.GenericSecretSyncArgs, opts?: pulumi.CustomResourceOptions) {
      // The class's marker rides with the args; the SecretSync constructor's type excludes it.
      super(name, { ...args, untypedDestination: true }, opts);
    }
  },
);
export type GenericSecretSync = program.SecretSync;
export const SecretRotation = withProgramType<program.SecretRotationConstructor>(resourceClass("SecretRotation"));
export type SecretRotation = program.SecretRotation;
export const CertificateProfile = withProgramType<program.CertificateProfileConstructor>(
  resourceClass("CertificateProfile"),
);
export type CertificateProfile = program.CertificateProfile;
export const AppConnection = withProgramType<program.AppConnectionConstructor>(resourceClass("AppConnection"));
export type AppConnection = program.AppConnection;
export const AppConnectionSettings = withProgramType<program.AppConnectionSettingsConstructor>(
  resourceClass("AppConnectionSettings"),
);
export type AppConnectionSettings = program.AppConnectionSettings;
export const Project = withProgramType<program.ProjectConstructor>(resourceClass("Project"));
export type Project = program.Project;
export const ProjectEnvironment = withProgramType<program.ProjectEnvironmentConstructor>(
  resourceClass("ProjectEnvironment"),
);
export type ProjectEnvironment = program.ProjectEnvironment;
export const SecretFolder = withProgramType<program.SecretFolderConstructor>(resourceClass("SecretFolder"));
export type SecretFolder = program.SecretFolder;
export const Secret = withProgramType<program.SecretConstructor>(resourceClass("Secret"));
export type Secret = program.Secret;
export const CertificateAuthority = withProgramType<program.CertificateAuthorityConstructor>(
  resourceClass("CertificateAuthority"),
);
export type CertificateAuthority = program.CertificateAuthority;
export const CertificatePolicy = withProgramType<program.CertificatePolicyConstructor>(
  resourceClass("CertificatePolicy"),
);
export type CertificatePolicy = program.CertificatePolicy;
export const MachineIdentity = withProgramType<program.MachineIdentityConstructor>(resourceClass("MachineIdentity"));
export type MachineIdentity = program.MachineIdentity;
export const IdentityAuth = withProgramType<program.IdentityAuthConstructor>(resourceClass("IdentityAuth"));
export type IdentityAuth = program.IdentityAuth;
export const IdentityClientSecret = withProgramType<program.IdentityClientSecretConstructor>(
  resourceClass("IdentityClientSecret"),
);
export type IdentityClientSecret = program.IdentityClientSecret;
export const ProjectRole = withProgramType<program.ProjectRoleConstructor>(resourceClass("ProjectRole"));
export type ProjectRole = program.ProjectRole;
export const ProjectIdentityMembership = withProgramType<program.ProjectIdentityMembershipConstructor>(
  resourceClass("ProjectIdentityMembership"),
);
export type ProjectIdentityMembership = program.ProjectIdentityMembership;

/** The audit-log query loads on first use: a program that makes none loads no API client. */
const auditLogs = (): typeof import("./audit-logs") => require("./audit-logs");
/** An audit-log query, like a data source: newest first, up to `maxEntries` (default 1000). */
export const getAuditLogs = (args?: program.GetAuditLogsArgs): Promise<program.GetAuditLogsResult> =>
  auditLogs().getAuditLogs(args);
/** `getAuditLogs` taking Inputs and returning an Output: it runs once its inputs are known. */
export const getAuditLogsOutput = (args?: {
  [K in keyof program.GetAuditLogsArgs]: pulumi.Input<program.GetAuditLogsArgs[K]>;
}): pulumi.Output<program.GetAuditLogsResult> => auditLogs().getAuditLogsOutput(args);

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
  MachineIdentityArgs,
  IdentityAuthArgs,
  IdentityClientSecretArgs,
  ProjectRoleArgs,
  ProjectIdentityMembershipArgs,
  GetAuditLogsArgs,
  GetAuditLogsResult,
} from "./program-types";
