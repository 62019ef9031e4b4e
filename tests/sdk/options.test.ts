import {
  SecretOpsClient,
  SecretOpsResponseError,
  SecretOpsValidationError,
  appConnectionKinds,
  knownSyncDestinations,
  rotationTypes,
  type ProjectType,
} from "../../sdk";
import { type TestEmulator, startTestEmulator } from "./helpers/emulator";
import { type Recorded, type StubServer, startStub } from "./helpers/stub-server";

/**
 * The options routes in the SDK: `secretSyncs.listOptions()` (server/routes/v1/secret-sync-routers/
 * secret-sync-router.ts), `appConnections.listOptions({ projectType })` (server/routes/v1/
 * app-connection-routers/app-connection-router.ts) and `secretRotations.listOptions()`
 * (ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts): what goes on the wire,
 * how leniently the answer is read, and the same calls against the emulator.
 */

describe("on the wire (stub server)", () => {
  let stub: StubServer;
  let client: SecretOpsClient;
  beforeEach(async () => {
    stub = await startStub();
    client = new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit: false, retry: { baseDelayMs: 1 } });
  });
  afterEach(() => stub.close());
  const last = (): Recorded => stub.requests[stub.requests.length - 1]!;

  test("secret syncs: GET /api/v1/secret-syncs/options, read leniently", async () => {
    stub.queue({
      status: 200,
      body: {
        secretSyncOptions: [
          { name: "Chef", destination: "chef", connection: "chef", canImportSecrets: true, enterprise: true },
          // a destination newer than this package, with a flag this package does not know
          {
            name: "Newer",
            destination: "newer-destination",
            connection: "newer",
            canImportSecrets: false,
            canRemoveSecretsOnDeletion: true,
            somethingNew: 1,
          },
        ],
      },
    });
    const options = await client.secretSyncs.listOptions();
    expect(last()).toMatchObject({ method: "GET", url: "/api/v1/secret-syncs/options", body: "" });
    expect(options).toEqual([
      { name: "Chef", destination: "chef", connection: "chef", canImportSecrets: true, enterprise: true },
      {
        name: "Newer",
        destination: "newer-destination",
        connection: "newer",
        canImportSecrets: false,
        canRemoveSecretsOnDeletion: true,
      },
    ]);
  });

  test("a mismatch names the path", async () => {
    stub.queue({ status: 200, body: { secretSyncOptions: [{ name: "X", destination: "x", connection: "x" }] } });
    const err = await client.secretSyncs.listOptions().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsResponseError);
    expect((err as Error).message).toContain("secretSyncOptions.0.canImportSecrets: is required");
  });

  test("app connections: GET /api/v1/app-connections/options?projectType=", async () => {
    const option = { name: "Azure Key Vault", app: "azure-key-vault", methods: ["oauth", "client-secret"] };
    stub.queue({ status: 200, body: { appConnectionOptions: [{ ...option, oauthClientId: "cid", extra: true }] } });
    expect(await client.appConnections.listOptions({ projectType: "cert-manager" })).toEqual([
      { ...option, oauthClientId: "cid" },
    ]);
    expect(last().url).toBe("/api/v1/app-connections/options?projectType=cert-manager");
    stub.queue({ status: 200, body: { appConnectionOptions: [] } });
    await client.appConnections.listOptions();
    expect(last().url).toBe("/api/v1/app-connections/options");
    // the service's ProjectType is an enum: another value is refused before sending
    const n = stub.requests.length;
    const err = await client.appConnections
      .listOptions({ projectType: "secrets" as ProjectType })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsValidationError);
    expect((err as Error).message).toContain("projectType");
    expect(stub.requests).toHaveLength(n);
  });

  test("secret rotations: GET /api/v2/secret-rotations/options, the template passed through", async () => {
    const template = { secretsMapping: { clientId: "OKTA_CLIENT_ID", clientSecret: "OKTA_CLIENT_SECRET" } };
    stub.queue({
      status: 200,
      body: {
        secretRotationOptions: [
          { name: "Okta Client Secret", type: "okta-client-secret", connection: "okta", template },
        ],
      },
    });
    expect(await client.secretRotations.listOptions()).toEqual([
      { name: "Okta Client Secret", type: "okta-client-secret", connection: "okta", template },
    ]);
    expect(last()).toMatchObject({ method: "GET", url: "/api/v2/secret-rotations/options" });
  });
});

describe("against the emulator", () => {
  let t: TestEmulator;
  let client: SecretOpsClient;
  beforeAll(async () => {
    t = await startTestEmulator();
    client = new SecretOpsClient({ baseUrl: t.url, token: t.token }, { rateLimit: false });
  });
  afterAll(() => t.stop());

  test("every row is offered, with its connection kind", async () => {
    const syncs = await client.secretSyncs.listOptions();
    expect(syncs.map((o) => o.destination).sort()).toEqual(knownSyncDestinations.map((d) => d.destination).sort());
    for (const d of knownSyncDestinations)
      expect(syncs.find((o) => o.destination === d.destination)?.connection).toBe(d.connectionApp);

    const connections = await client.appConnections.listOptions();
    expect(connections.map((o) => o.app).sort()).toEqual(Object.keys(appConnectionKinds).sort());

    const rotations = await client.secretRotations.listOptions();
    expect(rotations.map((o) => o.type).sort()).toEqual(Object.keys(rotationTypes).sort());
  });

  test("one read each; a project type narrows the connection kinds", async () => {
    await t.admin.clearRequests();
    const scanning = await client.appConnections.listOptions({ projectType: "secret-scanning" });
    expect(scanning.map((o) => o.app).sort()).toEqual(["bitbucket", "github-radar", "gitlab"]);
    expect((await t.admin.requests()).map((r) => [r.method, r.url, r.bucket])).toEqual([
      ["GET", "/api/v1/app-connections/options?projectType=secret-scanning", "read"],
    ]);
  });
});
