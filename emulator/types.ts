import type {
  AppConnection,
  AuditLogEntry,
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
}

export interface Folder {
  id: string;
  projectId: string;
  environmentId: string;
  path: string;
}

export interface Project {
  id: string;
  orgId: string;
  name: string;
  slug: string;
  type: string;
}

export interface UniversalAuthClient {
  clientId: string;
  clientSecret: string;
  /** seconds */
  accessTokenTTL: number;
  /** seconds */
  accessTokenMaxTTL: number;
}

export interface Identity {
  id: string;
  orgId: string;
  name: string;
  projectIds: string[];
  universalAuth?: UniversalAuthClient;
}

export interface AccessToken {
  token: string;
  identityId: string;
  /** epoch ms; null for static tokens */
  expiresAt: number | null;
}

export interface Gateway {
  id: string;
  orgId: string;
  name: string;
}

export interface CertificateAuthority {
  id: string;
  projectId: string;
  name: string;
  /** `external` CAs accept `externalConfigs` on profiles. */
  type: "internal" | "external";
}

export interface CertificatePolicy {
  id: string;
  projectId: string;
  name: string;
}

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
};

export type StoredRotation = Omit<
  Complete<SecretRotation>,
  "connection" | "environment" | "folder" | "folderId" | "rotateAtUtc" | "rotationStatus"
> & {
  folderId: string;
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
