import { z } from "zod";
import { secretName, strictObject } from "../common";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/azure-certificate/azure-certificate-rotation-schemas.ts`. */
export const azureCertificate = rotationRow({
  type: "azure-certificate",
  label: "Azure Certificate",
  family: "Cloud app registration certificate",
  origin: { folder: "ee/services/secret-rotation-v2/azure-certificate/" },
  connectionApp: "azure-certificate",
  parameters: strictObject({
    /** The app registration's object id. */
    objectId: str,
    /** The app registration's name, for display (and the certificate's default CN). */
    appName: z.string().trim().optional(),
    /** A PEM private key to issue the certificates for; unset: the service generates a key pair. */
    privateKey: z.string().trim().optional(),
    /** The certificate's subject distinguished name; unset: a CN from `appName` or a default. */
    distinguishedName: z.string().trim().optional(),
    /** The generated key's algorithm: `RSA_2048` (the service's default), `RSA_4096`, `ECDSA_P256` or `ECDSA_P384`. */
    keyAlgorithm: z.enum(["RSA_2048", "RSA_4096", "ECDSA_P256", "ECDSA_P384"]).optional(),
  }),
  secretsMapping: strictObject({
    /** The secret the certificate (base64 X.509) is written to. */
    publicKey: secretName,
    /** The secret the PEM private key is written to. */
    privateKey: secretName,
  }),
  generatedCredentials: z.object({ publicKey: z.string(), privateKey: z.string(), keyId: z.string().optional() }),
  secretFields: ["privateKey"],
  example: { parameters: { objectId: "00000000-0000-4000-8000-0000000000b9", appName: "emulator-app" } },
});
