import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { internalCaOperations as ops } from "../../sdk/schemas";
import {
  certificatePayload,
  csrOf,
  distinguishedName,
  isCsr,
  issueCertificate,
  issuedFor,
  newSigningKey,
} from "../ca-certificates";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound } from "../errors";
import { installSelfSigned } from "../records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import type { Actor, CaConfiguration, CertificateAuthority } from "../types";
import { caView } from "../views";

/**
 * Internal certificate authorities (docs/service-api.md §13) under `/api/v1/cert-manager/ca/internal`,
 * answered with the CA itself (no envelope). A root with an end of validity is active at once with
 * its self-signed certificate; any other CA waits for a certificate (`pending-certificate`): an
 * intermediate's CSR is signed by an active CA and imported. The certificates are the emulator's
 * own (ca-certificates.ts), PEM-shaped, which it can verify.
 */
export function registerCertificateAuthorityRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  routeOperations(app, ops, caHandlers, ctx);
}

type CaRequest<K extends keyof typeof ops> = OperationRequest<(typeof ops)[K]>;

const caHandlers: ScopedHandlers<EmulatorContext, typeof ops> = {
  list: listCas,
  get: getCa,
  create: createCa,
  update: updateCa,
  delete: deleteCa,
  csr: getCsr,
  signIntermediate,
  importCertificate,
};

/** An internal CA: 404 when there is none of that id, 403 when the caller is not a member of its project. */
function findCa(ctx: EmulatorContext, actor: Actor, id: string, action: string): CertificateAuthority {
  const ca = ctx.store.cas.get(id);
  if (!ca) throw notFound(`Could not find certificate authority with id "${id}"`);
  requireProject(ctx, actor, ca.projectId, action, subjects.certificateAuthorities, { name: ca.name });
  if (ca.type !== "internal") throw notFound(`Internal certificate authority with id "${id}" not found`);
  return ca;
}

const caMeta = (ca: CertificateAuthority) => ({ caId: ca.id, name: ca.name, dn: ca.configuration?.dn ?? null });

function configurationOf(c: z.output<typeof ops.create.body>["configuration"]): CaConfiguration {
  return {
    type: c.type,
    friendlyName: c.friendlyName ?? null,
    commonName: c.commonName,
    organization: c.organization,
    ou: c.ou,
    country: c.country,
    province: c.province,
    locality: c.locality,
    notBefore: c.notBefore ?? null,
    notAfter: c.notAfter ?? null,
    maxPathLength: c.maxPathLength,
    keyAlgorithm: c.keyAlgorithm,
    // [UNCONFIRMED] stored as given: the service's create does not read it.
    parentCaId: c.parentCaId ?? null,
    dn: distinguishedName(c),
    serialNumber: null,
    activeCaCertId: null,
  };
}

async function listCas(ctx: EmulatorContext, req: CaRequest<"list">) {
  const actor = actorOf(req);
  const { projectId } = req.query;
  requireProject(ctx, actor, projectId, "read", subjects.certificateAuthorities);
  const cas = [...ctx.store.cas.values()].filter((ca) => ca.projectId === projectId && ca.type === "internal");
  recordEvent(ctx, req, actor, "get-certificate-authorities", { count: cas.length }, projectId);
  return cas.map(caView);
}

async function getCa(ctx: EmulatorContext, req: CaRequest<"get">) {
  const actor = actorOf(req);
  const ca = findCa(ctx, actor, req.params.caId, "read");
  recordEvent(ctx, req, actor, "get-certificate-authority", caMeta(ca), ca.projectId);
  return caView(ca);
}

async function createCa(ctx: EmulatorContext, req: CaRequest<"create">) {
  const actor = actorOf(req);
  const { body } = req;
  requireProject(ctx, actor, body.projectId, "create", subjects.certificateAuthorities, { name: body.name });
  for (const other of ctx.store.cas.values()) {
    // [UNCONFIRMED] the text: the service refuses by its unique (name, project) index.
    if (other.projectId === body.projectId && other.name === body.name)
      throw badRequest(`Certificate authority with name "${body.name}" already exists in the project`);
  }
  const now = new Date().toISOString();
  const ca: CertificateAuthority = {
    id: randomUUID(),
    projectId: body.projectId,
    name: body.name,
    type: "internal",
    // The service stores its own status whatever the body says: active once it has a certificate.
    status: "pending-certificate",
    configuration: configurationOf(body.configuration),
    signingKey: newSigningKey(),
    certificate: null,
    certificateChain: null,
    createdAt: now,
    updatedAt: now,
  };
  if (ca.configuration!.type === "root" && ca.configuration!.notAfter !== null) installSelfSigned(ca, now);
  ctx.store.cas.set(ca.id, ca);
  recordEvent(ctx, req, actor, "create-certificate-authority", caMeta(ca), ca.projectId);
  // The service's create answers the status of the body, not the one it stored (reads show that):
  // kept as it is.
  return { ...caView(ca), status: body.status };
}

/** The newest service changes only the status. */
async function updateCa(ctx: EmulatorContext, req: CaRequest<"update">) {
  const actor = actorOf(req);
  const ca = findCa(ctx, actor, req.params.caId, "edit");
  if (req.body.status !== undefined) ca.status = req.body.status;
  ca.updatedAt = ctx.store.writeTime(ca);
  recordEvent(ctx, req, actor, "update-certificate-authority", { ...caMeta(ca), status: ca.status }, ca.projectId);
  return caView(ca);
}

/** The CAs it was the parent of lose their parent (the service's `parentCaId ... ON DELETE SET NULL`). */
async function deleteCa(ctx: EmulatorContext, req: CaRequest<"delete">) {
  const actor = actorOf(req);
  const ca = findCa(ctx, actor, req.params.caId, "delete");
  const view = caView(ca);
  ctx.store.cas.delete(ca.id);
  for (const other of ctx.store.cas.values())
    if (other.configuration?.parentCaId === ca.id) other.configuration.parentCaId = null;
  recordEvent(ctx, req, actor, "delete-certificate-authority", caMeta(ca), ca.projectId);
  return view;
}

/** An intermediate's CSR (the same each time); a root has none. */
async function getCsr(ctx: EmulatorContext, req: CaRequest<"csr">) {
  const actor = actorOf(req);
  const ca = findCa(ctx, actor, req.params.caId, "create");
  if (ca.configuration?.type === "root") throw badRequest("Root CA cannot generate CSR");
  recordEvent(ctx, req, actor, "get-certificate-authority-csr", caMeta(ca), ca.projectId);
  return { csr: csrOf(ca) };
}

/** An active CA signs an intermediate's CSR: the certificate, with the signer's chain. */
async function signIntermediate(ctx: EmulatorContext, req: CaRequest<"signIntermediate">) {
  const actor = actorOf(req);
  const { body } = req;
  const issuer = findCa(ctx, actor, req.params.caId, "create");
  if (issuer.status === "disabled") throw badRequest("CA is disabled");
  if (issuer.certificate === null) throw badRequest("CA does not have a certificate installed");
  const notBefore = body.notBefore ?? new Date().toISOString();
  refuseSignature(issuer, issuer.certificate, { ...body, notBefore });
  const { certificate, payload } = issueCertificate(issuer, body.csr, {
    notBefore,
    notAfter: body.notAfter,
    maxPathLength: body.maxPathLength,
  });
  const meta = { ...caMeta(issuer), serialNumber: payload.serialNumber };
  recordEvent(ctx, req, actor, "sign-intermediate", meta, issuer.projectId);
  return {
    certificate,
    certificateChain: [issuer.certificate, issuer.certificateChain].filter(Boolean).join("\n"),
    issuingCaCertificate: issuer.certificate,
    serialNumber: payload.serialNumber,
  };
}

/** An X.509 time holds whole seconds: a certificate's bound as its reader sees it. */
const certificateTime = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/**
 * The service's refusals of a signature after the issuer's status (docs/service-api.md §13), in
 * its order: the issuer expired, the CSR, the issuer's path length, then the validity asked for
 * against the issuer certificate's.
 */
function refuseSignature(
  issuer: CertificateAuthority,
  issuerCertificate: string,
  asked: { csr: string; notBefore: string; notAfter: string; maxPathLength: number },
): void {
  const c = issuer.configuration!;
  if (c.notAfter !== null && Date.now() > Date.parse(c.notAfter)) throw badRequest("CA is expired");
  // [UNCONFIRMED] the text: the service fails to parse what is not a CSR.
  if (!isCsr(asked.csr)) throw badRequest("Invalid CSR: expected a PEM certificate signing request");
  const own = certificatePayload(issuerCertificate);
  // The certificate's basic constraints hold no path length when it was made with -1.
  const pathLength = own && own.maxPathLength !== -1 ? own.maxPathLength : undefined;
  if (pathLength === 0) throw badRequest("Failed to issue intermediate certificate due to CA path length constraint");
  if (pathLength !== undefined && (asked.maxPathLength >= pathLength || asked.maxPathLength === -1))
    throw badRequest("The requested path length constraint exceeds the CA's allowed path length");
  const notBefore = Date.parse(asked.notBefore);
  const notAfter = Date.parse(asked.notAfter);
  if (own && notBefore < certificateTime(own.notBefore))
    throw badRequest("notBefore date is before CA certificate's notBefore date");
  if (notBefore > notAfter) throw badRequest("notBefore date is after notAfter date");
  if (own && notAfter > certificateTime(own.notAfter))
    throw badRequest("notAfter date is after CA certificate's notAfter date");
}

/**
 * An intermediate takes the certificate a CA of this emulator signed for its CSR, and becomes
 * active with it; any other certificate is refused.
 */
async function importCertificate(ctx: EmulatorContext, req: CaRequest<"importCertificate">) {
  const actor = actorOf(req);
  const { body } = req;
  const ca = findCa(ctx, actor, req.params.caId, "edit");
  const payload = issuedFor(ca, body.certificate, (id) => ctx.store.cas.get(id));
  if (!payload) {
    throw badRequest(
      "The certificate was not issued by a certificate authority of this emulator for this CA's certificate signing request",
    );
  }
  const c = ca.configuration!;
  ca.certificate = body.certificate;
  ca.certificateChain = body.certificateChain;
  c.serialNumber = payload.serialNumber;
  c.activeCaCertId = randomUUID();
  // [UNCONFIRMED] the CA's validity becomes its certificate's.
  c.notBefore = payload.notBefore;
  c.notAfter = payload.notAfter;
  ca.status = "active";
  ca.updatedAt = ctx.store.writeTime(ca);
  const meta = { ...caMeta(ca), serialNumber: payload.serialNumber };
  recordEvent(ctx, req, actor, "import-certificate-authority-cert", meta, ca.projectId);
  return { message: "Successfully imported certificate to CA", caId: ca.id };
}
