import type { z } from "zod";
import type { Transport } from "./http";
import {
  type CertificateProfile,
  type CertificateProfileCreate,
  type CertificateProfileUpdate,
  CertificateProfileListEnvelope,
  CertificateProfileListQuery,
  certificateProfileOperations as ops,
} from "./schemas";

export type CertificateProfileListQueryInput = z.input<typeof CertificateProfileListQuery>;
export type CertificateProfileList = z.infer<typeof CertificateProfileListEnvelope>;

/** Certificate profiles, each call one row of `certificateProfileOperations`. */
export class CertificateProfilesApi {
  constructor(private readonly t: Transport) {}

  /** One page (offset/limit, at most 100) and the total count. */
  async list(query: CertificateProfileListQueryInput): Promise<CertificateProfileList> {
    return this.t.call(ops.list, { query });
  }

  async get(id: string): Promise<CertificateProfile> {
    return (await this.t.call(ops.get, { params: { id } })).certificateProfile;
  }

  /** Find by slug within a project (adoption, and resolving an ambiguous create). */
  async getBySlug(slug: string, projectId: string): Promise<CertificateProfile> {
    return (await this.t.call(ops.getBySlug, { params: { slug }, query: { projectId } })).certificateProfile;
  }

  /** EST, API and SCEP enrollment need their config object (checked before sending). */
  async create(body: CertificateProfileCreate): Promise<CertificateProfile> {
    return (await this.t.call(ops.create, { body })).certificateProfile;
  }

  async update(id: string, body: CertificateProfileUpdate): Promise<CertificateProfile> {
    return (await this.t.call(ops.update, { params: { id }, body })).certificateProfile;
  }

  async delete(id: string): Promise<CertificateProfile> {
    return (await this.t.call(ops.delete, { params: { id } })).certificateProfile;
  }
}
