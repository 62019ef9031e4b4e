import { X509Certificate } from "node:crypto";
import { z } from "zod";
import { identityAuthMethod, positiveMaxTtl } from "./row";

const isCertificate = (pem: string) => {
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
};

/** A self-signed CA certificate (P-256, `openssl req -x509`), made once for the row's example. */
const EXAMPLE_CA = [
  "-----BEGIN CERTIFICATE-----",
  "MIIBlDCCATugAwIBAgIUAyF8bXtMWU+X82rs6SoH4m/nEeAwCgYIKoZIzj0EAwIw",
  "HzEdMBsGA1UEAwwUc2VjcmV0b3BzIGV4YW1wbGUgQ0EwIBcNMjYxMTI4MTI1MzM1",
  "WhgPMjEyNjExMDQxMjUzMzVaMB8xHTAbBgNVBAMMFHNlY3JldG9wcyBleGFtcGxl",
  "IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4hNvQiyAOrZOvDMl+U64gJFa",
  "m2cKoySs3R9cKWP+KcjeTZUHfxMQsdQB3F7c2QvdEPciRMavyqJZ5vDL0eFP/6NT",
  "MFEwHQYDVR0OBBYEFKNtdfxyMwm5pNCSTIqv3pUJhJ0OMB8GA1UdIwQYMBaAFKNt",
  "dfxyMwm5pNCSTIqv3pUJhJ0OMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID",
  "RwAwRAIgEbc6fz/tB9ZF8EHtDGdNreCieRJOiFVbkq4XNWrP1vYCIBReQLRj0Z3h",
  "TRm09Md1MkDuEfc4YvoppRXsPKFKa3fi",
  "-----END CERTIFICATE-----",
].join("\n");

/**
 * The service's `server/routes/v1/identity-tls-cert-auth-router.ts`: a login presents a client
 * certificate (passed on by the TLS-terminating proxy in a header) signed by `caCertificate`.
 */
export const tlsCertAuth = identityAuthMethod({
  method: "tls-cert-auth",
  label: "TLS Certificate Auth",
  alreadyAttachedMessage: "Failed to add TLS Certificate Auth to already configured identity",
  notAttachedMessage: "The identity does not have TLS Certificate Auth attached",
  notAttachedStatus: 404,
  origin: "backend/src/server/routes/v1/identity-tls-cert-auth-router.ts",
  responseKey: "identityTlsCertAuth",
  fields: {
    /** The PEM CA certificate that must have signed a login's client certificate, at most 10240 characters: secret (the service keeps it encrypted). */
    caCertificate: {
      schema: z
        .string()
        .min(1, { error: "must not be empty" })
        .max(10240, { error: "must be at most 10240 characters" })
        .refine(isCertificate, { error: "Invalid CA Certificate." }),
    },
    /** Common names a client certificate may have, comma-separated; unset for any. */
    allowedCommonNames: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "must not be empty" })
        .transform((v) =>
          v
            .split(",")
            .map((i) => i.trim())
            .join(","),
        )
        .nullish(),
    },
    accessTokenMaxTTL: positiveMaxTtl,
  },
  secretFields: ["caCertificate"],
  returnedSecretFields: ["caCertificate"],
  secretsOnlyOnGet: true,
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { caCertificate: EXAMPLE_CA, allowedCommonNames: "ci.acme.internal" },
});
