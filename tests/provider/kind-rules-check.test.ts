import { dynamicProvider } from "../../provider/dynamic-provider";
import { secretSyncDefinition } from "../../provider/secret-sync";
import { appConnectionDefinition } from "../../provider/app-connection";

// The kind rows' rules reach `check` (what `pulumi preview` shows) from the same body schemas as
// the SDK and the emulator: the two cases of issue 27 item 5. No server: check runs before any call.

const sync = dynamicProvider(secretSyncDefinition);
const connection = dynamicProvider(appConnectionDefinition);

/**
 * backend/src/services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-schemas.ts: its
 * create schema's `superRefine` refuses many-to-one with `syncSecretMetadataAsTags`, at no path.
 */
describe("SecretSync check: aws-secrets-manager many-to-one with syncSecretMetadataAsTags", () => {
  const args = {
    destination: "aws-secrets-manager",
    name: "all-in-one",
    projectId: "p1",
    connectionId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
    environment: "prod",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination", syncSecretMetadataAsTags: true },
    destinationConfig: { region: "us-east-1", mappingBehavior: "many-to-one", secretName: "app/all" },
    __resourceName: "all-in-one",
  };

  it("is refused on the resource, in the service's words", async () => {
    expect((await sync.check!({}, args)).failures).toEqual([
      { property: "", reason: 'Syncing secret metadata is not supported with "Many-to-One" mapping behavior.' },
    ]);
  });

  it("passes without the tags", async () => {
    const { failures } = await sync.check!(
      {},
      { ...args, syncOptions: { initialSyncBehavior: "overwrite-destination" } },
    );
    expect(failures ?? []).toEqual([]);
  });
});

/** backend/src/services/app-connection/okta/okta-connection-schemas.ts: `^00[a-zA-Z0-9_-]{40}$`. */
describe("AppConnection check: okta apiToken", () => {
  const args = (apiToken: string) => ({
    app: "okta",
    name: "okta",
    method: "api-token",
    credentials: { instanceUrl: "https://example.okta.com", apiToken },
    __resourceName: "okta",
  });

  it("refuses 41 characters after 00, never echoing the token", async () => {
    const token = `00${"canary".repeat(7)}`.slice(0, 43);
    const { failures } = await connection.check!({}, args(token));
    // A nested path is no top-level input: the engine prints no value for it.
    expect(failures).toEqual([{ property: "credentials.apiToken", reason: "Invalid Okta API Token format" }]);
    expect(JSON.stringify(failures)).not.toContain("canary");
  });

  it("accepts exactly 40", async () => {
    expect((await connection.check!({}, args(`00${"a".repeat(40)}`))).failures ?? []).toEqual([]);
  });
});
