import { z } from "zod";
import { strictObject, uuid } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

const azureOAuth = strictObject({
  /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
  code: str,
  /** The Azure tenant (directory) id. */
  tenantId: str,
});
/** The OAuth method of App Configuration and Key Vault, whose tenant id the service takes as optional. */
const azureOAuthOptionalTenant = strictObject({
  /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
  code: str,
  /** The Azure tenant (directory) id; unset: the sign-in's own. */
  tenantId: z.string().trim().optional(),
});
const azureClientSecret = strictObject({
  /** The app registration's application (client) id. */
  clientId: uuid.max(50),
  /** A client secret of the app registration, at most 50 characters: secret. */
  clientSecret: str.max(50, { error: "must be at most 50 characters" }),
  /** The Azure tenant (directory) id. */
  tenantId: uuid,
});
const azureCertificate = strictObject({
  /** The Azure tenant (directory) id, a UUID. */
  tenantId: uuid,
  /** The app registration's application (client) id, a UUID. */
  clientId: uuid,
  /** The PEM certificate registered on the app: secret. */
  certificateBody: str,
  /** The certificate's PEM private key: secret. */
  privateKey: str,
});

/**
 * The service's `services/app-connection/azure-client-secrets/azure-client-secrets-connection-schemas.ts`
 * (its certificate method takes UUIDs for tenantId and clientId).
 */
export const azureClientSecrets = connectionKind({
  app: "azure-client-secrets",
  label: "Azure Client Secrets",
  family: "Cloud app registration",
  origin: "service-enum",
  methods: {
    oauth: { credentials: azureOAuth, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
    certificate: { credentials: azureCertificate, secretFields: ["certificateBody", "privateKey"] },
  },
  // docs/api-spec.md §4.1 (which we follow): auto-rotation and `rotation` are accepted for this kind.
  patchSupport: { ...standardPatchSupport, isAutoRotationEnabled: "boolean", rotation: "object" },
  examples: {
    oauth: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    "client-secret": {
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      clientSecret: "client-secret-value",
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
    },
    certificate: {
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      certificateBody: "cert",
      privateKey: "key",
    },
  },
  invalidExamples: [
    {
      method: "certificate",
      credentials: {
        tenantId: "not-a-uuid",
        clientId: "00000000-0000-4000-8000-0000000000a2",
        certificateBody: "cert",
        privateKey: "key",
      },
      path: "credentials.tenantId",
      message: "must be a UUID",
    },
  ],
});

/**
 * The service's `services/app-connection/azure-app-configuration/azure-app-configuration-connection-schemas.ts`
 * (its OAuth tenant id is optional).
 */
export const azureAppConfiguration = connectionKind({
  app: "azure-app-configuration",
  label: "Azure App Configuration",
  family: "Configuration store",
  origin: "service-enum",
  methods: {
    oauth: { credentials: azureOAuthOptionalTenant, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
  },
  patchSupport: standardPatchSupport,
  examples: {
    oauth: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    "client-secret": {
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      clientSecret: "client-secret-value",
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
    },
  },
});

/**
 * The service's `services/app-connection/azure-key-vault/azure-key-vault-connection-schemas.ts` (its
 * OAuth tenant id is optional).
 */
export const azureKeyVault = connectionKind({
  app: "azure-key-vault",
  label: "Azure Key Vault",
  family: "Cloud key vault",
  origin: "service-enum",
  methods: {
    oauth: { credentials: azureOAuthOptionalTenant, secretFields: ["code"] },
    "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  examples: {
    oauth: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    "client-secret": {
      clientId: "0f0f0f0f-0000-4000-8000-000000000001",
      clientSecret: "client-secret-value",
      tenantId: "0f0f0f0f-0000-4000-8000-000000000002",
    },
  },
});
