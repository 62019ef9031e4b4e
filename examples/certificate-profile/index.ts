import * as pulumi from "@pulumi/pulumi";
import { CertificateProfile } from "secretops-pulumi";

/**
 * Certificate profiles: named templates that say how certificates are requested (enrollment)
 * and who signs them (issuer), with the defaults of what gets issued.
 *
 *  - API enrollment from the internal CA, renewed automatically 14 days before expiry (mTLS
 *    between services);
 *  - API enrollment, self-signed (local development);
 *  - EST enrollment for network devices, protected by a passphrase;
 *  - ACME enrollment for ingress controllers (cert-manager);
 *  - SCEP enrollment for MDM-managed laptops through the external CA (e.g. AD CS), with a static
 *    challenge password and the CA's certificate template.
 *
 * It targets the local emulator by default: the ids below are those of the emulator's default
 * fixture (`npm run emulator -- --json` prints them). The EST passphrase has no default; set it
 * (at least one character) before the first `pulumi up`:
 *   pulumi config set --secret estPassphrase <passphrase>
 * Against your own service, also set the ids:
 *   pulumi config set projectId <id>   (and certificatePolicyId, internalCaId, externalCaId)
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
const projectId = config.get("projectId") ?? "10000000-0000-4000-8000-000000000001";
const certificatePolicyId = config.get("certificatePolicyId") ?? "70000000-0000-4000-8000-000000000001";
const internalCaId = config.get("internalCaId") ?? "60000000-0000-4000-8000-000000000001";
const externalCaId = config.get("externalCaId") ?? "60000000-0000-4000-8000-000000000002";
const organization = config.get("organization") ?? "Example Corp";

// Secrets: encrypted in state, masked in previews, never returned by the service (their drift
// cannot be seen: change the config value to change them).
const estPassphrase = config.requireSecret("estPassphrase");
const scepChallengePassword = config.getSecret("scepChallengePassword") ?? pulumi.secret("change-me-scep-challenge");

const subject = {
  organization,
  organizationalUnit: "Platform",
  country: "US",
  state: "California",
  locality: "San Francisco",
};

// 1. Service-to-service mTLS, requested through the API; auto-renewed two weeks before expiry.
const serviceMtls = new CertificateProfile("service-mtls", {
  projectId,
  certificatePolicyId,
  caId: internalCaId,
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

// 2. Self-signed certificates for local development: no CA, and API enrollment only.
const localDev = new CertificateProfile("local-dev", {
  projectId,
  certificatePolicyId,
  issuerType: "self-signed",
  slug: "local-dev-self-signed",
  description: "Self-signed certificates for laptops and CI test runs",
  enrollmentType: "api",
  apiConfig: { autoRenew: false },
  defaults: { commonName: "localhost", ttlDays: 7, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["server_auth"] },
});

// 3. Routers and switches enrolling over EST with a shared passphrase; the bootstrap CA chain
//    is validated.
const networkDevices = new CertificateProfile("network-devices", {
  projectId,
  certificatePolicyId,
  caId: internalCaId,
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

// 4. Ingress certificates through ACME (e.g. cert-manager). DNS ownership is verified; ACME
//    accounts need no external account binding.
const ingress = new CertificateProfile("k8s-ingress", {
  projectId,
  certificatePolicyId,
  caId: internalCaId,
  slug: "k8s-ingress",
  description: "Ingress TLS for the Kubernetes clusters (ACME)",
  enrollmentType: "acme",
  acmeConfig: { skipDnsOwnershipVerification: false, skipEabBinding: true },
  defaults: { ttlDays: 90, keyAlgorithm: "EC_secp384r1", extendedKeyUsages: ["server_auth"] },
});

// 5. Laptops enrolled by the MDM over SCEP, signed by the external CA with its own template.
const mdmLaptops = new CertificateProfile("mdm-laptops", {
  projectId,
  certificatePolicyId,
  caId: externalCaId,
  slug: "mdm-laptops",
  description: "Device certificates for managed laptops (SCEP via AD CS)",
  enrollmentType: "scep",
  scepConfig: {
    challengeType: "static",
    challengePassword: scepChallengePassword,
    includeCaCertInResponse: true,
    allowCertBasedRenewal: true,
  },
  externalConfigs: { template: "CorpLaptop" },
  defaults: { organization, ttlDays: 397, keyAlgorithm: "RSA_2048", extendedKeyUsages: ["client_auth"] },
});

const profiles = [serviceMtls, localDev, networkDevices, ingress, mdmLaptops];

/** slug → `<enrollmentType>/<issuerType>`. */
export const profileKinds = pulumi
  .all(profiles.map((p) => pulumi.all([p.slug, p.enrollmentType, p.issuerType])))
  .apply((rows) => Object.fromEntries(rows.map(([slug, enrollment, issuer]) => [slug, `${enrollment}/${issuer}`])));
export const serviceMtlsProfileId = serviceMtls.id;
export const ingressAcmeConfigId = ingress.acmeConfigId;
export const mdmLaptopsScepConfigId = mdmLaptops.scepConfigId;
