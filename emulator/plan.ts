/**
 * The license plan the emulator answers with (docs/service-api.md §18, docs/emulator.md). By
 * default an unlicensed self-hosted instance: the service's `getDefaultOnPremFeatures()`
 * (backend/src/ee/services/license/license-fns.ts @0080d5f2), so no IP allowlisting and no
 * custom roles. `licensed` turns on what an enterprise license does; an object overrides features.
 */

/** The features the emulator's rules read, with the service's names. */
export interface PlanFeatures {
  slug: string | null;
  tier: number;
  identityLimit: number | null;
  ipAllowlisting: boolean;
  rbac: boolean;
  auditLogs: boolean;
  [feature: string]: unknown;
}

/** `getDefaultOnPremFeatures()` as the service returns it. */
export const defaultOnPremFeatures: PlanFeatures = {
  _id: null,
  slug: null,
  tier: -1,
  workspaceLimit: null,
  workspacesUsed: 0,
  memberLimit: null,
  membersUsed: 0,
  environmentLimit: null,
  environmentsUsed: 0,
  identityLimit: null,
  identitiesUsed: 0,
  dynamicSecret: false,
  secretVersioning: true,
  pitRecovery: true,
  ipAllowlisting: false,
  rbac: false,
  githubOrgSync: false,
  customRateLimits: false,
  customAlerts: false,
  secretAccessInsights: false,
  auditLogs: false,
  auditLogsRetentionDays: 0,
  auditLogStreams: false,
  auditLogStreamLimit: 3,
  samlSSO: false,
  hsm: false,
  oidcSSO: false,
  scim: false,
  ldap: false,
  groups: false,
  status: null,
  trial_end: null,
  has_used_trial: true,
  secretApproval: false,
  secretRotation: false,
  caCrl: false,
  instanceUserManagement: false,
  externalKms: false,
  rateLimits: { readLimit: 60, writeLimit: 200, secretsLimit: 40 },
  pkiEst: false,
  enforceMfa: false,
  projectTemplates: false,
  kmip: false,
  gateway: false,
  sshHostGroups: false,
  secretScanning: false,
  enterpriseSecretSyncs: false,
  enterpriseAppConnections: false,
};

/**
 * An enterprise license: every boolean feature on, no limits. [UNCONFIRMED] the exact values a
 * license server sends; the emulator's rules read `ipAllowlisting`, `rbac` and `identityLimit` only.
 */
export const licensedFeatures: PlanFeatures = {
  ...Object.fromEntries(Object.entries(defaultOnPremFeatures).map(([k, v]) => [k, typeof v === "boolean" ? true : v])),
  slug: "enterprise",
  tier: 3,
  identityLimit: null,
  ipAllowlisting: true,
  rbac: true,
  auditLogs: true,
  has_used_trial: true,
};

/** How a plan is asked for: by name, or feature overrides on the unlicensed plan. */
export type PlanSetting = "unlicensed" | "licensed" | Partial<PlanFeatures>;

export const planNames = ["unlicensed", "licensed"] as const;

export function resolvePlan(setting: PlanSetting | undefined): PlanFeatures {
  if (setting === undefined || setting === "unlicensed") return { ...defaultOnPremFeatures };
  if (setting === "licensed") return { ...licensedFeatures };
  return { ...defaultOnPremFeatures, ...setting } as PlanFeatures;
}
