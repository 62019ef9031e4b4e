import type { appConnectionKinds, syncDestinations } from "../../../sdk/schemas";

/**
 * What the service accepts where a row used to refuse it (the SDK must not be stricter than the
 * service but for unknown keys). Each case cites the service file it follows; both
 * tests/sdk/kind-rules.test.ts and tests/kinds/kind-rules.test.ts send each one.
 */
export const relaxedSyncCases: readonly {
  name: string;
  destination: keyof typeof syncDestinations;
  destinationConfig?: Record<string, unknown>;
  syncOptions?: Record<string, unknown>;
}[] = [
  {
    // aws-parameter-store-sync-schemas.test.ts: "accepts an empty tag value".
    name: "aws-parameter-store: an empty tag value",
    destination: "aws-parameter-store",
    syncOptions: { tags: [{ key: "environment", value: "" }] },
  },
  {
    // aws-secrets-manager-sync-schemas.test.ts: "accepts an empty tag value".
    name: "aws-secrets-manager: an empty tag value",
    destination: "aws-secrets-manager",
    syncOptions: { tags: [{ key: "environment", value: "" }] },
  },
  {
    // azure-entra-id-scim-sync-schemas.ts: servicePrincipalId is a trimmed non-empty string.
    name: "azure-entra-id-scim: a service principal id that is no UUID",
    destination: "azure-entra-id-scim",
    destinationConfig: { servicePrincipalId: "sp-emulator" },
  },
  {
    // external-infisical-sync-schemas.ts: secretPath defaults to "/".
    name: "external-infisical: no secretPath",
    destination: "external-infisical",
    destinationConfig: { projectId: "p", environment: "prod" },
  },
  {
    // netlify-sync-schemas.ts (77c428cc): accountName is optional, and it can import.
    name: "netlify: no accountName, importing first",
    destination: "netlify",
    destinationConfig: { accountId: "acme-team" },
    syncOptions: { initialSyncBehavior: "import-prioritize-source" },
  },
  {
    // laravel-forge-sync-schemas.ts: serverId passes when `Number(val)` is a number.
    name: "laravel-forge: a server id Number() reads",
    destination: "laravel-forge",
    destinationConfig: { orgSlug: "emulator-org", serverId: "1e3", siteId: "67890" },
  },
  {
    // octopus-deploy-sync-schemas.ts (7b3d001d): spaceName and projectName.
    name: "octopus-deploy: spaceName and projectName",
    destination: "octopus-deploy",
    destinationConfig: {
      spaceId: "Spaces-1",
      spaceName: "Default",
      scope: "project",
      projectId: "Projects-1",
      projectName: "web",
    },
  },
];

/** The connection twin of `relaxedSyncCases`: credentials the service takes and a row used to refuse. */
export const relaxedConnectionCases: readonly {
  name: string;
  app: keyof typeof appConnectionKinds;
  method: string;
  credentials: Record<string, unknown>;
}[] = [
  {
    // azure-key-vault-connection-schemas.ts: the OAuth tenantId is optional.
    name: "azure-key-vault: OAuth without a tenant id",
    app: "azure-key-vault",
    method: "oauth",
    credentials: { code: "emulator-oauth-code" },
  },
  {
    // azure-app-configuration-connection-schemas.ts: the OAuth tenantId is optional.
    name: "azure-app-configuration: OAuth without a tenant id",
    app: "azure-app-configuration",
    method: "oauth",
    credentials: { code: "emulator-oauth-code" },
  },
  {
    // auth0-connection-schemas.ts: the audience is trimmed before it is checked as a URL.
    name: "auth0: an audience with spaces around it",
    app: "auth0",
    method: "client-credentials",
    credentials: {
      domain: "emulator.auth0.com",
      clientId: "emulator-client",
      clientSecret: "emulator-secret",
      audience: " https://emulator.auth0.com/api/v2/ ",
    },
  },
  {
    // windmill-connection-schemas.ts: the instance URL is trimmed before it is checked.
    name: "windmill: an instance URL with spaces around it",
    app: "windmill",
    method: "access-token",
    credentials: { accessToken: "emulator-windmill-token", instanceUrl: " https://windmill.example.com " },
  },
  {
    // redis-connection-schemas.ts: the password is optional and nothing is trimmed.
    name: "redis: no password",
    app: "redis",
    method: "username-and-password",
    credentials: {
      host: "cache.emulator.local",
      port: 6379,
      username: "default",
      sslEnabled: false,
      sslRejectUnauthorized: true,
    },
  },
];
