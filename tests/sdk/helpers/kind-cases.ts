import type { syncDestinations } from "../../../sdk/schemas";

/**
 * What the service accepts where a row used to refuse it (the SDK must not be stricter than the
 * service but for unknown keys). Each case cites the service file it follows; both
 * tests/sdk/kind-rules.test.ts and tests/emulator/kind-rules.test.ts send each one.
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
