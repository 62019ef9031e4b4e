import { z } from "zod";
import {
  CertificateProfileBySlugQuery,
  CertificateProfileCreateSchema,
  CertificateProfileEnvelope,
  CertificateProfileListEnvelope,
  CertificateProfileListQuery,
  CertificateProfileUpdateSchema,
  certificateProfileCreateRules,
} from "../certificate-profiles";
import { nonEmpty, uuid } from "../common";
import { apiPaths } from "../paths";
import { op } from "./operation";

const profileId = z.object({ id: uuid });

const profiles = apiPaths.certificateProfiles;

/** Certificate profiles: `/api/v1/cert-manager/certificate-profiles`. */
export const certificateProfileOperations = {
  list: op({
    method: "GET",
    path: profiles,
    query: CertificateProfileListQuery,
    response: CertificateProfileListEnvelope,
  }),
  get: op({ method: "GET", path: `${profiles}/:id`, params: profileId, response: CertificateProfileEnvelope }),
  getBySlug: op({
    method: "GET",
    path: `${profiles}/slug/:slug`,
    params: z.object({ slug: nonEmpty }),
    query: CertificateProfileBySlugQuery,
    response: CertificateProfileEnvelope,
  }),
  create: op({
    method: "POST",
    path: profiles,
    body: CertificateProfileCreateSchema,
    rules: certificateProfileCreateRules,
    response: CertificateProfileEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${profiles}/:id`,
    params: profileId,
    body: CertificateProfileUpdateSchema,
    response: CertificateProfileEnvelope,
  }),
  delete: op({ method: "DELETE", path: `${profiles}/:id`, params: profileId, response: CertificateProfileEnvelope }),
};
