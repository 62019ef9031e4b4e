import { z } from "zod";
import { keyAlgorithms } from "./certificate-profiles";
import { dateTime, nonEmpty, slug, strictObject, uuid } from "./common";

/**
 * Internal certificate authorities, at `/api/v1/cert-manager/ca/internal` (docs/service-api.md
 * §13; routes/v1/certificate-authority-routers/, services/certificate-authority/internal/). Unlike
 * the other families, these routes answer with the CA itself, in no envelope.
 */

export const caStatuses = ["active", "disabled", "pending-certificate"] as const;
export const internalCaTypes = ["root", "intermediate"] as const;

/** A date the CA routes take (`validateCaDateField`): an ISO 8601 date-time. */
const caDate = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2036-01-01T00:00:00Z" });

const subjectField = z.string().trim().default("");

/** The fields of an internal CA's configuration (`InternalCertificateAuthorityConfigurationSchema`). */
export const internalCaConfigurationFields = strictObject({
  /** `root` (self-signed) or `intermediate` (signed by `parentCaId`). */
  type: z.enum(internalCaTypes),
  /** A name for people; the service's own name is `name`. */
  friendlyName: z.string().optional(),
  /** Subject common name (CN); one subject field at least must not be empty. */
  commonName: subjectField,
  /** Subject organization (O). */
  organization: subjectField,
  /** Subject organizational unit (OU). */
  ou: subjectField,
  /** Subject country (C). */
  country: subjectField,
  /** Subject state or province (ST). */
  province: subjectField,
  /** Subject locality (L). */
  locality: subjectField,
  /** Start of validity; default now. */
  notBefore: caDate.optional(),
  /** End of validity: a root without one stays `pending-certificate` and never issues. */
  notAfter: caDate.optional(),
  /** How many CAs may follow below it; -1 (default) for no limit. */
  maxPathLength: z.number().int().min(-1, { error: "must be -1 (no limit) or more" }).default(-1),
  /** The key algorithm of the CA's own key. */
  keyAlgorithm: z.enum(keyAlgorithms).default("RSA_2048"),
  /** An intermediate's signing CA (a CA of the same project). */
  parentCaId: uuid.nullish(),
});

/** The service's rule on the subject: one of its fields at least is not empty. */
export const hasSubject = [
  (c: { commonName: string; organization: string; ou: string; country: string; province: string; locality: string }) =>
    [c.commonName, c.organization, c.ou, c.country, c.province, c.locality].some((v) => v !== ""),
  {
    error: "At least one of the fields commonName, organization, ou, country, province, or locality must be non-empty",
  },
] as const;

/** The subject, key and lifetime of an internal CA. */
export const internalCaConfiguration = internalCaConfigurationFields.refine(...hasSubject);

/** POST /api/v1/cert-manager/ca/internal body. */
export const InternalCaCreateSchema = strictObject({
  /** The project (a certificate-manager project). Changing it replaces the CA. */
  projectId: nonEmpty,
  /** Lowercase letters, digits and single hyphens, unique in the project. Changing it replaces the CA. */
  name: slug("name", 64),
  /** `active` (default) or `disabled`. Changing it updates in place. */
  status: z.enum(caStatuses).default("active"),
  /** The CA's subject, key and lifetime. Changing it replaces the CA. */
  configuration: internalCaConfiguration,
});
export type InternalCaCreate = z.input<typeof InternalCaCreateSchema>;

/** PATCH /api/v1/cert-manager/ca/internal/{id} body: the newest service changes only the status. */
export const InternalCaUpdateSchema = strictObject({ status: z.enum(caStatuses).optional() });
export type InternalCaUpdate = z.input<typeof InternalCaUpdateSchema>;

/** An internal CA as returned. */
export const InternalCaSchema = z.object({
  id: z.string().min(1),
  type: z.string().optional(),
  name: z.string(),
  projectId: z.string(),
  status: z.string(),
  enableDirectIssuance: z.boolean().optional(),
  configuration: z
    .object({
      type: z.string(),
      friendlyName: z.string().nullish(),
      commonName: z.string().nullish(),
      organization: z.string().nullish(),
      ou: z.string().nullish(),
      country: z.string().nullish(),
      province: z.string().nullish(),
      locality: z.string().nullish(),
      notBefore: z.string().nullish(),
      notAfter: z.string().nullish(),
      maxPathLength: z.number().nullish(),
      keyAlgorithm: z.string().nullish(),
      parentCaId: z.string().nullish(),
      dn: z.string().nullish(),
      serialNumber: z.string().nullish(),
      activeCaCertId: z.string().nullish(),
    })
    .optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type InternalCa = z.infer<typeof InternalCaSchema>;
export const InternalCaListSchema = z.array(InternalCaSchema);
export const InternalCaListQuery = z.object({ projectId: nonEmpty });

/** The intermediate's CSR, the parent's signature of it, and its import. */
export const CaCsrSchema = z.object({ csr: z.string() });
export const CaSignIntermediateSchema = strictObject({
  csr: z.string().trim().min(1),
  notBefore: caDate.optional(),
  notAfter: caDate,
  maxPathLength: z.number().int().min(-1).default(-1),
});
export const CaSignedIntermediateSchema = z.object({
  certificate: z.string(),
  certificateChain: z.string(),
  issuingCaCertificate: z.string().optional(),
  serialNumber: z.string().optional(),
});
export const CaImportCertificateSchema = strictObject({
  certificate: z.string().trim().min(1),
  certificateChain: z.string().trim(),
});
export const CaImportedSchema = z.object({ message: z.string().optional(), caId: z.string() });
