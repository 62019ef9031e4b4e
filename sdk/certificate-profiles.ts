import type { z } from "zod";
import type { Issue } from "./errors";
import { type Transport, segment } from "./http";
import {
  type CertificateProfile,
  type CertificateProfileCreate,
  type CertificateProfileUpdate,
  CertificateProfileBySlugQuery,
  CertificateProfileCreateSchema,
  CertificateProfileEnvelope,
  CertificateProfileListEnvelope,
  CertificateProfileListQuery,
  CertificateProfileUpdateSchema,
  apiPaths,
  enrollmentTypes,
  missingEnrollmentConfig,
  nonEmpty,
  uuid,
} from "./schemas";

/** Certificate profiles (spec 4.4; reference §4 for reads and delete). */

export type CertificateProfileListQueryInput = z.input<typeof CertificateProfileListQuery>;
export type CertificateProfileList = z.infer<typeof CertificateProfileListEnvelope>;

/**
 * The service's own rule (a 403 there, so not in the zod schema): EST, API and SCEP enrollment
 * need their config object. Checked on create only: on PATCH the profile may already have its
 * config, which the body does not show.
 */
function createRules(body: z.output<typeof CertificateProfileCreateSchema>): Issue[] {
  const violation = missingEnrollmentConfig(body);
  return violation ? [{ path: enrollmentTypes[body.enrollmentType].configKey, message: violation }] : [];
}

export class CertificateProfilesApi {
  private readonly base = apiPaths.certificateProfiles;
  constructor(private readonly t: Transport) {}

  /** One page (offset/limit, at most 100) and the total count. */
  async list(query: CertificateProfileListQueryInput): Promise<CertificateProfileList> {
    return this.t.request({
      method: "GET",
      path: this.base,
      query,
      querySchema: CertificateProfileListQuery,
      responseSchema: CertificateProfileListEnvelope,
    });
  }

  async get(id: string): Promise<CertificateProfile> {
    const res = await this.t.request({
      method: "GET",
      path: `${this.base}/${segment(id)}`,
      params: { id: [id, uuid] },
      responseSchema: CertificateProfileEnvelope,
    });
    return res.certificateProfile;
  }

  /** Find by slug within a project (adoption, and resolving an ambiguous create). */
  async getBySlug(slug: string, projectId: string): Promise<CertificateProfile> {
    const res = await this.t.request({
      method: "GET",
      path: `${this.base}/slug/${segment(slug)}`,
      params: { slug: [slug, nonEmpty] },
      query: { projectId },
      querySchema: CertificateProfileBySlugQuery,
      responseSchema: CertificateProfileEnvelope,
    });
    return res.certificateProfile;
  }

  async create(body: CertificateProfileCreate): Promise<CertificateProfile> {
    const res = await this.t.request({
      method: "POST",
      path: this.base,
      body,
      bodySchema: CertificateProfileCreateSchema,
      rules: createRules,
      responseSchema: CertificateProfileEnvelope,
    });
    return res.certificateProfile;
  }

  async update(id: string, body: CertificateProfileUpdate): Promise<CertificateProfile> {
    const res = await this.t.request({
      method: "PATCH",
      path: `${this.base}/${segment(id)}`,
      params: { id: [id, uuid] },
      body,
      bodySchema: CertificateProfileUpdateSchema,
      responseSchema: CertificateProfileEnvelope,
    });
    return res.certificateProfile;
  }

  async delete(id: string): Promise<CertificateProfile> {
    const res = await this.t.request({
      method: "DELETE",
      path: `${this.base}/${segment(id)}`,
      params: { id: [id, uuid] },
      responseSchema: CertificateProfileEnvelope,
    });
    return res.certificateProfile;
  }
}
