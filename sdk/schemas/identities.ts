import { z } from "zod";
import { dateTime, nonEmpty, perRow, strictObject } from "./common";
import {
  ANYWHERE,
  type IdentityAuthMethodRow,
  accessTokenFields,
  identityAuthMethods,
  type MethodField,
} from "./identity-auth-methods";
import type { Issue } from "./issues";

/**
 * Machine identities, their login methods and universal-auth client secrets (docs/service-api.md
 * §18; the service's `server/routes/v1/identity-router.ts`, `project-identity-router.ts`, and
 * `identity-<method>-router.ts` per method). Every login method is one row of
 * `identityAuthMethods` (`identity-auth-methods/`); this file holds the shapes they share.
 */

export * from "./identity-auth-methods";

export type IdentityAuthMethod = keyof typeof identityAuthMethods;
export const identityAuthMethodSlugs = Object.keys(identityAuthMethods) as IdentityAuthMethod[];

export function identityAuthMethodRow(method: string): IdentityAuthMethodRow | undefined {
  return Object.hasOwn(identityAuthMethods, method)
    ? (identityAuthMethods as Record<string, IdentityAuthMethodRow>)[method]
    : undefined;
}

// ---- identities --------------------------------------------------------------------------------

/** `{ key, value }`, each trimmed and not empty. */
const metadataEntry = strictObject({
  /** The key, not empty. */
  key: z.string().trim().min(1, { error: "Metadata key cannot be empty" }),
  /** The value, not empty. */
  value: z.string().trim().min(1, { error: "Metadata value cannot be empty" }),
});

/** The organization's built-in roles (`OrgMembershipRole`); any other slug is a custom role, which needs the RBAC feature. */
export const builtInOrgRoles = ["admin", "member", "no-access"] as const;

const identityName = z.string().trim().min(1, { error: "must not be empty" });

const identityFields = {
  /** Protect the identity from deletion: the service refuses to delete it while true. Default false. Changing it updates in place. */
  hasDeleteProtection: z.boolean().default(false),
  /** Key-value metadata; a change replaces the whole list in place. */
  metadata: z.array(metadataEntry).optional(),
};

/** POST /api/v1/identities body: an organization's machine identity. */
export const IdentityCreateSchema = strictObject({
  /** The identity's name. Changing it renames the identity in place (same id, same client ids). */
  name: identityName,
  /** The organization the identity belongs to. Changing it replaces the identity. */
  organizationId: nonEmpty,
  /** Its organization role: `admin`, `member`, `no-access` (the default), or a custom role's slug (needs the RBAC feature of a licensed plan). Changing it updates in place. */
  role: z.string().trim().min(1, { error: "must not be empty" }).default("no-access"),
  ...identityFields,
});
export type IdentityCreate = z.input<typeof IdentityCreateSchema>;

/** PATCH /api/v1/identities/{identityId} body. */
export const IdentityUpdateSchema = strictObject({
  name: identityName.optional(),
  role: z.string().trim().min(1, { error: "must not be empty" }).optional(),
  hasDeleteProtection: z.boolean().optional(),
  metadata: z.array(metadataEntry).optional(),
});
export type IdentityUpdate = z.input<typeof IdentityUpdateSchema>;

/** POST /api/v1/projects/{projectId}/identities body (the project in the path): a project's own machine identity. */
export const ProjectIdentityCreateSchema = strictObject({
  /** The identity's name. Changing it renames the identity in place. */
  name: identityName,
  ...identityFields,
});
/** PATCH /api/v1/projects/{projectId}/identities/{identityId} body. */
export const ProjectIdentityUpdateSchema = strictObject({
  name: identityName.optional(),
  hasDeleteProtection: z.boolean().optional(),
  metadata: z.array(metadataEntry).optional(),
});

const metadataOut = z.array(z.object({ id: z.string().optional(), key: z.string(), value: z.string() }));

/** An identity as the create, PATCH and delete answer it (`IdentitiesSchema`, with its metadata). */
export const IdentitySchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  orgId: z.string().nullish(),
  projectId: z.string().nullish(),
  hasDeleteProtection: z.boolean().optional(),
  authMethods: z.array(z.string()).optional(),
  activeLockoutAuthMethods: z.array(z.string()).optional(),
  metadata: metadataOut.optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type Identity = z.infer<typeof IdentitySchema>;
export const IdentityEnvelope = z.object({ identity: IdentitySchema });

/**
 * GET /api/v1/identities/{identityId}: the identity's organization membership, the identity under
 * `identity`, its role (`custom` and `customRole` for a custom role) and metadata beside it.
 */
export const IdentityMembershipSchema = z.object({
  id: z.string().optional(),
  orgId: z.string().nullish(),
  role: z.string(),
  customRole: z.object({ slug: z.string() }).nullish(),
  metadata: metadataOut.optional(),
  identity: IdentitySchema,
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type IdentityMembership = z.infer<typeof IdentityMembershipSchema>;
export const IdentityMembershipEnvelope = z.object({ identity: IdentityMembershipSchema });
/** GET /api/v1/identities?orgId=: every identity of the organization, as memberships. */
export const IdentityListEnvelope = z.object({
  identities: z.array(IdentityMembershipSchema),
  totalCount: z.number().int().optional(),
});
export const IdentityListQuery = z.object({ orgId: nonEmpty });
export const IdentityParams = z.object({ identityId: z.string().min(1) });

export const ProjectIdentityParams = z.object({ projectId: z.string().min(1) });
export const ProjectIdentityItemParams = z.object({ projectId: z.string().min(1), identityId: z.string().min(1) });
export const ProjectIdentityListQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000, { error: "must be at most 1000" }).default(20),
  search: z.string().optional(),
});
export const ProjectIdentityListEnvelope = z.object({
  identities: z.array(IdentitySchema),
  totalCount: z.number().int(),
});

// ---- login methods -----------------------------------------------------------------------------

/** A method's fields with their attach defaults: the access-token fields, then its own. */
function fieldsOf(row: IdentityAuthMethodRow): Record<string, MethodField> {
  return { ...accessTokenFields, ...row.fields };
}

const ttlRule = (b: { accessTokenTTL?: number; accessTokenMaxTTL?: number }) =>
  b.accessTokenTTL === undefined || b.accessTokenMaxTTL === undefined || b.accessTokenTTL <= b.accessTokenMaxTTL;
const TTL_RULE = { error: "Access Token TTL cannot be greater than Access Token Max TTL.", path: ["accessTokenTTL"] };

/** POST /api/v1/auth/{method}/identities/{identityId} body of one method: its fields, with the service's defaults. */
export const identityAuthAttachSchema = perRow((row: IdentityAuthMethodRow) =>
  strictObject(
    Object.fromEntries(
      Object.entries(fieldsOf(row)).map(([k, f]) => [
        k,
        f.default === undefined ? f.schema : f.schema.default(structuredClone(f.default) as never),
      ]),
    ),
  ).refine(ttlRule, TTL_RULE),
);

/**
 * PATCH /api/v1/auth/{method}/identities/{identityId} body of one method: every field optional and
 * without its default, but those the PATCH requires (`alwaysInPatch`); none it does not take (`notInPatch`).
 */
export const identityAuthUpdateSchema = perRow((row: IdentityAuthMethodRow) =>
  strictObject(
    Object.fromEntries(
      Object.entries(fieldsOf(row))
        .filter(([k]) => !row.notInPatch?.includes(k))
        .map(([k, f]) => [k, row.alwaysInPatch?.includes(k) ? f.schema : f.schema.optional()]),
    ),
  ).refine(ttlRule, TTL_RULE),
);

/** A trusted IP as the service stores and returns it (`extractIPDetails`): the address, its family, and the prefix of a range. */
export const StoredTrustedIpSchema = z.object({
  ipAddress: z.string(),
  type: z.string().optional(),
  prefix: z.number().nullish(),
});
export type StoredTrustedIp = z.infer<typeof StoredTrustedIpSchema>;

/** A method's object as the service answers it: the common fields, the method's own passed through. */
export const IdentityAuthSchema = z.looseObject({
  id: z.string().optional(),
  identityId: z.string(),
  accessTokenTTL: z.coerce.number(),
  accessTokenMaxTTL: z.coerce.number(),
  accessTokenNumUsesLimit: z.coerce.number(),
  accessTokenTrustedIps: z.array(StoredTrustedIpSchema),
  /** Universal auth only. */
  clientId: z.string().optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type IdentityAuth = z.infer<typeof IdentityAuthSchema>;

/** `{ <responseKey>: {...} }`: each method answers under its own key. */
export const identityAuthEnvelope = perRow((row: IdentityAuthMethodRow) =>
  z.object({ [row.responseKey]: IdentityAuthSchema }),
);
export const IdentityAuthParams = z.object({ identityId: z.string().min(1) });

/** An IP or CIDR range as the service accepts it (`isValidIp` / `isValidCidr`). */
export function isValidIpOrCidr(v: string): boolean {
  const [ip, prefix, ...rest] = v.split("/");
  if (rest.length > 0 || ip === undefined) return false;
  const { isIP } = require("node:net") as typeof import("node:net");
  const family = isIP(ip);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The service's rules on a method's attach or PATCH body beyond the schema: each trusted IP valid, and the method's own. */
export function identityAuthRules(row: IdentityAuthMethodRow, attach: boolean) {
  return (body: Record<string, unknown>): Issue[] => {
    const issues: Issue[] = [];
    for (const field of row.trustedIpFields) {
      const ips = body[field];
      if (!Array.isArray(ips)) continue;
      ips.forEach((entry: { ipAddress?: unknown }, i) => {
        if (typeof entry?.ipAddress === "string" && !isValidIpOrCidr(entry.ipAddress))
          issues.push({ path: `${field}.${i}.ipAddress`, message: "The IP is not a valid IPv4, IPv6, or CIDR block" });
      });
    }
    if (attach && row.attachRules) issues.push(...row.attachRules(body));
    return issues;
  };
}

/** The trusted IPs an unlicensed plan accepts: anywhere only. */
export const isAnywhere = (ipAddress: string) => (ANYWHERE as readonly string[]).includes(ipAddress);

/** The service's words when a trusted IP other than anywhere needs the IP-allowlisting feature. */
export const ipAllowlistingRefusal = (row: IdentityAuthMethodRow) =>
  `Failed to add IP access range to ${row.ipGateNoun} due to plan restriction. Upgrade plan to add IP access range.`;

// ---- universal-auth client secrets -------------------------------------------------------------

/** POST /api/v1/auth/universal-auth/identities/{identityId}/client-secrets body. */
export const ClientSecretCreateSchema = strictObject({
  /** What the secret is for. Default "". Changing it replaces the secret (the service has no PATCH). */
  description: z.string().trim().default(""),
  /** How many logins the secret allows; 0 (the default) for no limit. Changing it replaces the secret. */
  numUsesLimit: z.number().min(0, { error: "must be at least 0" }).default(0),
  /** Seconds the secret lives, 0 to 315360000; 0 (the default) for no expiry. Changing it replaces the secret. */
  ttl: z
    .number()
    .min(0, { error: "must be at least 0" })
    .max(315360000, { error: "must be at most 315360000" })
    .default(0),
});
export type ClientSecretCreate = z.input<typeof ClientSecretCreateSchema>;

/** A client secret's record, never the secret (`sanitizedClientSecretSchema`). */
export const ClientSecretDataSchema = z.object({
  id: z.string().min(1),
  description: z.string().nullish(),
  clientSecretPrefix: z.string().optional(),
  clientSecretNumUses: z.coerce.number().optional(),
  clientSecretNumUsesLimit: z.coerce.number(),
  clientSecretTTL: z.coerce.number(),
  identityUAId: z.string().optional(),
  isClientSecretRevoked: z.boolean(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type ClientSecretData = z.infer<typeof ClientSecretDataSchema>;
/** The create's answer: the secret, once, and its record. */
export const ClientSecretCreatedSchema = z.object({
  clientSecret: z.string(),
  clientSecretData: ClientSecretDataSchema,
});
export const ClientSecretEnvelope = z.object({ clientSecretData: ClientSecretDataSchema });
export const ClientSecretListEnvelope = z.object({ clientSecretData: z.array(ClientSecretDataSchema) });
export const ClientSecretParams = z.object({ identityId: z.string().min(1), clientSecretId: z.string().min(1) });

// ---- token auth tokens -------------------------------------------------------------------------

/** POST /api/v1/auth/token-auth/identities/{identityId}/tokens body. */
export const TokenAuthTokenCreateSchema = strictObject({
  /** A name for the token. */
  name: z.string().optional(),
});
export const TokenAuthTokenCreatedSchema = z.object({
  accessToken: z.string(),
  expiresIn: z.coerce.number(),
  accessTokenMaxTTL: z.coerce.number(),
  tokenType: z.literal("Bearer"),
  tokenData: z.looseObject({ id: z.string() }),
});
