/** Route prefixes (docs/service-api.md §0), from which the operations table (operations/) builds every path. */
export const apiPaths = {
  appConnections: (app: string) => `/api/v1/app-connections/${app}`,
  /** Every kind's connections of the organization or of a project (`listAppConnections`). */
  allAppConnections: "/api/v1/app-connections",
  secretSyncs: (destination: string) => `/api/v1/secret-syncs/${destination}`,
  /** Every destination's syncs of a project (`listSecretSyncs`). */
  allSecretSyncs: "/api/v1/secret-syncs",
  secretRotations: (type: string) => `/api/v2/secret-rotations/${type}`,
  /** Every type's rotations of a project (`listSecretRotations`). */
  allSecretRotations: "/api/v2/secret-rotations",
  certificateProfiles: "/api/v1/cert-manager/certificate-profiles",
  projects: "/api/v1/projects",
  projectEnvironments: (projectId: string) => `/api/v1/projects/${projectId}/environments`,
  secretFolders: "/api/v2/folders",
  secrets: "/api/v4/secrets",
  internalCertificateAuthorities: "/api/v1/cert-manager/ca/internal",
  certificatePolicies: "/api/v1/cert-manager/certificate-policies",
  auditLogs: "/api/v1/organization/audit-logs",
  universalAuthLogin: "/api/v1/auth/universal-auth/login",
  identities: "/api/v1/identities",
  projectIdentities: "/api/v1/projects/:projectId/identities",
  /** A project's custom roles (`ee/routes/v1/project-role-router.ts`). */
  projectRoles: "/api/v1/projects/:projectId/roles",
  /** A project's identity memberships (`server/routes/v1/identity-project-router.ts`). */
  projectIdentityMemberships: "/api/v1/projects/:projectId/identity-memberships",
  /** A login method's routes on an identity (`identity-<method>-router.ts`). */
  identityAuth: (method: string) => `/api/v1/auth/${method}/identities/:identityId`,
  /** A login method's login (`POST`). */
  identityLogin: (method: string) => `/api/v1/auth/${method}/login`,
} as const;

/** The header the SDK sends with each try's number (1 for the first): logs can tell a retry from a new request. */
export const ATTEMPT_HEADER = "x-secretops-attempt";
