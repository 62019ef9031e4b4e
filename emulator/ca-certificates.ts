import { createHmac, randomBytes } from "node:crypto";
import { canonicalJson, sha256Hex } from "./hashing";
import type { CaConfiguration, CertificateAuthority } from "./types";

/**
 * The certificates and CSRs of internal CAs (docs/service-api.md §13). They are not X.509: each is
 * a PEM block around a JSON payload signed with the CA's `signingKey` (an HMAC), which is enough
 * for the emulator to check that a certificate it is given was signed by one of its CAs for a
 * given CSR, and for clients to see PEM-shaped text.
 */

const CERTIFICATE = "CERTIFICATE";
const CSR = "CERTIFICATE REQUEST";

/** What a certificate says. */
export interface CertificatePayload {
  serialNumber: string;
  subject: string;
  issuer: string;
  issuerCaId: string;
  notBefore: string;
  notAfter: string;
  maxPathLength: number;
  /** The sha256 of the CSR it was issued for; null for a self-signed root. */
  csrSha256: string | null;
}

interface CsrPayload {
  caId: string;
  subject: string;
  keyAlgorithm: string;
}

export const newSigningKey = () => randomBytes(32).toString("hex");
const newSerialNumber = () => randomBytes(16).toString("hex");

function pem(label: string, payload: object, key: string): string {
  const signed = { ...payload, signature: sign(key, payload) };
  const b64 = Buffer.from(JSON.stringify(signed), "utf8").toString("base64");
  return `-----BEGIN ${label}-----\n${b64.match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----`;
}

const sign = (key: string, payload: object) => createHmac("sha256", key).update(canonicalJson(payload)).digest("hex");

/** The payload of the first PEM block of `label` in `text`, with its signature apart; undefined if there is none. */
function readPem(label: string, text: string): { payload: Record<string, unknown>; signature: string } | undefined {
  const m = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+?)-----END ${label}-----`).exec(text);
  if (!m) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(m[1]!.replace(/\s/g, ""), "base64").toString("utf8")) as unknown;
    if (!parsed || typeof parsed !== "object") return undefined;
    const { signature, ...payload } = parsed as Record<string, unknown>;
    return typeof signature === "string" ? { payload, signature } : undefined;
  } catch {
    return undefined;
  }
}

/** The distinguished name of a CA's subject fields (empty ones left out). */
export function distinguishedName(
  c: Pick<CaConfiguration, "country" | "organization" | "ou" | "province" | "commonName" | "locality">,
) {
  const parts: [string, string][] = [
    ["C", c.country],
    ["O", c.organization],
    ["OU", c.ou],
    ["ST", c.province],
    ["CN", c.commonName],
    ["L", c.locality],
  ];
  return parts
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
}

/** The CSR of an intermediate: the same text each time it is asked for. */
export function csrOf(ca: CertificateAuthority): string {
  const c = ca.configuration!;
  const payload: CsrPayload = { caId: ca.id, subject: c.dn, keyAlgorithm: c.keyAlgorithm };
  return pem(CSR, payload, ca.signingKey);
}

/** Whether `text` holds a PEM certificate signing request. */
export function isCsr(text: string): boolean {
  return new RegExp(`-----BEGIN ${CSR}-----[\\s\\S]+-----END ${CSR}-----`).test(text);
}

/** The subject a CSR names (one this emulator made); empty for another. */
function csrSubject(csr: string): string {
  const subject = readPem(CSR, csr)?.payload.subject;
  return typeof subject === "string" ? subject : "";
}

const normalized = (text: string) => text.trim().replace(/\r\n/g, "\n");

/** Issues a certificate signed by `issuer` (its own, for a self-signed root, when `csr` is null). */
export function issueCertificate(
  issuer: CertificateAuthority,
  csr: string | null,
  validity: { notBefore: string; notAfter: string; maxPathLength: number },
): { certificate: string; payload: CertificatePayload } {
  const payload: CertificatePayload = {
    serialNumber: newSerialNumber(),
    subject: csr === null ? issuer.configuration!.dn : csrSubject(csr),
    issuer: issuer.configuration!.dn,
    issuerCaId: issuer.id,
    notBefore: validity.notBefore,
    notAfter: validity.notAfter,
    maxPathLength: validity.maxPathLength,
    csrSha256: csr === null ? null : sha256Hex(normalized(csr)),
  };
  return { certificate: pem(CERTIFICATE, payload, issuer.signingKey), payload };
}

/** What a certificate of this emulator says (undefined for any other text). */
export function certificatePayload(certificate: string): CertificatePayload | undefined {
  return readPem(CERTIFICATE, certificate)?.payload as unknown as CertificatePayload | undefined;
}

/**
 * The payload of `certificate` when one of the emulator's CAs (`caById`) signed it for `ca`'s CSR;
 * undefined otherwise.
 */
export function issuedFor(
  ca: CertificateAuthority,
  certificate: string,
  caById: (id: string) => CertificateAuthority | undefined,
): CertificatePayload | undefined {
  const read = readPem(CERTIFICATE, certificate);
  if (!read) return undefined;
  const payload = read.payload as unknown as CertificatePayload;
  const issuer = typeof payload.issuerCaId === "string" ? caById(payload.issuerCaId) : undefined;
  if (!issuer || sign(issuer.signingKey, read.payload) !== read.signature) return undefined;
  if (ca.configuration?.type !== "intermediate" || payload.csrSha256 !== sha256Hex(normalized(csrOf(ca))))
    return undefined;
  return payload;
}
