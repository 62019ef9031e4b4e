import type * as pulumi from "@pulumi/pulumi";
import type {
  AppConnectionSettings,
  AppConnectionSettingsArgs,
  CertificateProfileArgs,
  SecretRotation,
  SecretRotationArgs,
  SecretSync,
  SecretSyncArgs,
} from "../../provider";

// Compile-time checks: ts-jest type-checks this file, so each @ts-expect-error must be an error.
// A field that does not belong to a kind does not compile.

const base = { name: "n", projectId: "p", connectionId: "c", environment: "e", secretPath: "/" };

export const ok: SecretSyncArgs[] = [
  {
    ...base,
    destination: "azure-key-vault",
    destinationConfig: { vaultBaseUrl: "https://v" },
    syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true },
  },
  {
    ...base,
    destination: "vercel",
    destinationConfig: { app: "a", appName: "b", env: "production", teamId: "t" },
    syncOptions: { initialSyncBehavior: "import-prioritize-source" },
  },
];
export const wrongConfig: SecretSyncArgs = {
  ...base,
  destination: "vercel",
  // @ts-expect-error vaultBaseUrl belongs to azure-key-vault, not vercel
  destinationConfig: { vaultBaseUrl: "https://v" },
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
};

export const rotation: SecretRotationArgs = {
  ...base,
  type: "redis-credentials",
  rotationInterval: 1,
  parameters: { permissionScope: "~* +@all" },
  secretsMapping: { username: "U", password: "P" },
};
export const wrongMapping: SecretRotationArgs = {
  ...base,
  type: "postgres-credentials",
  rotationInterval: 1,
  parameters: { username1: "a", username2: "b" },
  // @ts-expect-error clientId and clientSecret are mapping keys of azure-client-secret, not of SQL types
  secretsMapping: { clientId: "A", clientSecret: "B" },
};

// @ts-expect-error self-signed profiles take no caId
export const selfSignedWithCa: CertificateProfileArgs = {
  projectId: "p",
  certificatePolicyId: "c",
  slug: "s",
  issuerType: "self-signed",
  caId: "x",
  enrollmentType: "api",
  apiConfig: {},
};
// @ts-expect-error EST enrollment needs estConfig
export const estWithoutConfig: CertificateProfileArgs = {
  projectId: "p",
  certificatePolicyId: "c",
  slug: "s",
  caId: "x",
  enrollmentType: "est",
};

export const sqlGateway: AppConnectionSettingsArgs = { app: "postgres", connectionId: "c", gatewayId: null };
// @ts-expect-error gatewayId is not supported for auth0
export const auth0Gateway: AppConnectionSettingsArgs = { app: "auth0", connectionId: "c", gatewayId: "g" };
// @ts-expect-error only false for auth0
export const auth0Rotation: AppConnectionSettingsArgs = {
  app: "auth0",
  connectionId: "c",
  isAutoRotationEnabled: true,
};

// Outputs are declared from each definition's mapping, with its types; an output it does not
// map does not exist.
export function outputs(sync: SecretSync, rotation: SecretRotation, settings: AppConnectionSettings) {
  const projectId: pulumi.Output<string> = sync.projectId;
  const status: pulumi.Output<string | null | undefined> = sync.syncStatus;
  const interval: pulumi.Output<number> = rotation.rotationInterval;
  const name: pulumi.Output<string> = settings.name;
  // @ts-expect-error no such output
  const nope = sync.rotationInterval;
  return [projectId, status, interval, name, nope];
}

it("typed args compile as intended", () => {
  expect(ok).toHaveLength(2);
});
