import { SecretOpsClient, SecretOpsValidationError, type RequestInfo } from "../../sdk";
import {
  type Issue,
  appConnectionKinds,
  knownSyncDestinations,
  rotationTypes,
  secretSyncCreateSchema,
  secretSyncUpdateSchema,
  syncDestinations,
} from "../../sdk/schemas";
import { ids } from "./helpers/fixtures";
import { relaxedConnectionCases, relaxedSyncCases } from "./helpers/kind-cases";
import { type StubServer, startStub } from "./helpers/stub-server";

/**
 * The rules the service enforces in each kind's schema file (`superRefine`, `refine`, `.regex`,
 * limits, enums), as the kind rows carry them: every row's `invalidExamples` is refused by the SDK
 * before anything is sent, with the issue the row names. The emulator's twin is
 * tests/kinds/kind-rules.test.ts.
 */

let stub: StubServer;
let client: SecretOpsClient;
const log: RequestInfo[] = [];

beforeAll(async () => {
  stub = await startStub();
  client = new SecretOpsClient(
    { baseUrl: stub.url, token: "t" },
    { rateLimit: false, retry: { baseDelayMs: 1, maxDelayMs: 5 }, logger: { onRequest: (i) => log.push(i) } },
  );
});
afterAll(() => stub.close());
afterEach(() => {
  // A refused body never leaves the process.
  const sent = [stub.requests.length, log.length];
  stub.requests.length = 0;
  log.length = 0;
  expect(sent).toEqual([0, 0]);
});

/** The issues of the validation error a call is refused with. */
async function refusal(p: Promise<unknown>): Promise<Issue[]> {
  const err = await p.then(
    () => {
      throw new Error("expected a validation error");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SecretOpsValidationError);
  return (err as SecretOpsValidationError).issues;
}

/** Asserts an issue at `path` whose message is `message` or begins with it. */
function expectIssue(issues: readonly Issue[], path: string, message: string): void {
  const hit = issues.find((i) => i.path === path && i.message.startsWith(message));
  if (!hit) throw new Error(`no issue ${JSON.stringify({ path, message })} in ${JSON.stringify(issues)}`);
}

// Any (untyped) kind through the typed clients: the rows are iterated, not named.
type Any = never;

const connectionCases = Object.values(appConnectionKinds).flatMap((kind) =>
  (kind.invalidExamples ?? []).map((ex, i) => [`${kind.app} #${i + 1} ${ex.path}`, kind, ex] as const),
);
const syncCases = knownSyncDestinations.flatMap((dest) =>
  (dest.invalidExamples ?? []).map((ex, i) => [`${dest.destination} #${i + 1} ${ex.path}`, dest, ex] as const),
);
const rotationCases = Object.values(rotationTypes).flatMap((type) =>
  (type.invalidExamples ?? []).map((ex, i) => [`${type.type} #${i + 1} ${ex.path}`, type, ex] as const),
);

test("the rows carry invalid examples in all three families", () => {
  expect(connectionCases.length).toBeGreaterThan(0);
  expect(syncCases.length).toBeGreaterThan(0);
  expect(rotationCases.length).toBeGreaterThan(0);
});

describe("connection kinds: each row's invalid credentials are refused on create and update", () => {
  test.each(connectionCases)("%s", async (_, kind, ex) => {
    const method = ex.method ?? kind.example.method;
    const create = await refusal(
      client.appConnections.create(kind.app as Any, { name: "kind-rule", method, credentials: ex.credentials } as Any),
    );
    expectIssue(create, ex.path, ex.message);
    const update = await refusal(
      client.appConnections.update(kind.app as Any, ids.connection, { credentials: ex.credentials } as Any),
    );
    expectIssue(update, ex.path, ex.message);
  });
});

function syncBody(destinationConfig: Record<string, unknown>, syncOptions: Record<string, unknown> = {}) {
  return {
    name: "kind-rule",
    projectId: ids.project,
    connectionId: ids.connection,
    environment: "dev",
    secretPath: "/",
    syncOptions: { initialSyncBehavior: "overwrite-destination", ...syncOptions },
    destinationConfig,
  };
}

describe("sync destinations: each row's invalid bodies are refused", () => {
  test.each(syncCases)("%s", async (_, dest, ex) => {
    const body = syncBody(ex.destinationConfig ?? dest.example.destinationConfig, ex.syncOptions);
    expectIssue(await refusal(client.secretSyncs.create(dest.destination as Any, body as Any)), ex.path, ex.message);
    if (ex.update) {
      const patch = { destinationConfig: body.destinationConfig, syncOptions: body.syncOptions };
      const issues = await refusal(client.secretSyncs.update(dest.destination as Any, ids.sync, patch as Any));
      expectIssue(issues, ex.path, ex.message);
    }
  });
});

describe("rotation types: each row's invalid parameters and mappings are refused", () => {
  test.each(rotationCases)("%s", async (_, type, ex) => {
    const mapping = Object.fromEntries(Object.keys(type.secretsMapping.shape).map((k) => [k, `KR_${k.toUpperCase()}`]));
    const body = {
      name: "kind-rule",
      projectId: ids.project,
      connectionId: ids.connection,
      environment: "dev",
      secretPath: "/",
      rotationInterval: 30,
      parameters: ex.parameters ?? type.example.parameters,
      secretsMapping: { ...mapping, ...ex.secretsMapping },
    };
    expectIssue(await refusal(client.secretRotations.create(type.type as Any, body as Any)), ex.path, ex.message);
  });
});

/**
 * The service's `CreateAwsSecretsManagerSyncSchema` and `UpdateAwsSecretsManagerSyncSchema`
 * (backend/src/services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-schemas.ts):
 * a rule across `destinationConfig` and `syncOptions`, at the body's own path.
 */
describe("aws-secrets-manager: many-to-one does not go with syncSecretMetadataAsTags", () => {
  const RULE = 'Syncing secret metadata is not supported with "Many-to-One" mapping behavior.';
  const dest = syncDestinations["aws-secrets-manager"];
  const manyToOne = { region: "us-east-1", mappingBehavior: "many-to-one", secretName: "app/all" } as const;
  const withTags = { initialSyncBehavior: "overwrite-destination", syncSecretMetadataAsTags: true } as const;

  test("create: refused, naming the rule", async () => {
    const issues = await refusal(
      client.secretSyncs.create("aws-secrets-manager", syncBody(manyToOne, withTags) as Any),
    );
    expect(issues).toEqual([{ path: "", message: RULE }]);
  });

  test("update with both parts: refused", async () => {
    const issues = await refusal(
      client.secretSyncs.update("aws-secrets-manager", ids.sync, {
        destinationConfig: manyToOne,
        syncOptions: withTags,
      }),
    );
    expect(issues).toEqual([{ path: "", message: RULE }]);
  });

  test("what the service accepts passes: one-to-one with tags, many-to-one without, a PATCH of one part", () => {
    const create = secretSyncCreateSchema(dest);
    expect(
      create.safeParse(syncBody({ ...manyToOne, mappingBehavior: "one-to-one", secretName: undefined }, withTags))
        .success,
    ).toBe(true);
    expect(create.safeParse(syncBody(manyToOne, { syncSecretMetadataAsTags: false })).success).toBe(true);
    const update = secretSyncUpdateSchema(dest);
    // The service's update rule reads only the body: a PATCH of syncOptions alone is not compared
    // with the stored config.
    expect(update.safeParse({ syncOptions: withTags }).success).toBe(true);
    expect(update.safeParse({ destinationConfig: manyToOne }).success).toBe(true);
  });
});

/** backend/src/services/app-connection/okta/okta-connection-schemas.ts: `^00[a-zA-Z0-9_-]{40}$`. */
describe("okta apiToken: 00 and exactly 40 characters", () => {
  const creds = (apiToken: string) => ({ instanceUrl: "https://example.okta.com", apiToken });
  test.each([
    ["41 characters after 00", `00${"a".repeat(41)}`],
    ["39 characters after 00", `00${"a".repeat(39)}`],
  ])("%s: refused", async (_, token) => {
    const issues = await refusal(
      client.appConnections.create("okta", { name: "okta", method: "api-token", credentials: creds(token) }),
    );
    expect(issues).toEqual([{ path: "credentials.apiToken", message: "Invalid Okta API Token format" }]);
  });

  test("exactly 40 passes", () => {
    const schema = appConnectionKinds.okta.methods["api-token"].credentials;
    expect(schema.safeParse(creds(`00${"a".repeat(40)}`)).success).toBe(true);
  });
});

describe("what the service accepts, the SDK accepts", () => {
  test.each(relaxedConnectionCases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const methods: Record<string, { credentials: { safeParse(v: unknown): { error?: { issues: unknown[] } } } }> =
      appConnectionKinds[c.app].methods;
    expect(methods[c.method].credentials.safeParse(c.credentials).error?.issues ?? []).toEqual([]);
  });

  test.each(relaxedSyncCases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const dest = syncDestinations[c.destination];
    const body = syncBody(c.destinationConfig ?? dest.example.destinationConfig, c.syncOptions);
    const r = secretSyncCreateSchema(dest).safeParse(body);
    expect(r.error?.issues ?? []).toEqual([]);
  });

  test("azure-entra-id-scim: a key schema is taken and dropped, as the service drops it", () => {
    const dest = syncDestinations["azure-entra-id-scim"];
    const body = syncBody(dest.example.destinationConfig, { keySchema: "not a {{secretKey}} schema!" });
    const r = secretSyncCreateSchema(dest).safeParse(body);
    expect(r.success).toBe(true);
    expect(r.data?.syncOptions).not.toHaveProperty("keySchema", expect.anything());
  });
});
