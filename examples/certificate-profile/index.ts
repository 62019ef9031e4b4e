import * as pulumi from "@pulumi/pulumi";
import { CertificateAuthority, CertificatePolicy, CertificateProfile, Project } from "secretops-pulumi";

/**
 * Certificate profiles: named templates that say how certificates are requested (enrollment)
 * and who signs them (issuer), with the defaults of what gets issued.
 *
 *  - API enrollment from the issuing CA, renewed automatically 14 days before expiry (mTLS
 *    between services);
 *  - API enrollment, self-signed (local development);
 *  - EST enrollment for network devices, protected by a passphrase;
 *  - ACME enrollment for ingress controllers (cert-manager);
 *  - SCEP enrollment for MDM-managed laptops, with a static challenge password.
 *
 * The program makes what the profiles hang on: a certificate-manager project, a root CA and an
 * issuing (intermediate) CA it signs, and the policies the profiles' certificates follow. The EST
 * passphrase and the SCEP challenge password have no default; set them before the first `pulumi up`:
 *   pulumi config set --secret estPassphrase <passphrase>
 *   pulumi config set --secret scepChallengePassword <password>   (at least 8 characters)
 * It targets the local emulator by default. Against your own service:
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
// Project slugs are unique in an organization: set another to run this program twice there.
const projectSlug = config.get("projectSlug") ?? "example-corp-pki";
const organization = config.get("organization") ?? "Example Corp";
// An external CA (e.g. AD CS) connected to the project outside this program, in the console: when
// set, the laptops' profile issues from it, with its certificate template. Unset: from the issuing CA.
const externalCaId = config.get("externalCaId");

// Secrets: encrypted in state, masked in previews, never returned by the service (their drift
// cannot be seen: change the config value to change them).
const estPassphrase = config.requireSecret("estPassphrase");
const scepChallengePassword = config.requireSecret("scepChallengePassword");

// 1. The project: CAs, policies and profiles live in a certificate-manager project.
const pki = new Project("pki", {
  projectName: `${organization} PKI`,
  slug: projectSlug,
  type: "cert-manager",
  projectDescription: "Internal CAs and the profiles services and devices enroll with",
});
/** Exported: what other programs (such as examples/audit-logs) take as their `projectId`. */
export const projectId = pki.id;

// 2. The CAs: a long-lived root, and an issuing CA it signs (as part of the issuing CA's create).
//    Profiles issue from the issuing CA, so the root's key is used only to sign CAs.
const root = new CertificateAuthority("root-ca", {
  projectId,
  name: "example-corp-root",
  configuration: {
    type: "root",
    commonName: `${organization} Root CA`,
    organization,
    country: "US",
    notAfter: "2036-01-01T00:00:00Z",
    keyAlgorithm: "RSA_4096",
    // Only the issuing CA below it: no CA under that one.
    maxPathLength: 1,
  },
});
const issuing = new CertificateAuthority("issuing-ca", {
  projectId,
  name: "example-corp-issuing",
  configuration: {
    type: "intermediate",
    parentCaId: root.id,
    commonName: `${organization} Issuing CA`,
    organization,
    country: "US",
    notAfter: "2031-01-01T00:00:00Z",
    keyAlgorithm: "EC_secp384r1",
    maxPathLength: 0,
  },
});

// 3. The policies: what the certificates of a profile may be. One for services (short-lived, TLS
//    client and server), one for devices (a year, client authentication only). Neither allows CA
//    certificates.
const services = new CertificatePolicy("services", {
  projectId,
  name: "internal-services",
  description: "TLS certificates of services, ingresses and developer machines",
  subject: [{ type: "common_name", allowed: ["*.svc.example.com", "*.example.com", "localhost"] }],
  sans: [{ type: "dns_name", allowed: ["*.svc.example.com", "*.example.com", "localhost"] }],
  keyUsages: { allowed: ["digital_signature", "key_agreement", "key_encipherment"] },
  extendedKeyUsages: { allowed: ["server_auth", "client_auth"] },
  algorithms: {
    signature: ["ECDSA-SHA256", "ECDSA-SHA384", "RSA-SHA256"],
    keyAlgorithm: ["EC_prime256v1", "EC_secp384r1", "RSA_2048"],
  },
  validity: { max: "90d" },
  basicConstraints: { isCA: "denied" },
});
const devices = new CertificatePolicy("devices", {
  projectId,
  name: "managed-devices",
  description: "Identities of network devices and managed laptops",
  subject: [{ type: "organization", required: [organization] }],
  keyUsages: { allowed: ["digital_signature", "key_encipherment"] },
  extendedKeyUsages: { required: ["client_auth"] },
  algorithms: { signature: ["RSA-SHA256", "RSA-SHA384"], keyAlgorithm: ["RSA_2048", "RSA_3072"] },
  validity: { max: "397d" },
  basicConstraints: { isCA: "denied" },
});

const subject = {
  organization,
  organizationalUnit: "Platform",
  country: "US",
  state: "California",
  locality: "San Francisco",
};

// 4. Service-to-service mTLS, requested through the API; auto-renewed two weeks before expiry.
const serviceMtls = new CertificateProfile("service-mtls", {
  projectId,
  certificatePolicyId: services.id,
  caId: issuing.id,
  slug: "service-mtls",
  description: "Short-lived mTLS certificates for internal services",
  enrollmentType: "api",
  apiConfig: { autoRenew: true, renewBeforeDays: 14 },
  defaults: {
    ...subject,
    ttlDays: 30,
    keyAlgorithm: "EC_prime256v1",
    signatureAlgorithm: "ECDSA-SHA256",
    keyUsages: ["digital_signature", "key_agreement"],
    extendedKeyUsages: ["server_auth", "client_auth"],
  },
});

// 5. Self-signed certificates for local development: no CA, and API enrollment only.
const localDev = new CertificateProfile("local-dev", {
  projectId,
  certificatePolicyId: services.id,
  issuerType: "self-signed",
  slug: "local-dev-self-signed",
  description: "Self-signed certificates for laptops and CI test runs",
  enrollmentType: "api",
  apiConfig: { autoRenew: false },
  defaults: { commonName: "localhost", ttlDays: 7, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["server_auth"] },
});

// 6. Routers and switches enrolling over EST with a shared passphrase; the bootstrap CA chain
//    is validated.
const networkDevices = new CertificateProfile("network-devices", {
  projectId,
  certificatePolicyId: devices.id,
  caId: issuing.id,
  slug: "network-devices",
  description: "Router and switch identities (EST)",
  enrollmentType: "est",
  estConfig: { passphrase: estPassphrase, disableBootstrapCaValidation: false },
  defaults: {
    ...subject,
    ttlDays: 365,
    keyAlgorithm: "RSA_3072",
    signatureAlgorithm: "RSA-SHA384",
    keyUsages: ["digital_signature", "key_encipherment"],
    extendedKeyUsages: ["client_auth"],
  },
});

// 7. Ingress certificates through ACME (e.g. cert-manager). DNS ownership is verified; ACME
//    accounts need no external account binding.
const ingress = new CertificateProfile("k8s-ingress", {
  projectId,
  certificatePolicyId: services.id,
  caId: issuing.id,
  slug: "k8s-ingress",
  description: "Ingress TLS for the Kubernetes clusters (ACME)",
  enrollmentType: "acme",
  acmeConfig: { skipDnsOwnershipVerification: false, skipEabBinding: true },
  defaults: { ttlDays: 90, keyAlgorithm: "EC_secp384r1", extendedKeyUsages: ["server_auth"] },
});

// 8. Laptops enrolled by the MDM over SCEP. From an external CA, the CA's certificate template
//    says what it issues (`externalConfigs`, which only an external CA takes). Changing `caId`
//    replaces the profile.
const mdmLaptops = new CertificateProfile("mdm-laptops", {
  projectId,
  certificatePolicyId: devices.id,
  caId: externalCaId ?? issuing.id,
  slug: "mdm-laptops",
  description: `Device certificates for managed laptops (SCEP${externalCaId ? " via AD CS" : ""})`,
  enrollmentType: "scep",
  scepConfig: {
    challengeType: "static",
    challengePassword: scepChallengePassword,
    includeCaCertInResponse: true,
    allowCertBasedRenewal: true,
  },
  ...(externalCaId ? { externalConfigs: { template: "CorpLaptop" } } : {}),
  defaults: { organization, ttlDays: 397, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["client_auth"] },
});

const profiles = [serviceMtls, localDev, networkDevices, ingress, mdmLaptops];

/** slug → `<enrollmentType>/<issuerType>`. */
export const profileKinds = pulumi
  .all(profiles.map((p) => pulumi.all([p.slug, p.enrollmentType, p.issuerType])))
  .apply((rows) => Object.fromEntries(rows.map(([slug, enrollment, issuer]) => [slug, `${enrollment}/${issuer}`])));
/** The issuing CA's subject (its distinguished name), as the root signed it. */
export const issuingCaDn = issuing.dn;
export const serviceMtlsProfileId = serviceMtls.id;
export const ingressAcmeConfigId = ingress.acmeConfigId;
export const mdmLaptopsScepConfigId = mdmLaptops.scepConfigId;
