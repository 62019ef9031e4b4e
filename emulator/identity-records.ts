import { randomUUID } from "node:crypto";
import { BlockList, isIPv4, isIPv6 } from "node:net";
import { builtInOrgRoles, identityAuthMethodRow, type IdentityAuth, type IdentityAuthMethodRow } from "../sdk/schemas";
import { sha256Hex } from "./hashing";
import type {
  AccessToken,
  Identity,
  StoredClientSecret,
  StoredIdentityAuth,
  StoredTrustedIp,
  UniversalAuthClient,
} from "./types";

/**
 * Machine identities' records and the shapes the service answers them in (docs/service-api.md
 * §18), built in one place for the routes, the fixtures and older data files.
 */

export function newIdentity(i: Pick<Identity, "id" | "orgId" | "name"> & Partial<Identity>, now: string): Identity {
  const { universalAuth: _legacy, projectIds: _memberships, ...rest } = i;
  return {
    role: "no-access",
    hasDeleteProtection: false,
    metadata: [],
    projectId: null,
    lastLoginAuthMethod: null,
    lastLoginTime: null,
    createdAt: now,
    updatedAt: now,
    ...rest,
  };
}

/** The service's `extractIPDetails`: `10.0.0.0/8` → `{ipAddress: "10.0.0.0", type: "ipv4", prefix: 8}`. */
export function extractIPDetails(ip: string): StoredTrustedIp {
  if (isIPv4(ip)) return { ipAddress: ip, type: "ipv4" };
  if (isIPv6(ip)) return { ipAddress: ip, type: "ipv6" };
  const [net = "", prefix = ""] = ip.split("/");
  return { ipAddress: net, type: isIPv4(net) ? "ipv4" : "ipv6", prefix: Number.parseInt(prefix, 10) };
}

/**
 * The service's `checkIPAgainstBlocklist` (lib/ip/index.ts): whether `ip` is among the stored
 * trusted IPs; the caller answers 403 "You are not allowed to access this resource from the
 * current IP address" when not.
 */
export function isTrustedIp(ip: string, trusted: readonly StoredTrustedIp[]): boolean {
  const list = new BlockList();
  for (const t of trusted) {
    if (t.prefix !== undefined) list.addSubnet(t.ipAddress, t.prefix, t.type);
    else list.addAddress(t.ipAddress, t.type);
  }
  return list.check(ip, extractIPDetails(ip).type);
}

export const UNTRUSTED_IP = "You are not allowed to access this resource from the current IP address";

/** A body's fields as the service stores them: each trusted-IP list through `extractIPDetails`. */
export function storedFields(row: IdentityAuthMethodRow, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    out[k] = row.trustedIpFields.includes(k)
      ? (v as { ipAddress: string }[]).map((e) => extractIPDetails(e.ipAddress))
      : v;
  }
  return out;
}

/** A method's object as the service answers it (`IdentityAuthSchema`), under the row's `responseKey`. */
export function authView(a: StoredIdentityAuth, omitSecrets = false): IdentityAuth {
  const row = identityAuthMethodRow(a.method)!;
  const hidden = new Set(
    omitSecrets ? row.secretFields : row.secretFields.filter((f) => !row.returnedSecretFields?.includes(f)),
  );
  const fields = Object.fromEntries(Object.entries(a.fields).filter(([k]) => !hidden.has(k)));
  return {
    id: a.id,
    identityId: a.identityId,
    ...fields,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  } as IdentityAuth;
}

/** The identity row (`IdentitiesSchema`). */
export function identityRow(i: Identity) {
  return {
    id: i.id,
    name: i.name,
    orgId: i.orgId,
    projectId: i.projectId,
    hasDeleteProtection: i.hasDeleteProtection,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

const isBuiltIn = (role: string) => (builtInOrgRoles as readonly string[]).includes(role);

/**
 * The identity's organization membership (GET /api/v1/identities/:id and the list): a custom role
 * is `role: "custom"` with `customRole`. [UNCONFIRMED] the emulator keeps no custom roles: one is
 * known by its slug only, with a stable id and no permissions.
 */
export function membershipView(i: Identity, authMethods: string[], activeLockoutAuthMethods: string[]) {
  const custom = !isBuiltIn(i.role);
  return {
    id: membershipId(i),
    orgId: i.orgId,
    identityId: i.id,
    role: custom ? "custom" : i.role,
    roleId: custom ? customRoleId(i.orgId, i.role) : null,
    ...(custom && {
      customRole: {
        id: customRoleId(i.orgId, i.role),
        name: i.role,
        slug: i.role,
        permissions: [],
        description: null,
      },
    }),
    lastLoginAuthMethod: i.lastLoginAuthMethod,
    lastLoginTime: i.lastLoginTime,
    metadata: i.metadata,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    identity: {
      id: i.id,
      name: i.name,
      orgId: i.orgId,
      hasDeleteProtection: i.hasDeleteProtection,
      authMethods,
      activeLockoutAuthMethods,
    },
  };
}

const membershipId = (i: Identity) => stableId(`membership:${i.id}`);
const customRoleId = (orgId: string, slug: string) => stableId(`role:${orgId}:${slug}`);
function stableId(seed: string): string {
  const h = sha256Hex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** `sanitizedClientSecretSchema`: the record, never the secret nor its hash. */
export function clientSecretView(c: StoredClientSecret) {
  return {
    id: c.id,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    description: c.description,
    clientSecretPrefix: c.clientSecretPrefix,
    clientSecretNumUses: c.clientSecretNumUses,
    clientSecretNumUsesLimit: c.clientSecretNumUsesLimit,
    clientSecretTTL: c.clientSecretTTL,
    identityUAId: c.identityUAId,
    isClientSecretRevoked: c.isClientSecretRevoked,
  };
}

/** A client secret's record; the secret is kept as its sha256 (the service keeps a bcrypt hash). */
export function newClientSecret(
  auth: StoredIdentityAuth,
  secret: string,
  o: { description: string; numUsesLimit: number; ttl: number },
  now: string,
): StoredClientSecret {
  return {
    id: randomUUID(),
    identityId: auth.identityId,
    identityUAId: auth.id,
    description: o.description,
    clientSecretPrefix: secret.slice(0, 4),
    clientSecretHash: sha256Hex(secret),
    clientSecretNumUses: 0,
    clientSecretNumUsesLimit: o.numUsesLimit,
    clientSecretTTL: o.ttl,
    isClientSecretRevoked: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** `IdentityAccessTokensSchema` of an issued token. */
export function tokenDataView(t: AccessToken) {
  const at = t.createdAt ?? new Date().toISOString();
  return {
    id: t.id ?? randomUUID(),
    accessTokenTTL: t.accessTokenTTL ?? 0,
    accessTokenMaxTTL: t.accessTokenMaxTTL ?? 0,
    accessTokenNumUses: 0,
    accessTokenNumUsesLimit: t.accessTokenNumUsesLimit ?? 0,
    accessTokenLastUsedAt: null,
    accessTokenLastRenewedAt: null,
    isAccessTokenRevoked: false,
    identityUAClientSecretId: t.clientSecretId ?? null,
    identityId: t.identityId,
    createdAt: at,
    updatedAt: at,
    name: t.name ?? null,
    authMethod: t.authMethod ?? "token-auth",
  };
}

/**
 * A fixture's (or an older data file's) universal-auth client: a universal-auth auth with the
 * attach defaults and the given client id and TTLs, and one client secret of the given secret.
 */
export function legacyUniversalAuth(
  identityId: string,
  ua: UniversalAuthClient,
  now: string,
  lockoutEnabled = true,
): { auth: StoredIdentityAuth; secret: StoredClientSecret } {
  const anywhere = [extractIPDetails("0.0.0.0/0"), extractIPDetails("::/0")];
  const auth: StoredIdentityAuth = {
    id: stableId(`ua:${identityId}`),
    identityId,
    method: "universal-auth",
    fields: {
      clientId: ua.clientId,
      clientSecretTrustedIps: anywhere,
      accessTokenTrustedIps: anywhere,
      accessTokenTTL: ua.accessTokenTTL,
      accessTokenMaxTTL: ua.accessTokenMaxTTL,
      accessTokenNumUsesLimit: 0,
      accessTokenPeriod: 0,
      lockoutEnabled,
      lockoutThreshold: 3,
      lockoutDurationSeconds: 300,
      lockoutCounterResetSeconds: 30,
    },
    createdAt: now,
    updatedAt: now,
  };
  const secret = {
    ...newClientSecret(auth, ua.clientSecret, { description: "fixture", numUsesLimit: 0, ttl: 0 }, now),
    id: stableId(`ua-secret:${identityId}`),
  };
  return { auth, secret };
}
