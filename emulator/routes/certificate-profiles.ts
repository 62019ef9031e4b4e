import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import {
  certificateProfileOperations as ops,
  enrollmentTypeNames,
  enrollmentTypes,
  missingEnrollmentConfig,
  type EnrollmentType,
} from "../../sdk/schemas";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { forbidden, notFound } from "../errors";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import { sha256Hex } from "../hashing";
import type { Actor, StoredProfile, StoredProfileConfig } from "../types";
import { profileView } from "../views";

const NOT_FOUND = "Certificate profile not found";

type ProfileBody = Record<string, unknown> & { enrollmentType?: EnrollmentType };

/**
 * A config object as stored: secret fields kept only as a hash (the EST passphrase is stored
 * hashed). On PATCH the fields sent are merged into the stored ones (`previous`): a field not sent,
 * a secret one included, keeps its value (docs/service-api.md §4).
 */
function storedConfig(
  t: EnrollmentType,
  value: unknown,
  id: string = randomUUID(),
  previous?: StoredProfileConfig,
): StoredProfileConfig {
  const v: Record<string, unknown> = { ...previous?.value };
  for (const [k, x] of Object.entries(value as Record<string, unknown>)) if (x !== undefined) v[k] = x;
  for (const f of enrollmentTypes[t].secretFields)
    if (typeof v[f] === "string" && v[f] !== previous?.value[f]) v[f] = sha256Hex(v[f]);
  return { id, value: v };
}

/** The config a profile of type `t` gets from a body: the given one; none when none is given (ACME makes none). */
function configFromBody(t: EnrollmentType, body: ProfileBody): StoredProfileConfig | undefined {
  const given = body[enrollmentTypes[t].configKey];
  return given === undefined ? undefined : storedConfig(t, given);
}

/**
 * The service's `validateIssuerTypeConstraints`, 403 with its messages (docs/service-api.md §4):
 * `ca` needs a CA, `self-signed` allows no CA and only API enrollment.
 */
function checkIssuer(p: { issuerType: string; enrollmentType: EnrollmentType; caId: string | null }) {
  if (p.issuerType === "ca" && !p.caId)
    throw forbidden("CA issuer type requires a Certificate Authority to be selected");
  if (p.issuerType === "self-signed" && p.caId)
    throw forbidden("Self-signed issuer type cannot have a Certificate Authority");
  if (p.issuerType === "self-signed" && p.enrollmentType !== "api")
    throw forbidden("Self-signed issuer type only supports API enrollment");
}

/**
 * The list's `search` as the service applies it: `slug ILIKE '%search%' OR description ILIKE
 * '%search%'` (docs/service-api.md §4), so `%` and `_` in it are wildcards and `\` escapes one.
 */
function ilikeContains(search: string): RegExp {
  let re = "";
  for (let i = 0; i < search.length; i++) {
    const c = search[i]!;
    if (c === "\\" && i + 1 < search.length) re += escapeRegExp(search[++i]!);
    else if (c === "%") re += "[\\s\\S]*";
    else if (c === "_") re += "[\\s\\S]";
    else re += escapeRegExp(c);
  }
  return new RegExp(re, "i");
}
const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Certificate profiles (docs/api-spec.md §4.4, docs/service-api.md §4) under
 * `/api/v1/cert-manager/certificate-profiles`, from their rows of the operations table.
 */
export function registerCertificateProfileRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, profileHandlers, ctx);
}

type ProfileRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const profileHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listProfiles,
  get: getProfile,
  getBySlug: getProfileBySlug,
  create: createProfile,
  update: updateProfile,
  delete: deleteProfile,
};

/** The profile as a route answers it: the read of one and the list join its config objects, the others do not. */
const view = (ctx: EmulatorContext, p: StoredProfile, withConfigs = false) =>
  profileView(p, ctx.baseUrl(), withConfigs);

const profileMeta = (p: StoredProfile) => ({
  certificateProfileId: p.id,
  slug: p.slug,
  enrollmentType: p.enrollmentType,
  issuerType: p.issuerType,
});

function find(ctx: EmulatorContext, actor: Actor, id: string, action: string): StoredProfile {
  const p = ctx.store.profiles.get(id);
  if (!p) throw notFound(NOT_FOUND);
  requireProject(ctx, actor, p.projectId, action, subjects.certificateProfiles, { slug: p.slug });
  return p;
}

function slugTaken(ctx: EmulatorContext, projectId: string, slug: string, exceptId?: string): boolean {
  for (const p of ctx.store.profiles.values())
    if (p.projectId === projectId && p.slug === slug && p.id !== exceptId) return true;
  return false;
}

const SLUG_TAKEN = "Certificate profile with this name already exists in project";

function caOf(ctx: EmulatorContext, projectId: string, caId: string) {
  const ca = ctx.store.cas.get(caId);
  if (!ca || ca.projectId !== projectId)
    throw notFound(`Certificate authority with ID "${caId}" not found in project "${projectId}"`);
  return ca;
}

/** The service's `validateExternalConfigs` (docs/service-api.md §4). */
function checkExternalConfigs(ctx: EmulatorContext, projectId: string, caId: string | null): void {
  if (!caId) throw forbidden("External configs can only be specified when a Certificate Authority is selected");
  if (caOf(ctx, projectId, caId).type !== "external")
    throw forbidden("External configs can only be specified for external Certificate Authorities");
}

async function listProfiles(ctx: EmulatorContext, req: ProfileRequest<"list">) {
  const actor = actorOf(req);
  const q = req.query;
  requireProject(ctx, actor, q.projectId, "read", subjects.certificateProfiles);
  const search = q.search ? ilikeContains(q.search) : undefined;
  const all = [...ctx.store.profiles.values()].filter(
    (p) =>
      p.projectId === q.projectId &&
      (!search || search.test(p.slug) || (p.description !== null && search.test(p.description))) &&
      (!q.enrollmentType || p.enrollmentType === q.enrollmentType) &&
      (!q.issuerType || p.issuerType === q.issuerType) &&
      (!q.caId || p.caId === q.caId),
  );
  // Newest first, as the service orders them (docs/service-api.md §4).
  const page = all.reverse().slice(q.offset, q.offset + q.limit);
  const meta = { count: page.length, totalCount: all.length };
  recordEvent(ctx, req, actor, "list-certificate-profiles", meta, q.projectId);
  return { certificateProfiles: page.map((p) => view(ctx, p, true)), totalCount: all.length };
}

async function getProfile(ctx: EmulatorContext, req: ProfileRequest<"get">) {
  const actor = actorOf(req);
  const p = find(ctx, actor, req.params.id, "read");
  recordEvent(ctx, req, actor, "get-certificate-profile", profileMeta(p), p.projectId);
  return { certificateProfile: view(ctx, p, true) };
}

async function getProfileBySlug(ctx: EmulatorContext, req: ProfileRequest<"getBySlug">) {
  const actor = actorOf(req);
  const { slug } = req.params;
  const { projectId } = req.query;
  requireProject(ctx, actor, projectId, "read", subjects.certificateProfiles);
  const p = [...ctx.store.profiles.values()].find((x) => x.projectId === projectId && x.slug === slug);
  if (!p) throw notFound(NOT_FOUND);
  recordEvent(ctx, req, actor, "get-certificate-profile", profileMeta(p), p.projectId);
  return { certificateProfile: view(ctx, p) };
}

async function createProfile(ctx: EmulatorContext, req: ProfileRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "create", subjects.certificateProfiles, { slug: body.slug });
  const missing = missingEnrollmentConfig(body);
  if (missing) throw forbidden(missing);
  checkIssuer({ issuerType: body.issuerType, enrollmentType: body.enrollmentType, caId: body.caId ?? null });
  const policy = ctx.store.policies.get(body.certificatePolicyId);
  if (!policy || policy.projectId !== body.projectId) {
    throw notFound(`Certificate policy with ID "${body.certificatePolicyId}" not found in project "${body.projectId}"`);
  }
  if (body.caId) caOf(ctx, body.projectId, body.caId);
  if (body.externalConfigs) checkExternalConfigs(ctx, body.projectId, body.caId ?? null);
  if (slugTaken(ctx, body.projectId, body.slug)) throw forbidden(SLUG_TAKEN);
  const now = new Date().toISOString();
  const config = configFromBody(body.enrollmentType, body);
  const p: StoredProfile = {
    id: randomUUID(),
    projectId: body.projectId,
    certificatePolicyId: body.certificatePolicyId,
    slug: body.slug,
    enrollmentType: body.enrollmentType,
    issuerType: body.issuerType,
    caId: body.caId ?? null,
    description: body.description ?? null,
    externalConfigs: body.externalConfigs ?? null,
    defaults: body.defaults ?? null,
    createdAt: now,
    updatedAt: now,
    configs: config ? { [body.enrollmentType]: config } : {},
  };
  ctx.store.profiles.set(p.id, p);
  recordEvent(ctx, req, actor, "create-certificate-profile", profileMeta(p), p.projectId);
  return { certificateProfile: view(ctx, p) };
}

async function updateProfile(ctx: EmulatorContext, req: ProfileRequest<"update">) {
  const actor = actorOf(req);
  const { body } = req;
  const p = find(ctx, actor, req.params.id, "edit");
  if (body.slug !== undefined && slugTaken(ctx, p.projectId, body.slug, p.id)) throw forbidden(SLUG_TAKEN);
  const enrollmentType = body.enrollmentType ?? p.enrollmentType;
  const issuerType = body.issuerType ?? p.issuerType;
  // The PATCH body has no caId: the stored CA stays and the issuer rules run against it, so a
  // profile with a CA cannot be switched to self-signed (docs/service-api.md §4).
  checkIssuer({ issuerType, enrollmentType, caId: p.caId });
  // The service checks only configs given (`if (!externalConfigs) return`): null clears them.
  if (body.externalConfigs) checkExternalConfigs(ctx, p.projectId, p.caId);
  // PATCH neither requires, creates nor drops a config object, also when enrollmentType
  // changes: a config object sent updates the profile's existing one of its kind, if it has
  // one, and is ignored otherwise (docs/service-api.md §4).
  const configs = { ...p.configs };
  for (const t of enrollmentTypeNames) {
    const given = body[enrollmentTypes[t].configKey];
    const existing = configs[t];
    if (given !== undefined && existing) configs[t] = storedConfig(t, given, existing.id, existing);
  }
  if (body.slug !== undefined) p.slug = body.slug;
  if (body.description !== undefined) p.description = body.description;
  if (body.defaults !== undefined) p.defaults = body.defaults ?? null;
  if (body.externalConfigs !== undefined) p.externalConfigs = body.externalConfigs;
  p.enrollmentType = enrollmentType;
  p.issuerType = issuerType;
  p.configs = configs;
  p.updatedAt = ctx.store.writeTime(p);
  recordEvent(ctx, req, actor, "update-certificate-profile", profileMeta(p), p.projectId);
  return { certificateProfile: view(ctx, p) };
}

async function deleteProfile(ctx: EmulatorContext, req: ProfileRequest<"delete">) {
  const actor = actorOf(req);
  const p = find(ctx, actor, req.params.id, "delete");
  const v = view(ctx, p);
  ctx.store.profiles.delete(p.id);
  recordEvent(ctx, req, actor, "delete-certificate-profile", profileMeta(p), p.projectId);
  return { certificateProfile: v };
}
