import { z } from "zod";
import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

const azureOAuth = strictObject({
  /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
  code: str,
  /** The Azure tenant (directory) id. */
  tenantId: str,
});
const azureClientSecret = strictObject({
  /** The app registration's application (client) id. */
  clientId: uuid.max(50),
  /** A client secret of the app registration: secret. */
  clientSecret: z.string().min(1).max(50, { error: "must be at most 50 characters" }),
  /** The Azure tenant (directory) id. */
  tenantId: uuid,
});
const azureCertificate = strictObject({
  /** The Azure tenant (directory) id. */
  tenantId: str,
  /** The app registration's application (client) id. */
  clientId: str,
  /** The PEM certificate registered on the app: secret. */
  certificateBody: str,
  /** The certificate's PEM private key: secret. */
  privateKey: str,
});

/** The service's `services/app-connection/azure-client-secrets/azure-client-secrets-connection-schemas.ts`. */
export const azureClientSecrets = connectionKind({
  app: "azure-client-secrets",
  label: "Azure Client Secrets",
  family: "Cloud app registration",
  methods: {
    oauth: { credentials: azureOAuth, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
    certificate: { credentials: azureCertificate, secretFields: ["certificateBody", "privateKey"] },
  },
  // docs/api-spec.md §4.1 (which we follow): auto-rotation and `rotation` are accepted for this kind.
  patchSupport: { ...standardPatchSupport, isAutoRotationEnabled: "boolean", rotation: "object" },
  example: {
    method: "oauth",
    credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
  },
});

/** The service's `services/app-connection/azure-app-configuration/azure-app-configuration-connection-schemas.ts`. */
export const azureAppConfiguration = connectionKind({
  app: "azure-app-configuration",
  label: "Azure App Configuration",
  family: "Configuration store",
  methods: {
    oauth: { credentials: azureOAuth, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
  },
  patchSupport: standardPatchSupport,
  example: {
    method: "oauth",
    credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
  },
});

/** The service's `services/app-connection/azure-key-vault/azure-key-vault-connection-schemas.ts`. */
export const azureKeyVault = connectionKind({
  app: "azure-key-vault",
  label: "Azure Key Vault",
  family: "Cloud key vault",
  methods: {
    oauth: { credentials: azureOAuth, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  example: {
    method: "oauth",
    credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
  },
});
