import {
  appConnectionKind,
  computeNextRotationAt,
  enrollmentTypeNames,
  enrollmentTypes,
  returnedCredentials,
  HIDDEN_SECRET_VALUE,
  type AppConnection,
  type CertificatePolicy as ApiCertificatePolicy,
  type CertificateProfile,
  type InternalCa,
  type Project as ApiProject,
  type ProjectEnvironment,
  type Secret,
  type SecretFolder,
  type EnrollmentType,
  type SecretRotation,
  type SecretSync,
} from "../sdk/schemas";
import { canonicalJson, sha256Hex } from "./hashing";
import type { Store } from "./store";
import type {
  CertificateAuthority,
  CertificatePolicy,
  Environment,
  Folder,
  Project,
  StoredConnection,
  StoredProfile,
  StoredProfileConfig,
  StoredRotation,
  StoredSecret,
  StoredSync,
} from "./types";

/**
 * Response objects built from stored records: joined objects looked up now, secret parts left
 * out. Each returns exactly the shared response schema's type.
 */

/** Hashes by credentials object: a connection's credentials are replaced, never mutated, on change. */
const hashes = new WeakMap<object, string>();

/** sha256 hex of the stored credentials (canonical JSON); changes exactly when they change. */
export function credentialsHash(c: StoredConnection): string {
  let h = hashes.get(c.credentials);
  if (h === undefined) hashes.set(c.credentials, (h = sha256Hex(canonicalJson(c.credentials))));
  return h;
}

export function connectionView(store: Store, c: StoredConnection): AppConnection {
  const kind = appConnectionKind(c.app)!;
  const project = c.projectId ? store.projects.get(c.projectId) : undefined;
  const r = c.rotation;
  return {
    id: c.id,
    name: c.name,
    orgId: c.orgId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    app: c.app,
    method: c.method,
    credentials: returnedCredentials(kind, c.method, c.credentials),
    description: c.description,
    version: c.version,
    isPlatformManagedCredentials: c.isPlatformManagedCredentials,
    gatewayId: c.gatewayId,
    projectId: c.projectId,
    isAutoRotationEnabled: c.isAutoRotationEnabled,
    rotation: r
      ? {
          rotationInterval: r.rotationInterval,
          rotationStatus: r.rotationStatus,
          rotateAtUtc: r.rotateAtUtc,
          lastRotationMessage: r.lastRotationMessage,
          nextRotationAt:
            computeNextRotationAt(new Date(r.lastRotatedAt), r.rotationInterval, r.rotateAtUtc, {
              isAutoRotationEnabled: c.isAutoRotationEnabled,
            })?.toISOString() ?? null,
        }
      : null,
    credentialsHash: credentialsHash(c),
    project: project ? { name: project.name, id: project.id, type: project.type, slug: project.slug } : null,
  };
}

function connectionRef(store: Store, connectionId: string) {
  const c = store.connections.get(connectionId);
  return { app: c?.app ?? "", name: c?.name ?? "", id: connectionId };
}

/** The `environment` and `folder` objects joined into syncs and rotations. */
export function folderRefs(store: Store, folderId: string) {
  const folder = store.folders.get(folderId);
  const env = folder ? store.environments.get(folder.environmentId) : undefined;
  return {
    environment: env ? { slug: env.slug, name: env.name, id: env.id } : null,
    folder: folder ? { id: folder.id, path: folder.path } : null,
  };
}

export function syncView(store: Store, s: StoredSync): SecretSync {
  const { environment, folder } = folderRefs(store, s.folderId ?? "");
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    destination: s.destination,
    isAutoSyncEnabled: s.isAutoSyncEnabled,
    version: s.version,
    destinationConfig: s.destinationConfig,
    syncOptions: s.syncOptions,
    projectId: s.projectId,
    folderId: s.folderId,
    connectionId: s.connectionId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    syncStatus: s.syncStatus,
    lastSyncJobId: s.lastSyncJobId,
    lastSyncMessage: s.lastSyncMessage,
    lastSyncedAt: s.lastSyncedAt,
    importStatus: s.importStatus,
    lastImportJobId: s.lastImportJobId,
    lastImportMessage: s.lastImportMessage,
    lastImportedAt: s.lastImportedAt,
    removeStatus: s.removeStatus,
    lastRemoveJobId: s.lastRemoveJobId,
    lastRemoveMessage: s.lastRemoveMessage,
    lastRemovedAt: s.lastRemovedAt,
    connection: connectionRef(store, s.connectionId),
    environment,
    folder,
  };
}

export function rotationView(store: Store, r: StoredRotation): SecretRotation {
  const { environment, folder } = folderRefs(store, r.folderId ?? "");
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    type: r.type,
    projectId: r.projectId,
    folderId: r.folderId,
    connectionId: r.connectionId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    rotationInterval: r.rotationInterval,
    rotateAtUtc: r.rotateAtUtc,
    isAutoRotationEnabled: r.isAutoRotationEnabled,
    parameters: r.parameters,
    secretsMapping: r.secretsMapping,
    activeIndex: r.activeIndex,
    rotationStatus: r.rotationStatus,
    lastRotationAttemptedAt: r.lastRotationAttemptedAt,
    lastRotatedAt: r.lastRotatedAt,
    lastRotationMessage: r.lastRotationMessage,
    lastRotationJobId: r.lastRotationJobId,
    nextRotationAt: r.nextRotationAt,
    isLastRotationManual: r.isLastRotationManual,
    connection: connectionRef(store, r.connectionId),
    environment,
    folder,
  };
}

export function profileView(p: StoredProfile, baseUrl: string, withConfigs: boolean): CertificateProfile {
  const out: Record<string, unknown> = {
    id: p.id,
    projectId: p.projectId,
    certificatePolicyId: p.certificatePolicyId,
    slug: p.slug,
    enrollmentType: p.enrollmentType,
    issuerType: p.issuerType,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    caId: p.caId,
    description: p.description,
    externalConfigs: p.externalConfigs,
    defaults: p.defaults,
  };
  for (const t of enrollmentTypeNames) out[`${t}ConfigId`] = p.configs[t]?.id ?? null;
  // Only the read of one profile and the list join the config objects, each with its id; an
  // absent one is an absent key (docs/service-api.md §4).
  if (!withConfigs) return out as CertificateProfile;
  for (const t of enrollmentTypeNames) {
    const cfg = p.configs[t];
    if (cfg) out[enrollmentTypes[t].configKey] = configView(t, cfg, p.id, baseUrl);
  }
  return out as CertificateProfile;
}

/** A config object as the service reports it: its id, no secret field, and what the service computes. */
function configView(t: EnrollmentType, cfg: StoredProfileConfig, profileId: string, baseUrl: string) {
  const row = enrollmentTypes[t];
  const visible: Record<string, unknown> = { id: cfg.id, ...row.serviceDefaults };
  for (const [k, v] of Object.entries(cfg.value))
    if (!(row.secretFields as readonly string[]).includes(k) && v !== undefined) visible[k] = v;
  // Computed by the server (docs/service-api.md §4).
  if (t === "acme") visible.directoryUrl = `${baseUrl}/api/v1/pki/acme/profiles/${profileId}/directory`;
  if (t === "scep") {
    visible.scepEndpointUrl = `${baseUrl}/scep/${profileId}/pkiclient.exe`;
    if (visible.challengeType === "dynamic") {
      visible.challengeEndpointUrl = `${baseUrl}/scep/${profileId}/challenge`;
      visible.dynamicChallengeExpiryMinutes ??= 60;
      visible.dynamicChallengeMaxPending ??= 100;
    } else {
      delete visible.dynamicChallengeExpiryMinutes;
      delete visible.dynamicChallengeMaxPending;
    }
  }
  return visible;
}

/** A project as the service returns it; `withEnvironments` for create, the reads and the list (docs/service-api.md §10). */
export function projectView(store: Store, p: Project, withEnvironments: boolean): ProjectView {
  const out: ProjectView = {
    id: p.id,
    _id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    orgId: p.orgId,
    type: p.type,
    hasDeleteProtection: p.hasDeleteProtection,
    autoCapitalization: p.autoCapitalization,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
  if (withEnvironments) {
    out.environments = [...store.environments.values()]
      .filter((e) => e.projectId === p.id)
      .sort((a, b) => a.position - b.position)
      .map((e) => ({ id: e.id, name: e.name, slug: e.slug }));
  }
  return out;
}

/** The service also sends the project's id as `_id`. */
type ProjectView = ApiProject & { _id: string };

export function environmentView(e: Environment): ProjectEnvironment {
  return {
    id: e.id,
    name: e.name,
    slug: e.slug,
    position: e.position,
    projectId: e.projectId,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** A folder's row; `withPath` adds its full path (create, PATCH and the read by id; docs/service-api.md §11). */
export function folderView(f: Folder, withPath: boolean): SecretFolder {
  return {
    id: f.id,
    name: f.name,
    parentId: f.parentId,
    envId: f.environmentId,
    description: f.description,
    version: f.version,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    ...(withPath && { path: f.path }),
  };
}

/**
 * A secret as the service returns it (`reshapeBridgeSecret`, docs/service-api.md §12): the value
 * only when `showValue`, else the service's mask with `secretValueHidden`.
 */
export function secretView(
  s: StoredSecret,
  place: { projectId: string; environment: string; secretPath: string },
  showValue: boolean,
  /** The value shown: as written, or with its references expanded (routes/secrets.ts). */
  value: string = s.value,
): Secret & { _id: string } {
  return {
    id: s.id,
    _id: s.id,
    secretKey: s.key,
    secretValue: showValue ? value : HIDDEN_SECRET_VALUE,
    secretValueHidden: !showValue,
    secretComment: s.comment,
    skipMultilineEncoding: s.skipMultilineEncoding,
    version: s.version,
    type: s.type,
    environment: place.environment,
    secretPath: place.secretPath,
    projectId: place.projectId,
    workspace: place.projectId,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

/** An internal CA as the service returns it, in no envelope (docs/service-api.md §13). */
export function caView(ca: CertificateAuthority): InternalCa {
  return {
    id: ca.id,
    type: ca.type,
    name: ca.name,
    projectId: ca.projectId,
    status: ca.status,
    enableDirectIssuance: true,
    configuration: ca.configuration ? { ...ca.configuration } : undefined,
    createdAt: ca.createdAt,
    updatedAt: ca.updatedAt,
  };
}

export function policyView(p: CertificatePolicy): ApiCertificatePolicy {
  return {
    id: p.id,
    projectId: p.projectId,
    name: p.name,
    description: p.description,
    subject: p.subject,
    sans: p.sans,
    keyUsages: p.keyUsages,
    extendedKeyUsages: p.extendedKeyUsages,
    algorithms: p.algorithms,
    validity: p.validity,
    basicConstraints: p.basicConstraints,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
