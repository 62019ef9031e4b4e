import { z } from "zod";
import { extendedKeyUsages, keyUsages, signatureAlgorithms, keyAlgorithms } from "./certificate-profiles";
import { dateTime, nonEmpty, strictObject, uuid } from "./common";
import type { Issue } from "./issues";

/**
 * Certificate policies: what a certificate profile's `certificatePolicyId` names, at
 * `/api/v1/cert-manager/certificate-policies` (docs/service-api.md §14; routes/v1/certificate-policy-router.ts,
 * services/certificate-policy/certificate-policy-service.ts). The service never refuses a name that
 * is taken: it stores the policy under another (`<name>-<8 characters>`).
 */

export const subjectAttributeTypes = [
  "common_name",
  "organization",
  "country",
  "state",
  "locality",
  "organizational_unit",
  "domain_component",
] as const;
export const sanTypes = ["dns_name", "ip_address", "email", "uri"] as const;
export const policyStates = ["allowed", "required", "denied"] as const;

const values = z.array(z.string()).optional();

/** The service's rule on each list rule: at least one of its three lists has a value. */
const hasAList = (r: { allowed?: unknown[]; required?: unknown[]; denied?: unknown[] }) =>
  [r.allowed, r.required, r.denied].some((l) => l !== undefined && l.length > 0);

const policySubject = strictObject({
  /** The subject attribute, e.g. `common_name`. */
  type: z.enum(subjectAttributeTypes),
  /** Values a certificate may have (wildcards such as `*.example.com`). */
  allowed: values,
  /** Values a certificate must have. */
  required: values,
  /** Values a certificate must not have. */
  denied: values,
}).refine(hasAList, {
  error: "Subject attribute must have at least one allowed, required, or denied value",
});

const policySan = strictObject({
  /** The subject alternative name's type, e.g. `dns_name`. */
  type: z.enum(sanTypes),
  allowed: values,
  required: values,
  denied: values,
}).refine(hasAList, {
  error: "SAN must have at least one allowed, required, or denied value",
});

const usages = <const U extends readonly [string, ...string[]]>(names: U, what: string, one: string) =>
  strictObject({
    allowed: z.array(z.enum(names)).optional(),
    required: z.array(z.enum(names)).optional(),
    denied: z.array(z.enum(names)).optional(),
  })
    .refine(hasAList, {
      error: `${what} must have at least one allowed, required, or denied value`,
    })
    .refine((r) => !(r.denied ?? []).some((u) => (r.allowed ?? []).includes(u) || (r.required ?? []).includes(u)), {
      error: `${one} cannot be both denied and present in the allowed or required arrays.`,
    });

const policyFields = {
  /** At most 1000 characters. Changing it updates in place. */
  description: z.string().max(1000, { error: "must be at most 1000 characters" }).optional(),
  /** Rules on the subject's attributes, one per attribute type. Changing them updates in place. */
  subject: z.array(policySubject).nullish(),
  /** Rules on the subject alternative names, one per type. Changing them updates in place. */
  sans: z.array(policySan).nullish(),
  /** Key usages certificates may, must or must not have. Changing them updates in place. */
  keyUsages: usages(keyUsages, "Key usages", "A key usage").nullish(),
  /** Extended key usages certificates may, must or must not have. Changing them updates in place. */
  extendedKeyUsages: usages(extendedKeyUsages, "Extended key usages", "An extended key usage").nullish(),
  /** The signature and key algorithms certificates may use. Changing them updates in place. */
  algorithms: strictObject({
    /** At least one signature algorithm. */
    signature: z
      .array(z.enum(signatureAlgorithms))
      .min(1, { error: "At least one signature algorithm must be provided" })
      .optional(),
    /** At least one key algorithm. */
    keyAlgorithm: z
      .array(z.enum(keyAlgorithms))
      .min(1, { error: "At least one key algorithm must be provided" })
      .optional(),
  }).nullish(),
  /** The longest validity, e.g. `365d`, `12m`, `1y` or `24h`. Changing it updates in place. */
  validity: strictObject({
    /** The longest validity: a number and `d`, `m`, `y` or `h`. */
    max: z
      .string()
      .regex(/^\d+[dmyh]$/, { error: "Max validity must be in format like '365d', '12m', '1y', or '24h'" })
      .optional(),
  }).nullish(),
  /** Whether certificates may, must or must not be CAs, and how deep. Changing it updates in place. */
  basicConstraints: strictObject({
    /** Whether a certificate may (`allowed`), must (`required`) or must not (`denied`) be a CA. */
    isCA: z.enum(policyStates).optional(),
    /** How many CAs may follow below a CA certificate; -1 for no limit. */
    maxPathLength: z
      .number()
      .int({ error: "Path length must be an integer" })
      .min(-1, { error: "Path length must be -1 (unlimited) or a non-negative integer" })
      .optional(),
  }).nullish(),
};

/**
 * The fields a policy's create and PATCH take beside its project and name: its description and its
 * rules. A PATCH writes each it is given (null clears a rule).
 */
export const certificatePolicyFieldNames = Object.keys(policyFields) as (keyof typeof policyFields)[];

/** The policy name on create: `slugSchema({ min: 1, max: 255, field: "Name" })`. */
const policyName = z
  .string()
  .trim()
  .min(1, { error: "must be at least 1 character" })
  .max(255, { error: "must be at most 255 characters" })
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: "Name field can only contain lowercase letters, numbers, and hyphens",
  });

/** POST /api/v1/cert-manager/certificate-policies body. */
export const CertificatePolicyCreateSchema = strictObject({
  /** The project (a certificate-manager project). Changing it replaces the policy. */
  projectId: nonEmpty,
  /** Lowercase letters, digits and hyphens, 1 to 255, unique in the project. Changing it renames the policy in place. */
  name: policyName,
  ...policyFields,
});
export type CertificatePolicyCreate = z.input<typeof CertificatePolicyCreateSchema>;

/** PATCH /api/v1/cert-manager/certificate-policies/{id} body: every field optional. */
export const CertificatePolicyUpdateSchema = strictObject({ name: policyName.optional(), ...policyFields });
export type CertificatePolicyUpdate = z.input<typeof CertificatePolicyUpdateSchema>;

const lists = z.object({
  allowed: z.array(z.string()).optional(),
  required: z.array(z.string()).optional(),
  denied: z.array(z.string()).optional(),
});

/** A certificate policy as returned. */
export const CertificatePolicySchema = z.object({
  id: z.string().min(1),
  projectId: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  subject: z.array(lists.extend({ type: z.string() })).nullish(),
  sans: z.array(lists.extend({ type: z.string() })).nullish(),
  keyUsages: lists.nullish(),
  extendedKeyUsages: lists.nullish(),
  algorithms: z
    .object({ signature: z.array(z.string()).optional(), keyAlgorithm: z.array(z.string()).optional() })
    .nullish(),
  validity: z.object({ max: z.string().optional() }).nullish(),
  basicConstraints: z.object({ isCA: z.string().optional(), maxPathLength: z.number().optional() }).nullish(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type CertificatePolicy = z.infer<typeof CertificatePolicySchema>;

export const CertificatePolicyEnvelope = z.object({ certificatePolicy: CertificatePolicySchema });
export const CertificatePolicyListEnvelope = z.object({
  certificatePolicies: z.array(CertificatePolicySchema),
  totalCount: z.number().int(),
});
export const CertificatePolicyListQuery = z.object({
  projectId: nonEmpty,
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100, { error: "must be at most 100" }).default(20),
  search: z.string().optional(),
});
export const CertificatePolicyParams = z.object({ id: uuid });

type Lists = { type: string; allowed?: string[]; required?: string[]; denied?: string[] };

/**
 * The service's rules on a policy's subject and SANs after its schema passed (403
 * ForbiddenRequestError, certificate-policy-service.ts): a type at most once, a value at most once
 * in each list. The SDK and `check` run them before sending; the emulator answers them.
 */
export function certificatePolicyRules(body: { subject?: Lists[] | null; sans?: Lists[] | null }): Issue[] {
  const issues: Issue[] = [];
  for (const [field, kind] of [
    ["subject", "subject attribute"],
    ["sans", "SAN"],
  ] as const) {
    const seen = new Set<string>();
    for (const [i, item] of (body[field] ?? []).entries()) {
      if (seen.has(item.type))
        issues.push({
          path: `${field}.${i}.type`,
          message: `Duplicate attribute type '${item.type}' found in request. Each attribute type must appear only once.`,
        });
      seen.add(item.type);
      for (const list of ["allowed", "required", "denied"] as const) {
        const values = item[list] ?? [];
        if (new Set(values).size !== values.length)
          issues.push({
            path: `${field}.${i}.${list}`,
            message: `Duplicate values found in ${list} list for ${kind} type '${item.type}'`,
          });
      }
    }
  }
  return issues;
}
