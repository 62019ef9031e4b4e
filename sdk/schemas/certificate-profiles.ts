import { z } from "zod";
import { dateTime, nonEmpty, uuid } from "./common";
import type { Issue } from "./issues";

/**
 * Certificate profiles (docs/api-spec.md §2.4, 4.4; docs/service-api.md §4). The enrollment types are rows of
 * `enrollmentTypes`: which config object belongs to each, whether it is required, and which of
 * its fields are secret.
 */

export const keyAlgorithms = ["RSA_2048", "RSA_3072", "RSA_4096", "EC_prime256v1", "EC_secp384r1"] as const;
export const signatureAlgorithms = [
  "RSA-SHA256",
  "RSA-SHA384",
  "RSA-SHA512",
  "ECDSA-SHA256",
  "ECDSA-SHA384",
  "ECDSA-SHA512",
] as const;
export const keyUsages = [
  "digital_signature",
  "key_encipherment",
  "non_repudiation",
  "data_encipherment",
  "key_agreement",
  "key_cert_sign",
  "crl_sign",
  "encipher_only",
  "decipher_only",
] as const;
export const extendedKeyUsages = [
  "client_auth",
  "server_auth",
  "code_signing",
  "email_protection",
  "ocsp_signing",
  "time_stamping",
] as const;

export const estConfig = z.object({
  disableBootstrapCaValidation: z.boolean().default(false),
  passphrase: z.string().min(1, { error: "must not be empty" }),
  caChain: z.string().optional(),
});
export const apiConfig = z.object({
  autoRenew: z.boolean().default(false),
  renewBeforeDays: z
    .number()
    .int()
    .min(1, { error: "must be 1 to 30" })
    .max(30, { error: "must be 1 to 30" })
    .optional(),
});
export const acmeConfig = z
  .object({ skipDnsOwnershipVerification: z.boolean().optional(), skipEabBinding: z.boolean().optional() })
  .refine((c) => !(c.skipDnsOwnershipVerification && c.skipEabBinding), {
    error: "skipDnsOwnershipVerification and skipEabBinding cannot both be true",
  });
const scepFields = {
  challengeType: z.enum(["static"]).default("static"),
  challengePassword: z.string().optional(),
  includeCaCertInResponse: z.boolean().optional(),
  allowCertBasedRenewal: z.boolean().optional(),
};
const SCEP_PASSWORD_RULE = "a static challenge needs a challengePassword of at least 8 characters";
/** On create a static challenge needs its password. */
export const scepConfig = z
  .object(scepFields)
  .refine((c) => c.challengeType !== "static" || (c.challengePassword ?? "").length >= 8, {
    error: SCEP_PASSWORD_RULE,
    path: ["challengePassword"],
  });
/**
 * On PATCH the stored password is kept when none is sent; the 8-character rule applies only to a
 * password that is sent (docs/service-api.md §9).
 */
export const scepConfigUpdate = z
  .object({ ...scepFields, challengeType: scepFields.challengeType.removeDefault().optional() })
  .refine((c) => c.challengePassword === undefined || c.challengePassword.length >= 8, {
    error: SCEP_PASSWORD_RULE,
    path: ["challengePassword"],
  });
/** On PATCH an EST config without `passphrase` keeps the stored one. */
export const estConfigUpdate = estConfig.extend({ passphrase: estConfig.shape.passphrase.optional() });
export const externalConfigs = z.object({ template: z.string().optional() });

export const certificateDefaults = z.object({
  ttlDays: z
    .number()
    .int({ error: "must be a positive whole number of days" })
    .positive({ error: "must be a positive whole number of days" })
    .optional(),
  commonName: z.string().optional(),
  organization: z.string().optional(),
  organizationalUnit: z.string().optional(),
  country: z.string().optional(),
  state: z.string().optional(),
  locality: z.string().optional(),
  domainComponents: z.array(z.string()).optional(),
  basicConstraints: z.object({ isCA: z.boolean(), pathLength: z.number().int().min(0).optional() }).optional(),
  keyAlgorithm: z.enum(keyAlgorithms).optional(),
  signatureAlgorithm: z.enum(signatureAlgorithms).optional(),
  keyUsages: z.array(z.enum(keyUsages)).optional(),
  extendedKeyUsages: z.array(z.enum(extendedKeyUsages)).optional(),
});

export const enrollmentTypes = {
  api: { configKey: "apiConfig", configRequired: true, secretFields: [] },
  est: { configKey: "estConfig", configRequired: true, secretFields: ["passphrase"] },
  acme: { configKey: "acmeConfig", configRequired: false, secretFields: [] },
  scep: { configKey: "scepConfig", configRequired: true, secretFields: ["challengePassword"] },
} as const satisfies Record<string, { configKey: string; configRequired: boolean; secretFields: readonly string[] }>;
export type EnrollmentType = keyof typeof enrollmentTypes;
export const enrollmentTypeNames = Object.keys(enrollmentTypes) as EnrollmentType[];
export const configKeys = enrollmentTypeNames.map((t) => enrollmentTypes[t].configKey);
export const issuerTypes = ["ca", "self-signed"] as const;

export const profileSlug = z
  .string()
  .min(1, { error: "must be 1 to 255 characters" })
  .max(255, { error: "must be 1 to 255 characters" })
  .regex(/^[a-z0-9-]+$/, { error: "may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)" });
const profileDescription = z.string().max(1000, { error: "must be at most 1000 characters" });

const profileFields = {
  slug: profileSlug,
  description: profileDescription.optional(),
  enrollmentType: z.enum(enrollmentTypeNames as [EnrollmentType, ...EnrollmentType[]]),
  issuerType: z.enum(issuerTypes),
  estConfig: estConfig.optional(),
  apiConfig: apiConfig.optional(),
  acmeConfig: acmeConfig.optional(),
  scepConfig: scepConfig.optional(),
  externalConfigs: externalConfigs.optional(),
  defaults: certificateDefaults.nullish(),
};

type ProfileShape = { enrollmentType?: EnrollmentType; issuerType?: string; caId?: string | null } & Partial<
  Record<(typeof configKeys)[number], unknown>
>;

/** Zod-level rules (422): a config object must match the enrollment type; issuer rules. */
function profileRules(p: ProfileShape, ctx: z.core.$RefinementCtx) {
  if (p.enrollmentType) {
    for (const key of configKeys) {
      if (p[key] !== undefined && key !== enrollmentTypes[p.enrollmentType].configKey) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `is not allowed with enrollmentType "${p.enrollmentType}"`,
        });
      }
    }
  }
  if (p.issuerType === "self-signed") {
    if (p.caId)
      ctx.addIssue({ code: "custom", path: ["caId"], message: 'must not be set when issuerType is "self-signed"' });
    if (p.enrollmentType && p.enrollmentType !== "api") {
      ctx.addIssue({
        code: "custom",
        path: ["enrollmentType"],
        message: 'must be "api" when issuerType is "self-signed"',
      });
    }
  }
}

/** POST /api/v1/cert-manager/certificate-profiles body. */
export const CertificateProfileCreateSchema = z
  .object({
    projectId: nonEmpty,
    certificatePolicyId: uuid,
    caId: uuid.optional(),
    ...profileFields,
    issuerType: profileFields.issuerType.default("ca"),
  })
  .superRefine((p, ctx) => {
    profileRules(p, ctx);
    if (p.issuerType === "ca" && !p.caId) {
      ctx.addIssue({ code: "custom", path: ["caId"], message: 'is required when issuerType is "ca"' });
    }
  });
export type CertificateProfileCreate = z.input<typeof CertificateProfileCreateSchema>;

/** PATCH /api/v1/cert-manager/certificate-profiles/{id} body: all optional; projectId is immutable. */
export const CertificateProfileUpdateSchema = z
  .object({
    slug: profileFields.slug.optional(),
    // `null` clears the description (the service's update body takes it nullable).
    description: profileDescription.nullish(),
    enrollmentType: profileFields.enrollmentType.optional(),
    issuerType: profileFields.issuerType.optional(),
    estConfig: estConfigUpdate.optional(),
    apiConfig: profileFields.apiConfig,
    acmeConfig: profileFields.acmeConfig,
    scepConfig: scepConfigUpdate.optional(),
    externalConfigs: profileFields.externalConfigs,
    defaults: profileFields.defaults,
  })
  .superRefine(profileRules);
export type CertificateProfileUpdate = z.input<typeof CertificateProfileUpdateSchema>;

/**
 * The service's rule beyond the schema (a 403 there, so not a zod rule): EST, API and SCEP
 * enrollment need their config object. Returns the violation, if any.
 */
export function missingEnrollmentConfig(
  p: { enrollmentType?: EnrollmentType } & Record<string, unknown>,
): string | undefined {
  if (!p.enrollmentType) return undefined;
  const row = enrollmentTypes[p.enrollmentType];
  if (row.configRequired && p[row.configKey] === undefined) {
    return `${p.enrollmentType.toUpperCase()} enrollment requires ${p.enrollmentType.toUpperCase()} configuration`;
  }
  return undefined;
}

/**
 * The create body's service rules, as issues. Checked on create only: on PATCH the profile may
 * already have its config, which the body does not show.
 */
export function certificateProfileCreateRules(body: z.output<typeof CertificateProfileCreateSchema>): Issue[] {
  const violation = missingEnrollmentConfig(body);
  return violation ? [{ path: enrollmentTypes[body.enrollmentType].configKey, message: violation }] : [];
}

/**
 * A certificate profile as returned. Config objects come back without their secret fields. Read
 * leniently: unknown fields are dropped, an enrollment or issuer type this package does not know
 * is passed through, and what older servers lack (`scepConfigId`, `defaults`, the config ids) is
 * optional.
 */
export const CertificateProfileSchema = z.object({
  id: z.string().min(1),
  projectId: z.string(),
  certificatePolicyId: z.string().nullish(),
  slug: z.string(),
  enrollmentType: z.string(),
  issuerType: z.string().optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
  caId: z.string().nullish(),
  description: z.string().nullish(),
  estConfigId: z.string().nullish(),
  apiConfigId: z.string().nullish(),
  acmeConfigId: z.string().nullish(),
  scepConfigId: z.string().nullish(),
  externalConfigs: z.looseObject({ template: z.string().optional() }).nullish(),
  defaults: z.record(z.string(), z.unknown()).nullish(),
  estConfig: z
    .object({ disableBootstrapCaValidation: z.boolean().optional(), caChain: z.string().nullish() })
    .nullish(),
  apiConfig: z.object({ autoRenew: z.boolean().optional(), renewBeforeDays: z.number().nullish() }).nullish(),
  acmeConfig: z
    .object({
      skipDnsOwnershipVerification: z.boolean().optional(),
      skipEabBinding: z.boolean().optional(),
      directoryUrl: z.string().optional(),
    })
    .nullish(),
  scepConfig: z
    .object({
      challengeType: z.string().optional(),
      includeCaCertInResponse: z.boolean().optional(),
      allowCertBasedRenewal: z.boolean().optional(),
    })
    .nullish(),
});
export type CertificateProfile = z.infer<typeof CertificateProfileSchema>;

/** The enrollment-type row of a profile as returned, or undefined for a type this package does not know. */
export function enrollmentTypeOf(p: { enrollmentType: string }) {
  return (enrollmentTypes as Record<string, (typeof enrollmentTypes)[EnrollmentType] | undefined>)[p.enrollmentType];
}

export const CertificateProfileEnvelope = z.object({ certificateProfile: CertificateProfileSchema });
export const CertificateProfileListEnvelope = z.object({
  certificateProfiles: z.array(CertificateProfileSchema),
  totalCount: z.number().int(),
});
export const CertificateProfileListQuery = z.object({
  projectId: nonEmpty,
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100, { error: "must be at most 100" }).default(20),
  search: z.string().optional(),
  enrollmentType: z.enum(enrollmentTypeNames as [EnrollmentType, ...EnrollmentType[]]).optional(),
  issuerType: z.enum(issuerTypes).optional(),
  caId: uuid.optional(),
});
export const CertificateProfileBySlugQuery = z.object({ projectId: nonEmpty });
