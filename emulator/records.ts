import { randomUUID } from "node:crypto";
import { certificatePolicyFieldNames } from "../sdk/schemas/certificate-policies";
import { distinguishedName, issueCertificate, newSigningKey } from "./ca-certificates";
import { legacyUniversalAuth, newIdentity } from "./identity-records";
import { legacyMemberships } from "./permissions";
import type { Store, StoreSnapshot } from "./store";
import {
  ROOT_FOLDER_NAME,
  type CaConfiguration,
  type CertificateAuthority,
  type CertificatePolicy,
  type Environment,
  type Folder,
  type Project,
  type StoredSecret,
} from "./types";

/**
 * The emulator's new records of the project tree, with every field the service reports, built in
 * one place for the routes, the fixtures and the data files of older emulators (`upgradeSnapshot`).
 */

export function newProject(
  p: Pick<Project, "id" | "orgId" | "name" | "slug" | "type"> & Partial<Project>,
  now: string,
): Project {
  return {
    description: null,
    kmsKeyId: null,
    hasDeleteProtection: false,
    autoCapitalization: false,
    createdAt: now,
    updatedAt: now,
    ...p,
  };
}

export function newEnvironment(
  e: Pick<Environment, "projectId" | "name" | "slug" | "position"> & { id?: string },
  now: string,
): Environment {
  return { id: e.id ?? randomUUID(), createdAt: now, updatedAt: now, ...e };
}

/** Adds an environment with its root folder (docs/service-api.md §10). */
export function addEnvironment(
  store: Store,
  e: Pick<Environment, "projectId" | "name" | "slug" | "position">,
  now: string,
): Environment {
  const env = newEnvironment(e, now);
  store.addEnvironment(env);
  store.addFolder(newFolder(env, null, ROOT_FOLDER_NAME, now));
  return env;
}

/** The path of a folder named `name` in `parent`. */
export const childPath = (parent: string, name: string) => (parent === "/" ? `/${name}` : `${parent}/${name}`);

/** A folder named `name` in `parent`, or the environment's root folder when `parent` is null. */
export function newFolder(
  env: Pick<Environment, "id" | "projectId">,
  parent: Folder | null,
  name: string,
  now: string,
  id: string = randomUUID(),
): Folder {
  return {
    id,
    projectId: env.projectId,
    environmentId: env.id,
    path: parent ? childPath(parent.path, name) : "/",
    name: parent ? name : ROOT_FOLDER_NAME,
    parentId: parent?.id ?? null,
    description: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

export function newSecret(
  s: Pick<StoredSecret, "folderId" | "key" | "value"> & Partial<StoredSecret>,
  now: string,
): StoredSecret {
  return {
    id: randomUUID(),
    comment: "",
    skipMultilineEncoding: null,
    version: 1,
    type: "shared",
    createdAt: now,
    updatedAt: now,
    ...s,
  };
}

/**
 * Sets a secret's value in a folder, creating the secret if the folder has none of that key; a
 * changed value is a new version (what a rotation writes).
 */
export function writeSecretValue(store: Store, folderId: string, key: string, value: string): void {
  const secrets = store.folderSecrets(folderId);
  const existing = secrets.get(key);
  if (!existing) {
    secrets.set(key, newSecret({ folderId, key, value }, new Date().toISOString()));
  } else if (existing.value !== value) {
    existing.value = value;
    existing.version += 1;
    existing.updatedAt = store.writeTime(existing);
  }
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

/** The configuration of the fixtures' internal CAs: an active root named after the CA, valid ten years. */
function fixtureRootConfiguration(name: string, now: string): CaConfiguration {
  const subject = { commonName: name, organization: "", ou: "", country: "", province: "", locality: "" };
  return {
    type: "root",
    friendlyName: null,
    ...subject,
    notBefore: now,
    notAfter: new Date(Date.parse(now) + TEN_YEARS_MS).toISOString(),
    maxPathLength: -1,
    keyAlgorithm: "RSA_2048",
    parentCaId: null,
    dn: distinguishedName(subject),
    serialNumber: null,
    activeCaCertId: null,
  };
}

/** A root CA with an end of validity gets its self-signed certificate and is active (docs/service-api.md §13). */
export function installSelfSigned(ca: CertificateAuthority, now: string): void {
  const c = ca.configuration!;
  c.notBefore ??= now;
  const { certificate, payload } = issueCertificate(ca, null, {
    notBefore: c.notBefore,
    notAfter: c.notAfter!,
    maxPathLength: c.maxPathLength,
  });
  ca.certificate = certificate;
  ca.certificateChain = "";
  c.serialNumber = payload.serialNumber;
  c.activeCaCertId = randomUUID();
  ca.status = "active";
}

/** A CA of the fixtures: an internal one is an active root with its certificate, an external one is active. */
export function fixtureCa(
  ca: Pick<CertificateAuthority, "id" | "projectId" | "name" | "type"> & Partial<CertificateAuthority>,
  now: string,
): CertificateAuthority {
  const record: CertificateAuthority = {
    status: "active",
    configuration: ca.type === "internal" ? fixtureRootConfiguration(ca.name, now) : null,
    signingKey: newSigningKey(),
    certificate: null,
    certificateChain: null,
    createdAt: now,
    updatedAt: now,
    ...ca,
  };
  // Only a CA that came without a configuration (the fixtures, older data files) is made a root here.
  if (ca.configuration === undefined && record.type === "internal") installSelfSigned(record, now);
  return record;
}

/** What a policy's create and PATCH write beside its name: the schema's own list. */
export const policyRuleFields = certificatePolicyFieldNames;

export function newPolicy(
  p: Pick<CertificatePolicy, "id" | "projectId" | "name"> & Partial<CertificatePolicy>,
  now: string,
): CertificatePolicy {
  const rules = Object.fromEntries(policyRuleFields.map((f) => [f, null])) as Pick<
    CertificatePolicy,
    (typeof policyRuleFields)[number]
  >;
  return { ...rules, createdAt: now, updatedAt: now, ...p };
}

/**
 * A data file of an older emulator, whose records lack the fields added since (environments'
 * positions, folders' names and parents, secrets' ids and versions, CAs' configurations, policies'
 * rules): each record gets them, its own fields kept.
 */
export function upgradeSnapshot(s: StoreSnapshot): StoreSnapshot {
  const now = new Date().toISOString();
  const position = new Map<string, number>();
  const environments = s.environments.map((e) => {
    const n = (position.get(e.projectId) ?? 0) + 1;
    position.set(e.projectId, n);
    // Older files have no positions: the environments' order is theirs.
    return newEnvironment({ ...e, position: (e.position as number | undefined) ?? n }, now);
  });
  // Identities of older files: the new fields' defaults, and a universal-auth client kept on the
  // identity becomes an auth and a client secret.
  const identityAuths = [...(s.identityAuths ?? [])];
  const clientSecrets = [...(s.clientSecrets ?? [])];
  for (const i of s.identities) {
    if (i.universalAuth && !identityAuths.some((a) => a.identityId === i.id && a.method === "universal-auth")) {
      const { auth, secret } = legacyUniversalAuth(i.id, i.universalAuth, now);
      identityAuths.push(auth);
      clientSecrets.push(secret);
    }
  }
  // Memberships were the identities' `projectIds`, each an admin's, before the file kept them.
  const identityMemberships = s.identityMemberships ?? legacyMemberships(s.identities, now);
  return {
    ...s,
    identityMemberships,
    identities: s.identities.map((i) => newIdentity({ ...i, role: (i.role as string | undefined) ?? "admin" }, now)),
    identityAuths,
    clientSecrets,
    projects: s.projects.map((p) => newProject(p, now)),
    environments,
    folders: upgradeFolders(s.folders, now),
    secrets: s.secrets.map((x) => newSecret(x, now)),
    certificateAuthorities: s.certificateAuthorities.map((ca) => fixtureCa(ca, now)),
    certificatePolicies: s.certificatePolicies.map((p) => newPolicy(p, now)),
  };
}

/** Folders of an older data file: name and parent from the path. */
function upgradeFolders(folders: readonly Folder[], now: string): Folder[] {
  const byPath = new Map(folders.map((f) => [`${f.environmentId}\0${f.path}`, f]));
  return folders.map((f) => {
    if (f.name !== undefined) return f;
    const at = f.path.lastIndexOf("/");
    const parentPath = at <= 0 ? "/" : f.path.slice(0, at);
    const parent = f.path === "/" ? undefined : byPath.get(`${f.environmentId}\0${parentPath}`);
    const base = newFolder({ id: f.environmentId, projectId: f.projectId }, null, ROOT_FOLDER_NAME, now, f.id);
    return {
      ...base,
      ...f,
      name: f.path === "/" ? ROOT_FOLDER_NAME : f.path.slice(at + 1),
      parentId: parent?.id ?? null,
    };
  });
}
