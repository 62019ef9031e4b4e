import { randomBytes } from "node:crypto";
import type {
  AccessToken,
  AuditLogEntry,
  CertificateAuthority,
  CertificatePolicy,
  Environment,
  Folder,
  Gateway,
  Identity,
  Organization,
  Project,
  StoredConnection,
  StoredProfile,
  StoredRotation,
  StoredSecret,
  StoredSync,
  StoredClientSecret,
  StoredIdentityAuth,
  StoredIdentityMembership,
  StoredProjectRole,
} from "./types";
import type { PlanSetting } from "./plan";

/** Everything the emulator keeps, as written to a `--data` file. */
export interface StateSnapshot {
  format: 1;
  defaultIdentityId: string;
  defaultToken: string;
  organizations: Organization[];
  projects: Project[];
  environments: Environment[];
  folders: Folder[];
  identities: Identity[];
  accessTokens: AccessToken[];
  gateways: Gateway[];
  certificateAuthorities: CertificateAuthority[];
  certificatePolicies: CertificatePolicy[];
  appConnections: StoredConnection[];
  secretSyncs: StoredSync[];
  secretRotations: StoredRotation[];
  certificateProfiles: StoredProfile[];
  secrets: StoredSecret[];
  /** Login methods attached to identities (absent in older data files). */
  identityAuths?: StoredIdentityAuth[];
  /** Universal-auth client secrets, hashed (absent in older data files). */
  clientSecrets?: StoredClientSecret[];
  /** Projects' custom roles (absent in older data files). */
  projectRoles?: StoredProjectRole[];
  /** Identities' project memberships (absent in older data files: identities' `projectIds` stand for them). */
  identityMemberships?: StoredIdentityMembership[];
  /** The license plan a fixture file asked for (`startEmulator`'s `plan` wins). */
  plan?: PlanSetting;
  auditLogs: AuditLogEntry[];
}

export type StoreSnapshot = Omit<StateSnapshot, "auditLogs">;

const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * The in-memory state. Organizations and identities are fixed by the fixtures; projects,
 * environments, folders and resources live in maps by id, the environments and folders also
 * indexed by slug and path (kept by the methods below, which every change goes through). Handlers
 * mutate records synchronously, so concurrent requests never interleave inside one update.
 */
export class Store {
  readonly orgs: Map<string, Organization>;
  readonly projects: Map<string, Project>;
  readonly environments: Map<string, Environment>;
  readonly folders: Map<string, Folder>;
  readonly identities: Map<string, Identity>;
  readonly tokens: Map<string, AccessToken>;
  readonly gateways: Map<string, Gateway>;
  readonly cas: Map<string, CertificateAuthority>;
  readonly policies: Map<string, CertificatePolicy>;
  readonly connections: Map<string, StoredConnection>;
  readonly syncs: Map<string, StoredSync>;
  readonly rotations: Map<string, StoredRotation>;
  readonly profiles: Map<string, StoredProfile>;
  /** `<identityId>:<method>` → the attached login method. */
  readonly identityAuths: Map<string, StoredIdentityAuth>;
  readonly clientSecrets: Map<string, StoredClientSecret>;
  readonly projectRoles: Map<string, StoredProjectRole>;
  /** By membership id; `identityMembership()` finds one by identity and project. */
  readonly identityMemberships: Map<string, StoredIdentityMembership>;
  /**
   * Failed-login counters by `lockout:identity:<identityId>:<method>:<clientId>` (the service's
   * keystore key), in memory only as the service keeps them in Redis; each expires.
   */
  readonly lockouts = new Map<string, { failedAttempts: number; lockedOut: boolean; expiresAt: number }>();
  readonly plan: PlanSetting | undefined;
  /** folderId → secret key → secret. */
  readonly secrets = new Map<string, Map<string, StoredSecret>>();
  readonly defaultIdentityId: string;
  readonly defaultToken: string;

  private readonly envBySlug = new Map<string, Environment>();
  private readonly folderByPath = new Map<string, Folder>();

  constructor(s: StoreSnapshot) {
    this.defaultIdentityId = s.defaultIdentityId;
    this.defaultToken = s.defaultToken;
    this.orgs = byId(s.organizations);
    this.projects = byId(s.projects);
    this.environments = byId(s.environments);
    this.folders = byId(s.folders);
    this.identities = byId(s.identities);
    this.tokens = new Map(s.accessTokens.map((t) => [t.token, t]));
    this.gateways = byId(s.gateways);
    this.cas = byId(s.certificateAuthorities);
    this.policies = byId(s.certificatePolicies);
    this.connections = byId(s.appConnections);
    this.syncs = byId(s.secretSyncs);
    this.rotations = byId(s.secretRotations);
    this.profiles = byId(s.certificateProfiles);
    this.identityAuths = new Map((s.identityAuths ?? []).map((a) => [authKey(a.identityId, a.method), a]));
    this.clientSecrets = byId(s.clientSecrets ?? []);
    this.projectRoles = byId(s.projectRoles ?? []);
    this.identityMemberships = byId(s.identityMemberships ?? []);
    this.plan = s.plan;
    for (const e of s.environments) this.envBySlug.set(`${e.projectId}\0${e.slug}`, e);
    for (const f of s.folders) this.folderByPath.set(`${f.environmentId}\0${f.path}`, f);
    for (const secret of s.secrets) this.folderSecrets(secret.folderId).set(secret.key, secret);
  }

  snapshot(): StoreSnapshot {
    return {
      format: 1,
      defaultIdentityId: this.defaultIdentityId,
      defaultToken: this.defaultToken,
      organizations: [...this.orgs.values()],
      projects: [...this.projects.values()],
      environments: [...this.environments.values()],
      folders: [...this.folders.values()],
      identities: [...this.identities.values()],
      accessTokens: [...this.tokens.values()].filter((t) => t.expiresAt === null || t.expiresAt > Date.now()),
      gateways: [...this.gateways.values()],
      certificateAuthorities: [...this.cas.values()],
      certificatePolicies: [...this.policies.values()],
      appConnections: [...this.connections.values()],
      secretSyncs: [...this.syncs.values()],
      secretRotations: [...this.rotations.values()],
      certificateProfiles: [...this.profiles.values()],
      secrets: [...this.secrets.values()].flatMap((m) => [...m.values()]),
      identityAuths: [...this.identityAuths.values()],
      clientSecrets: [...this.clientSecrets.values()],
      projectRoles: [...this.projectRoles.values()],
      identityMemberships: [...this.identityMemberships.values()],
      ...(this.plan !== undefined && { plan: this.plan }),
    };
  }

  /** The identity's membership of the project, if it is a member. */
  identityMembership(identityId: string, projectId: string): StoredIdentityMembership | undefined {
    for (const m of this.identityMemberships.values())
      if (m.identityId === identityId && m.projectId === projectId) return m;
    return undefined;
  }

  environmentBySlug(projectId: string, slug: string): Environment | undefined {
    return this.envBySlug.get(`${projectId}\0${slug}`);
  }

  folderByEnvPath(environmentId: string, path: string): Folder | undefined {
    return this.folderByPath.get(`${environmentId}\0${path}`);
  }

  folderSecrets(folderId: string): Map<string, StoredSecret> {
    let m = this.secrets.get(folderId);
    if (!m) this.secrets.set(folderId, (m = new Map()));
    return m;
  }

  addEnvironment(e: Environment): void {
    this.environments.set(e.id, e);
    this.envBySlug.set(`${e.projectId}\0${e.slug}`, e);
  }

  setEnvironmentSlug(e: Environment, slug: string): void {
    this.envBySlug.delete(`${e.projectId}\0${e.slug}`);
    e.slug = slug;
    this.envBySlug.set(`${e.projectId}\0${e.slug}`, e);
  }

  /** Removes the environment alone (cascades.ts removes what it holds). */
  removeEnvironment(e: Environment): void {
    this.environments.delete(e.id);
    this.envBySlug.delete(`${e.projectId}\0${e.slug}`);
  }

  addFolder(f: Folder): void {
    this.folders.set(f.id, f);
    this.folderByPath.set(`${f.environmentId}\0${f.path}`, f);
  }

  setFolderPath(f: Folder, path: string): void {
    this.folderByPath.delete(`${f.environmentId}\0${f.path}`);
    f.path = path;
    this.folderByPath.set(`${f.environmentId}\0${f.path}`, f);
  }

  /** Removes the folder and its secrets (cascades.ts removes its subfolders). */
  removeFolder(f: Folder): void {
    this.folders.delete(f.id);
    this.folderByPath.delete(`${f.environmentId}\0${f.path}`);
    this.secrets.delete(f.id);
  }

  /** The folders whose parent is `folderId`. */
  childFolders(folderId: string): Folder[] {
    return [...this.folders.values()].filter((f) => f.parentId === folderId);
  }

  /** The folders below `folder`, at any depth (parents before their children). */
  descendantFolders(folder: Folder): Folder[] {
    const prefix = folder.path === "/" ? "/" : `${folder.path}/`;
    return [...this.folders.values()]
      .filter((f) => f.environmentId === folder.environmentId && f.id !== folder.id && f.path.startsWith(prefix))
      .sort((a, b) => a.path.split("/").length - b.path.split("/").length);
  }

  /**
   * The `updatedAt` of a write to `o`: now, or 1 ms after its current one when the clock has not
   * moved past it. A database stamps every update later than the one before; two writes to one
   * object within a millisecond would otherwise share a timestamp.
   */
  writeTime(o: { updatedAt: string }): string {
    return new Date(Math.max(Date.now(), Date.parse(o.updatedAt) + 1)).toISOString();
  }

  /** The login method `method` of an identity, if attached. */
  identityAuth(identityId: string, method: string): StoredIdentityAuth | undefined {
    return this.identityAuths.get(authKey(identityId, method));
  }

  /** The methods attached to an identity, in the order they were attached. */
  authMethodsOf(identityId: string): string[] {
    return [...this.identityAuths.values()].filter((a) => a.identityId === identityId).map((a) => a.method);
  }

  /** An access token of an identity; a TTL of 0 never expires (the service signs it without `expiresIn`). */
  issueAccessToken(
    identityId: string,
    ttlSeconds: number,
    details: Omit<AccessToken, "token" | "identityId" | "expiresAt"> = {},
  ): AccessToken {
    const t: AccessToken = {
      token: `emu.ua.${randomBytes(24).toString("base64url")}`,
      identityId,
      expiresAt: ttlSeconds > 0 ? Date.now() + ttlSeconds * 1000 : null,
      ...details,
    };
    this.tokens.set(t.token, t);
    return t;
  }
}

export const authKey = (identityId: string, method: string) => `${identityId}:${method}`;
