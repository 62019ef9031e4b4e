import { z } from "zod";
import { identityAuthMethod, positiveMaxTtl } from "./row";
import { strictObject } from "../common";

/** A search filter with balanced parentheses, as `isValidLdapFilter` requires at least. */
const balanced = (f: string) => {
  let depth = 0;
  for (const c of f) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0 && f.startsWith("(");
};
const lockout = (min: number, max: number, d: number) => ({
  schema: z
    .number()
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` }),
  default: d,
});

/**
 * The service's `server/routes/v1/identity-ldap-auth-router.ts`: a login sends an LDAP user's
 * name and password, which the service checks by binding to `url` (or a template's server) with
 * `bindDN`, searching `searchBase` with `searchFilter`, and matching `allowedFields`. The attach is
 * a union of a manual configuration (url, bind DN and password, search base) and a template's;
 * the PATCH does not take the CA certificate (a change re-attaches).
 */
export const ldapAuth = identityAuthMethod({
  method: "ldap-auth",
  label: "LDAP Auth",
  alreadyAttachedMessage: "Failed to add LDAP Auth to already configured identity",
  notAttachedMessage: "The identity does not have LDAP Auth attached",
  notAttachedStatus: 404,
  origin: "backend/src/server/routes/v1/identity-ldap-auth-router.ts",
  responseKey: "identityLdapAuth",
  fields: {
    /** The LDAP server's URL (`ldaps://ldap.acme.com:636`); with `bindDN`, `bindPass` and `searchBase`, unless `templateId` is set. */
    url: { schema: z.string().trim().optional() },
    /** The DN the service binds as: secret (the service keeps it encrypted). */
    bindDN: { schema: z.string().trim().optional() },
    /** That DN's password: secret. */
    bindPass: { schema: z.string().trim().optional() },
    /** Where users are searched. */
    searchBase: { schema: z.string().trim().optional() },
    /** A configuration template of the organization, instead of `url`, `bindDN`, `bindPass` and `searchBase`. */
    templateId: { schema: z.string().trim().optional() },
    /** The search filter; `{{username}}` is the login's user name. Default `(uid={{username}})`. */
    searchFilter: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "must not be empty" })
        .refine(balanced, { error: "Invalid LDAP search filter" }),
      default: "(uid={{username}})",
    },
    /** User attributes a login's user must have, each `{ key, value }` (value a comma-separated list). */
    allowedFields: {
      schema: z
        .array(
          strictObject({
            key: z.string().trim(),
            value: z
              .string()
              .trim()
              .transform((v) => v.replace(/\s/g, "")),
          }),
        )
        .optional(),
    },
    /** The PEM CA certificate of the LDAP server: secret. The PATCH does not take it: a change re-attaches the method. */
    ldapCaCertificate: { schema: z.string().trim().optional() },
    accessTokenMaxTTL: positiveMaxTtl,
    /** Lock the login out after `lockoutThreshold` failed attempts. Default true. */
    lockoutEnabled: { schema: z.boolean(), default: true },
    /** Failed attempts before the lockout, 1 to 30. Default 3. */
    lockoutThreshold: lockout(1, 30, 3),
    /** Seconds a lockout lasts, 30 to 86400. Default 300. */
    lockoutDurationSeconds: lockout(30, 86400, 300),
    /** Seconds after which the count of failed attempts starts again, 5 to 3600. Default 30. */
    lockoutCounterResetSeconds: lockout(5, 3600, 30),
  },
  notInPatch: ["ldapCaCertificate"],
  secretFields: ["bindDN", "bindPass", "ldapCaCertificate"],
  returnedSecretFields: ["bindDN", "bindPass", "ldapCaCertificate"],
  secretsOnlyOnGet: true,
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  attachRules(body) {
    if (body.templateId) return [];
    return (["url", "bindDN", "bindPass", "searchBase"] as const)
      .filter((k) => typeof body[k] !== "string")
      .map((k) => ({ path: k, message: "is required unless templateId is set" }));
  },
  example: {
    url: "ldaps://ldap.acme.com:636",
    bindDN: "cn=infisical,ou=services,dc=acme,dc=com",
    bindPass: "example-bind-password",
    searchBase: "ou=machines,dc=acme,dc=com",
  },
});
