import type {
  AppConnection,
  AuditLogEntry,
  CertificatePolicyCreateSchema,
  CertificateProfile,
  EnrollmentType,
  RotateAtUtc,
  SecretRotation,
  SecretSync,
  SyncJobStatus,
  certificateDefaults,
} from "../sdk/schemas";
import type { z } from "zod";

/**
 * The emulator's stored records. API shapes come from `sdk/schemas`; a record is the returned
 * shape without its joined objects (computed at read time, so a renamed connection shows up
 * everywhere) plus the parts the service keeps to itself (secret credentials, job bookkeeping).
 * The SDK reads responses leniently (fields older servers lack are optional there); the emulator
 * is the newest server, so its records have every field (`Complete`).
 */

/** Every field present: optional fields required, `undefined` removed (null stays). */
type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

export interface Organization {
  id: string;
  name: string;
  slug: string;
}

export interface Environment {
  id: string;
  projectId: string;
  name: string;
  slug: string;
  /** Its place in the project's list, from 1. */
  position: number;
  createdAt: string;
  updatedAt: string;
}

/** The name of every environment's root folder, whose path is `/` (docs/service-api.md §11). */
export const ROOT_FOLDER_NAME = "root";

export interface Folder {
  id: string;
  projectId: string;
  environmentId: string;
  /** The folder's full path (`/` for the root, `/app/db` for `db` in `/app`): the key of the path lookups. */
  path: string;
  /** Its name in its parent (`root` for the root folder). */
  name: string;
  /** null for the root folder. */
  parentId: string | null;
  description: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A secret of a folder (docs/service-api.md §12). The value is kept as given; it is never logged or audited. */
export interface StoredSecret {
  id: string;
  folderId: string;
  key: string;
  value: string;
  comment: string;
  skipMultilineEncoding: boolean | null;
  version: number;
  type: "shared";
  createdAt: string;
  updatedAt: string;
}

export interface Project {
  id: string;
  orgId: string;
  name: string;
  slug: string;
  type: string;
  description: string | null;
  kmsKeyId: string | null;
  hasDeleteProtection: boolean;
  autoCapitalization: boolean;
  createdAt: string;
  updatedAt: string;
}

/** The universal-auth client of an identity as fixtures and older data files give it (`fixtures.ts`). */
export interface UniversalAuthClient {
  clientId: string;
  clientSecret: string;
  /** seconds */
  accessTokenTTL: number;
  /** seconds */
  accessTokenMaxTTL: number;
}

/** A metadata row of an identity. */
export interface IdentityMetadata {
  id: string;
  key: string;
  value: string;
}

/** A machine identity (docs/service-api.md §18): an organization's, or a project's own (`projectId`). */
export interface Identity {
  id: string;
  orgId: string;
  name: string;
  /**
   * Older data files only: the projects it was a member of, each turned into an admin membership
   * on load (records.ts `upgradeSnapshot`). Memberships are `Store.identityMemberships`.
   */
  projectIds?: string[];
  /** Its organization role's slug: `admin`, `member`, `no-access` or a custom role's. */
  role: string;
  hasDeleteProtection: boolean;
  metadata: IdentityMetadata[];
  /** The project a project identity belongs to; null for an organization's. */
  projectId: string | null;
  lastLoginAuthMethod: string | null;
  lastLoginTime: string | null;
  createdAt: string;
  updatedAt: string;
  /** Older data files only: turned into a universal-auth auth and a client secret on load (records.ts). */
  universalAuth?: UniversalAuthClient;
}

/** A trusted IP as the service stores it (`extractIPDetails`). */
export interface StoredTrustedIp {
  ipAddress: string;
  type: "ipv4" | "ipv6";
  prefix?: number;
}

/** One login method attached to an identity: the method's fields as the service stores them. */
export interface StoredIdentityAuth {
  id: string;
  identityId: string;
  method: string;
  /** The attach body's fields (defaults applied, trusted IPs as stored, universal auth's `clientId`). */
  fields: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A universal-auth client secret: a hash, never the secret. */
export interface StoredClientSecret {
  id: string;
  identityId: string;
  /** The universal-auth auth's id. */
  identityUAId: string;
  description: string;
  clientSecretPrefix: string;
  /** sha256 of the secret, hex. */
  clientSecretHash: string;
  clientSecretNumUses: number;
  clientSecretNumUsesLimit: number;
  clientSecretTTL: number;
  isClientSecretRevoked: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * A project's custom role (the service's `project_roles` row): `permissions` is the v2 shape the
 * service stores, packed CASL rules `{subject, action[], conditions?, inverted?}`.
 */
export interface StoredProjectRole {
  id: string;
  projectId: string;
  slug: string;
  name: string;
  description: string | null;
  permissions: unknown[];
  createdAt: string;
  updatedAt: string;
}

/**
 * One role of a membership: a built-in slug (`admin`, `member`, `viewer`, `no-access`) or
 * `custom` with the custom role's id; temporary access has a mode, a range and a start.
 */
export interface StoredMembershipRole {
  id: string;
  role: string;
  customRoleId: string | null;
  isTemporary: boolean;
  temporaryMode: string | null;
  temporaryRange: string | null;
  temporaryAccessStartTime: string | null;
  temporaryAccessEndTime: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An identity's membership of a project, with its roles (one per identity and project). */
export interface StoredIdentityMembership {
  id: string;
  projectId: string;
  identityId: string;
  roles: StoredMembershipRole[];
  createdAt: string;
  updatedAt: string;
}

export interface AccessToken {
  token: string;
  identityId: string;
  /** epoch ms; null for static tokens and a TTL of 0 */
  expiresAt: number | null;
  /** The issued token's record (absent for fixture tokens and older data files). */
  id?: string;
  authMethod?: string;
  name?: string | null;
  clientSecretId?: string | null;
  accessTokenTTL?: number;
  accessTokenMaxTTL?: number;
  accessTokenNumUsesLimit?: number;
  /** Requests made with it so far (counted only with a limit). */
  accessTokenNumUses?: number;
  createdAt?: string;
}

export interface Gateway {
  id: string;
  orgId: string;
  name: string;
}

/** An internal CA's subject, key and lifetime, as the service reports them (docs/service-api.md §13). */
export interface CaConfiguration {
  type: "root" | "intermediate";
  friendlyName: string | null;
  commonName: string;
  organization: string;
  ou: string;
  country: string;
  province: string;
  locality: string;
  notBefore: string | null;
  notAfter: string | null;
  maxPathLength: number;
  keyAlgorithm: string;
  parentCaId: string | null;
  /** The distinguished name made of the subject fields. */
  dn: string;
  /** The installed certificate's serial number; null while pending. */
  serialNumber: string | null;
  activeCaCertId: string | null;
}

export interface CertificateAuthority {
  id: string;
  projectId: string;
  name: string;
  /** `external` CAs accept `externalConfigs` on profiles; only `internal` ones are served by the CA routes. */
  type: "internal" | "external";
  /** `active`, `disabled` or `pending-certificate`. */
  status: string;
  /** An internal CA's; null for an external one. */
  configuration: CaConfiguration | null;
  /** The key the emulator signs this CA's certificates and CSR with (ca-certificates.ts); never returned. */
  signingKey: string;
  /** The installed certificate and its chain (PEM); null while pending. */
  certificate: string | null;
  certificateChain: string | null;
  createdAt: string;
  updatedAt: string;
}

type PolicyInput = z.output<typeof CertificatePolicyCreateSchema>;
type PolicyField = Exclude<keyof PolicyInput, "projectId" | "name">;

/** A certificate policy: every rule field as given, null when not (docs/service-api.md §14). */
export type CertificatePolicy = {
  id: string;
  projectId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
} & { [K in PolicyField]: Exclude<PolicyInput[K], undefined> | null };

/** Connection-level rotation settings (docs/api-spec.md §4.1, cloud app registration kind). */
export interface ConnectionRotation {
  rotationInterval: number;
  rotateAtUtc: RotateAtUtc;
  rotationStatus: string | null;
  lastRotationMessage: string | null;
  /** When the current credentials were set: the base of `nextRotationAt`. */
  lastRotatedAt: string;
}

export type StoredConnection = Omit<
  Complete<AppConnection>,
  "credentials" | "credentialsHash" | "project" | "rotation"
> & {
  /** The parsed credentials, secret parts included; never returned. */
  credentials: Record<string, unknown>;
  rotation: ConnectionRotation | null;
};

export type SyncJobKind = "sync" | "import" | "remove";

export type StoredSync = Omit<
  Complete<SecretSync>,
  "connection" | "environment" | "folder" | "syncStatus" | "importStatus" | "removeStatus"
> & {
  syncStatus: SyncJobStatus | null;
  importStatus: SyncJobStatus | null;
  removeStatus: SyncJobStatus | null;
  /** DELETE with removeSecrets=true: delete the sync once the remove job succeeds. */
  deleteOnRemove: boolean;
  importBehavior: string | null;
  /** What the last successful sync job pushed (absent before one, and in older data files). */
  pushed?: SyncPush;
};

/** What a sync job pushed: the folder's keys and a hash of each value, never the values. */
export interface SyncPush {
  pushedAt: string;
  secrets: { key: string; valueSha256: string }[];
}

export type StoredRotation = Omit<
  Complete<SecretRotation>,
  "connection" | "environment" | "folder" | "folderId" | "rotateAtUtc" | "rotationStatus"
> & {
  /** null once its folder is deleted. */
  folderId: string | null;
  rotateAtUtc: RotateAtUtc;
  rotationStatus: "success" | "failed" | null;
  /** Credential sets by index; `activeIndex` points at the current one. Secret, never in the rotation body. */
  generatedCredentials: Record<string, string>[];
};

/** A config object of a profile: its id and the parsed body (secret fields kept, never returned). */
export interface StoredProfileConfig {
  id: string;
  value: Record<string, unknown>;
}

export type StoredProfile = Omit<
  Complete<CertificateProfile>,
  | "enrollmentType"
  | "issuerType"
  | "defaults"
  | "estConfigId"
  | "apiConfigId"
  | "acmeConfigId"
  | "scepConfigId"
  | "estConfig"
  | "apiConfig"
  | "acmeConfig"
  | "scepConfig"
> & {
  enrollmentType: EnrollmentType;
  issuerType: "ca" | "self-signed";
  defaults: z.output<typeof certificateDefaults> | null;
  configs: Partial<Record<EnrollmentType, StoredProfileConfig>>;
};

export type { AuditLogEntry };

/** The authenticated caller. */
export interface Actor {
  identity: Identity;
  orgId: string;
}
