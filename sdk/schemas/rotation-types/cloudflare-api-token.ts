import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow } from "./row";

/**
 * The parts the two Cloudflare token types share, as in the service's
 * `ee/services/secret-rotation-v2/shared/cloudflare-token/cloudflare-token-rotation-schemas.ts`.
 */

/** The name given to generated tokens (the service appends a timestamp): trimmed, 1 to 100 characters. */
export const cloudflareTokenName = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(100, { error: "must be at most 100 characters" });

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;
/** IPv6, checked loosely (hex groups, colons, an optional embedded IPv4 and zone): never stricter than the service. */
const IPV6 = /^(?=.*:.*:)[0-9a-fA-F:.]+(?:%[^\s/]+)?$/;

/** An IPv4 or IPv6 address, or a CIDR block of one (prefix 0..32 or 0..128), as the service's `isValidIpOrCidr`. */
function isIpOrCidr(value: string): boolean {
  const [ip, prefix, ...rest] = value.split("/");
  if (rest.length > 0 || ip === undefined) return false;
  const max = IPV4.test(ip) ? 32 : IPV6.test(ip) ? 128 : undefined;
  if (max === undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= max;
}

/** An IP address or CIDR block a token may (or may not) be used from. */
export const cloudflareTokenIp = z
  .string()
  .trim()
  .refine(isIpOrCidr, { error: "must be a valid IP address or CIDR block" });

/** The IP lists both types take. */
export const cloudflareTokenIpLists = {
  /** IP addresses or CIDR blocks the generated token may be used from; unset: any. */
  allowedIps: z.array(cloudflareTokenIp).optional(),
  /** IP addresses or CIDR blocks the generated token may not be used from. */
  disallowedIps: z.array(cloudflareTokenIp).optional(),
};

const policy = strictObject({
  /** `allow` or `deny`. */
  effect: z.enum(["allow", "deny"]),
  /** What the policy covers: `account`, `all-zones`, or `zones` (the zones in `zoneIds`). */
  scope: z.enum(["account", "all-zones", "zones"]),
  /** The zones' ids; required (at least one) with `scope: "zones"`, refused with the other scopes. */
  zoneIds: z.array(z.string().trim()).optional(),
  /** The ids of the permission groups the policy grants or denies, at least one. */
  permissionGroupIds: z.array(z.string().trim()).min(1, { error: "must have at least one permission group" }),
}).superRefine((p, ctx) => {
  const zones = p.zoneIds?.length ?? 0;
  if (p.scope === "zones" && zones === 0)
    ctx.addIssue({ code: "custom", path: ["zoneIds"], message: 'must have at least one zone with scope "zones"' });
  if (p.scope !== "zones" && zones > 0)
    ctx.addIssue({ code: "custom", path: ["zoneIds"], message: 'may only be set with scope "zones"' });
});

/** The service's `ee/services/secret-rotation-v2/cloudflare-api-token/cloudflare-api-token-rotation-schemas.ts`. */
export const cloudflareApiToken = rotationRow({
  type: "cloudflare-api-token",
  label: "Cloudflare API Token",
  family: "Edge platform API token",
  origin: { folder: "ee/services/secret-rotation-v2/cloudflare-api-token/" },
  connectionApp: "cloudflare",
  parameters: strictObject({
    /** The name of the generated tokens (the service appends a timestamp), 1 to 100 characters. */
    name: cloudflareTokenName,
    /** The generated token's access policies, at least one. */
    policies: z.array(policy).min(1, { error: "must have at least one access policy" }),
    ...cloudflareTokenIpLists,
  }),
  secretsMapping: strictObject({
    /** The secret the active token's id is written to. */
    tokenId: secretName,
    /** The secret the active token is written to. */
    apiToken: secretName,
  }),
  generatedCredentials: z.object({ tokenId: z.string(), apiToken: z.string() }),
  secretFields: ["apiToken"],
  example: {
    parameters: {
      name: "emulator-rotated-token",
      policies: [{ effect: "allow", scope: "account", permissionGroupIds: ["emulator-permission-group"] }],
      allowedIps: ["192.0.2.0/24"],
    },
  },
});
