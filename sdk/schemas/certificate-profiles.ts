import { z } from "zod";
import { dateTime, nonEmpty, strictObject, uuid } from "./common";
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

export const estConfig = strictObject({
  /** Skip validating the client's bootstrap certificate against `caChain`. Default false. */
  disableBootstrapCaValidation: z.boolean().default(false),
  /** The passphrase EST clients authenticate with: secret, never returned by the service. */
  passphrase: z.string().min(1, { error: "must not be empty" }),
  /** PEM chain that bootstrap certificates are validated against. */
  caChain: z.string().optional(),
});
export const apiConfig = strictObject({
  /** Renew issued certificates automatically. Default false. */
  autoRenew: z.boolean().default(false),
  /** Renew this many days before expiry, 1 to 30. */
  renewBeforeDays: z
    .number()
    .int()
    .min(1, { error: "must be 1 to 30" })
    .max(30, { error: "must be 1 to 30" })
    .optional(),
});
export const acmeConfig = strictObject({
  /** Issue without verifying ownership of the DNS names (not with `skipEabBinding`). Default false. */
  skipDnsOwnershipVerification: z.boolean().optional(),
  /** Let ACME clients register without external account binding (not with `skipDnsOwnershipVerification`). Default false. */
  skipEabBinding: z.boolean().optional(),
}).refine((c) => !(c.skipDnsOwnershipVerification && c.skipEabBinding), {
  error: "skipDnsOwnershipVerification and skipEabBinding cannot both be true",
});
const scepFields = {
  /**
   * How SCEP clients prove themselves: `static`, a shared challenge password (the default), or
   * `dynamic`, a one-time challenge each client fetches from the service.
   */
  challengeType: z.enum(["static", "dynamic"]).default("static"),
  /** The static challenge password, at least 8 characters: secret, never returned by the service. */
  challengePassword: z.string().optional(),
  /** Include the CA's certificate in SCEP responses. Default true. */
  includeCaCertInResponse: z.boolean().optional(),
  /** Let a client renew with its current certificate instead of the challenge. Default true. */
  allowCertBasedRenewal: z.boolean().optional(),
  /** A `dynamic` challenge's lifetime in minutes, 1 to 1440. Default 60. */
  dynamicChallengeExpiryMinutes: z
    .number()
    .int()
    .min(1, { error: "must be 1 to 1440" })
    .max(1440, { error: "must be 1 to 1440" })
    .optional(),
  /** How many `dynamic` challenges may wait unused at once, 1 to 1000. Default 100. */
  dynamicChallengeMaxPending: z
    .number()
    .int()
    .min(1, { error: "must be 1 to 1000" })
    .max(1000, { error: "must be 1 to 1000" })
    .optional(),
};
const SCEP_PASSWORD_RULE = "a static challenge needs a challengePassword of at least 8 characters";
/** On create a static challenge needs its password; a dynamic one needs none. */
export const scepConfig = strictObject(scepFields).refine(
  (c) => c.challengeType !== "static" || (c.challengePassword ?? "").length >= 8,
  {
    error: SCEP_PASSWORD_RULE,
    path: ["challengePassword"],
  },
);
/**
 * On PATCH the stored password is kept when none is sent; the 8-character rule applies only to a
 * static challenge's password that is sent (docs/service-api.md §9).
 */
export const scepConfigUpdate = strictObject({
  ...scepFields,
  challengeType: scepFields.challengeType.removeDefault().optional(),
}).refine(
  (c) => c.challengeType === "dynamic" || c.challengePassword === undefined || c.challengePassword.length >= 8,
  {
    error: SCEP_PASSWORD_RULE,
    path: ["challengePassword"],
  },
);
/** On PATCH an EST config without `passphrase` keeps the stored one. */
export const estConfigUpdate = estConfig.extend({ passphrase: estConfig.shape.passphrase.optional() });
export const externalConfigs = strictObject({
  /** The external CA's certificate template, e.g. an AD CS template name. */
  template: z.string().optional(),
});

export const certificateDefaults = strictObject({
  /** Validity of issued certificates, in whole days. */
  ttlDays: z
    .number()
    .int({ error: "must be a positive whole number of days" })
    .positive({ error: "must be a positive whole number of days" })
    .optional(),
  /** Subject common name (CN). */
  commonName: z.string().optional(),
  /** Subject organization (O). */
  organization: z.string().optional(),
  /** Subject organizational unit (OU). */
  organizationalUnit: z.string().optional(),
  /** Subject country (C). */
  country: z.string().optional(),
  /** Subject state or province (ST). */
  state: z.string().optional(),
  /** Subject locality (L). */
  locality: z.string().optional(),
  /** Subject domain components (DC). */
  domainComponents: z.array(z.string()).optional(),
  /** The basic-constraints extension: whether a certificate may sign others (`isCA`) and how deep (`pathLength`). */
  basicConstraints: strictObject({
    /** Issued certificates are CA certificates. */
    isCA: z.boolean(),
    /** How many CA certificates may follow below an issued one. */
    pathLength: z.number().int().min(0).optional(),
  }).optional(),
  /** The key algorithm of issued certificates. */
  keyAlgorithm: z.enum(keyAlgorithms).optional(),
  /** The signature algorithm of issued certificates. */
  signatureAlgorithm: z.enum(signatureAlgorithms).optional(),
  /** Key usages of issued certificates. */
  keyUsages: z.array(z.enum(keyUsages)).optional(),
  /** Extended key usages of issued certificates. */
  extendedKeyUsages: z.array(z.enum(extendedKeyUsages)).optional(),
});

/**
 * The enrollment types, one row each (docs/service-api.md §4, from the service's router and
 * service: routes/v1/certificate-profiles-router.ts, services/certificate-profile/certificate-profile-service.ts):
 * - `configKey`: the config object of the type; `configRequired`: create refuses the type
 *   without it (403), as the service does for EST, API and SCEP; ACME makes none unless sent.
 * - `secretFields`: stored hashed or encrypted, never returned.
 * - `serviceDefaults`: what the service stores for a field not sent, and reports for it (`caChain`
 *   is `""` when none is stored).
 */
export const enrollmentTypes = {
  api: { configKey: "apiConfig", configRequired: true, secretFields: [], serviceDefaults: {} },
  est: {
    configKey: "estConfig",
    configRequired: true,
    secretFields: ["passphrase"],
    serviceDefaults: { caChain: "" },
  },
  acme: {
    configKey: "acmeConfig",
    configRequired: false,
    secretFields: [],
    serviceDefaults: { skipDnsOwnershipVerification: false, skipEabBinding: false },
  },
  scep: {
    configKey: "scepConfig",
    configRequired: true,
    secretFields: ["challengePassword"],
    serviceDefaults: {
      includeCaCertInResponse: true,
      allowCertBasedRenewal: true,
      dynamicChallengeExpiryMinutes: 60,
      dynamicChallengeMaxPending: 100,
    },
  },
} as const satisfies Record<
  string,
  {
    configKey: string;
    configRequired: boolean;
    secretFields: readonly string[];
    serviceDefaults: Readonly<Record<string, unknown>>;
  }
>;
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
  /** 1 to 255 characters matching `^[a-z0-9-]+$`, unique in the project. Changing it updates in place. */
  slug: profileSlug,
  /** At most 1000 characters; leaving it out clears it. */
  description: profileDescription.optional(),
  /** How certificates are requested: `api`, `est`, `acme` or `scep`, each with its config object. Changing it replaces the profile. */
  enrollmentType: z.enum(enrollmentTypeNames as [EnrollmentType, ...EnrollmentType[]]),
  issuerType: z.enum(issuerTypes),
  /** EST enrollment's config: required with `enrollmentType: "est"`. */
  estConfig: estConfig.optional(),
  /** API enrollment's config: required with `enrollmentType: "api"`. */
  apiConfig: apiConfig.optional(),
  /** ACME enrollment's config, optional with `enrollmentType: "acme"`. */
  acmeConfig: acmeConfig.optional(),
  /** SCEP enrollment's config: required with `enrollmentType: "scep"`. */
  scepConfig: scepConfig.optional(),
  /** Only with an external CA, e.g. its `template`. */
  externalConfigs: externalConfigs.optional(),
  /** Defaults of issued certificates: lifetime, subject fields, algorithms and key usages. */
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
export const CertificateProfileCreateSchema = strictObject({
  /** The project. Changing it replaces the profile. */
  projectId: nonEmpty,
  /** The certificate policy (UUID) issued certificates follow. Changing it replaces the profile. */
  certificatePolicyId: uuid,
  /** The certificate authority (UUID) of the project that signs, with `issuerType: "ca"`. Changing it replaces the profile. */
  caId: uuid.optional(),
  ...profileFields,
  /** `ca` (default; needs `caId`) or `self-signed` (no `caId`, `api` enrollment only). Changing it replaces the profile. */
  issuerType: profileFields.issuerType.default("ca"),
}).superRefine((p, ctx) => {
  profileRules(p, ctx);
  if (p.issuerType === "ca" && !p.caId) {
    ctx.addIssue({ code: "custom", path: ["caId"], message: 'is required when issuerType is "ca"' });
  }
});
export type CertificateProfileCreate = z.input<typeof CertificateProfileCreateSchema>;

/** PATCH /api/v1/cert-manager/certificate-profiles/{id} body: all optional; projectId is immutable. */
export const CertificateProfileUpdateSchema = strictObject({
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
}).superRefine(profileRules);
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
 * A certificate profile as returned. Only the read of one profile (`GET /{id}`) and the list carry
 * the config objects, each with its `id` and without its secret fields; create, update, delete and
 * the read by slug return the profile's row alone, with the config ids (docs/service-api.md §4).
 * Read leniently: unknown fields are dropped, an enrollment or issuer type this package does not
 * know is passed through, and what older servers lack (`scepConfigId`, `defaults`, the config ids)
 * is optional.
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
    .object({
      id: z.string().optional(),
      disableBootstrapCaValidation: z.boolean().optional(),
      caChain: z.string().nullish(),
    })
    .nullish(),
  apiConfig: z
    .object({ id: z.string().optional(), autoRenew: z.boolean().optional(), renewBeforeDays: z.number().nullish() })
    .nullish(),
  acmeConfig: z
    .object({
      id: z.string().optional(),
      skipDnsOwnershipVerification: z.boolean().optional(),
      skipEabBinding: z.boolean().optional(),
      directoryUrl: z.string().optional(),
    })
    .nullish(),
  scepConfig: z
    .object({
      id: z.string().optional(),
      challengeType: z.string().optional(),
      includeCaCertInResponse: z.boolean().optional(),
      allowCertBasedRenewal: z.boolean().optional(),
      dynamicChallengeExpiryMinutes: z.number().nullish(),
      dynamicChallengeMaxPending: z.number().nullish(),
      scepEndpointUrl: z.string().optional(),
      challengeEndpointUrl: z.string().optional(),
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
