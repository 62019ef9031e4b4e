import { z } from "zod";
import { strictObject, uuid } from "../common";
import type { Issue } from "../issues";

/**
 * The parts of an identity auth method's row, and what every method's body shares. One file per
 * method, as the service keeps one router and one service folder per method
 * (`server/routes/v1/identity-<method>-router.ts`, `services/identity-<method>/`); the table is
 * `index.ts`. docs/service-api.md §18.
 */

/** The service's default trusted IPs: anywhere, IPv4 and IPv6. The only ones an unlicensed plan accepts. */
export const ANYWHERE = ["0.0.0.0/0", "::/0"] as const;

/** One trusted IP or CIDR range: `{ ipAddress: "10.0.0.0/8" }`. */
export const trustedIp = strictObject({
  /** An IPv4 or IPv6 address, or a CIDR range (`10.0.0.0/8`). */
  ipAddress: z.string().trim(),
});
export type TrustedIp = z.infer<typeof trustedIp>;

/** A list of trusted IPs: at least one. */
export const trustedIps = z.array(trustedIp).min(1, { error: "must have at least 1 item" });

/** The longest TTL the service takes: ten years, in seconds. */
export const MAX_TTL = 315360000;

/** The max TTL of the methods whose attach refuses 0 (AWS, Alibaba Cloud, OCI, TLS certificate, LDAP). */
export const positiveMaxTtl = {
  schema: z
    .number()
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(315360000, { error: "must be at most 315360000" }),
  default: 2592000,
};

/** A comma-separated list as the service stores it: each item trimmed, joined by ", " (`formatCommaSeparatedPolicyValues`). */
export const joinedList = (v: string) =>
  v === ""
    ? ""
    : v
        .split(",")
        .map((i) => i.trim())
        .join(", ");
/** A trimmed comma-separated list, stored joined by ", "; "" by default. */
export const commaList = { schema: z.string().trim().transform(joinedList), default: "" };

const ttl = z
  .number()
  .int({ error: "must be a whole number" })
  .min(0, { error: "must be at least 0" })
  .max(MAX_TTL, { error: `must be at most ${MAX_TTL}` });
const count = z.number().int({ error: "must be a whole number" }).min(0, { error: "must be at least 0" });

/**
 * The access-token fields every method's attach and PATCH take, with the attach's defaults
 * (identity-universal-auth-router.ts and each method's router: 30 days, anywhere, no use limit).
 */
export const accessTokenFields = {
  /** The IPs an access token of this login may be used from. Default anywhere (`0.0.0.0/0`, `::/0`); anything else needs the IP-allowlisting feature of a licensed plan. */
  accessTokenTrustedIps: { schema: trustedIps, default: ANYWHERE.map((ipAddress) => ({ ipAddress })) },
  /** Seconds an access token lives, 0 to 315360000 (0: no expiry). Default 2592000 (30 days); at most `accessTokenMaxTTL`. */
  accessTokenTTL: { schema: ttl, default: 2592000 },
  /** Seconds an access token may be renewed up to, 0 to 315360000. Default 2592000 (30 days). */
  accessTokenMaxTTL: { schema: ttl, default: 2592000 },
  /** How many requests an access token may make; 0 (the default) for no limit. */
  accessTokenNumUsesLimit: { schema: count, default: 0 },
} as const;

/** A field of a method: its schema, and its default on attach (the PATCH has none). */
export interface MethodField {
  readonly schema: z.ZodType;
  readonly default?: unknown;
}

export interface IdentityAuthMethodRow {
  /** The real slug: the `<method>` path segment (`/api/v1/auth/<method>/identities/:identityId`). */
  readonly method: string;
  /** The service's display name. */
  readonly label: string;
  /** The service's 400 when the method is attached a second time (`identity-<method>-service.ts`, attach). */
  readonly alreadyAttachedMessage: string;
  /** The service's 400 when a read, update, revoke (or client secret, token) finds the method not attached. */
  readonly notAttachedMessage: string;
  /** The status of that answer: 400 (BadRequestError) for most methods, 404 (NotFoundError) for the newer ones. */
  readonly notAttachedStatus?: 400 | 404;
  /** Only the GET answers the returned secret fields; the attach, PATCH and revoke leave them out (LDAP, TLS certificate). */
  readonly secretsOnlyOnGet?: boolean;
  /** The revoke's answer leaves the secret fields out (jwt-auth: `IdentityJwtAuthResponseSchema.omit(...)`). */
  readonly revokeOmitsSecrets?: boolean;
  /** The service's router file this row was read from (`backend/src/server/routes/v1/…`). */
  readonly origin: string;
  /** The key of the method's object in the service's answers (`identityUniversalAuth`). */
  readonly responseKey: string;
  /** The method's own fields, beyond the access-token fields, with their attach defaults. */
  readonly fields: Readonly<Record<string, MethodField>>;
  /**
   * Fields the PATCH requires, or sets to a default when left out (AWS auth's ARNs become ""):
   * required in the PATCH body, and the provider sends them with every PATCH.
   */
  readonly alwaysInPatch?: readonly string[];
  /** Fields the attach takes and the PATCH does not (LDAP auth's CA certificate): a change re-attaches. */
  readonly notInPatch?: readonly string[];
  /** Fields the service keeps encrypted: secret inputs, encrypted in state. */
  readonly secretFields: readonly string[];
  /** Of those, the ones the service returns decrypted on a read (their drift is seen). */
  readonly returnedSecretFields?: readonly string[];
  /** The trusted-IP fields of the method (access tokens, and for universal auth client secrets). */
  readonly trustedIpFields: readonly string[];
  /** What the service calls what the IPs restrict, in its plan-gate message ("access token", "service token"). */
  readonly ipGateNoun: "access token" | "service token";
  /** The service's rules on an attach body beyond the field schemas (its `superRefine`). */
  readonly attachRules?: (body: Record<string, unknown>) => Issue[];
  /** Where the method logs in (`POST /api/v1/auth/<method>/login`), if it has a login the SDK sends. */
  readonly login?: "identity-jwt" | "client-secret";
  /** A valid attach body of the method's own fields (the tests attach one of each). */
  readonly example: Record<string, unknown>;
}

/** Declares a row, keeping its literal type. */
export function identityAuthMethod<const R extends IdentityAuthMethodRow>(row: R): R {
  return row;
}

/** A gateway's id, or null for none. */
export const uuidOrNull = uuid.nullable();
/** A trimmed string (the service trims every string input). */
export const trimmed = z.string().trim();
/** A trimmed string that must not be empty. */
export const required = z.string().trim().min(1, { error: "must not be empty" });
