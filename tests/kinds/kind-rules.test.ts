import {
  SecretSyncEnvelope,
  apiPaths,
  appConnectionKinds,
  knownSyncDestinations,
  rotationTypes,
  syncDestinations,
  type KnownSyncDestination,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expect422, start, uniq, type Api, type Res } from "../emulator/helpers";
import { relaxedConnectionCases, relaxedSyncCases } from "../sdk/helpers/kind-cases";

/**
 * The emulator answers each kind row's `invalidExamples` with the service's 422 naming the field:
 * the service refuses them in the kind's schema file (`superRefine`, `refine`, `.regex`, limits,
 * enums). The SDK's twin is tests/sdk/kind-rules.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

/** A dotted path as the 422's zod issues hold it (array indexes as numbers). */
const pathOf = (dotted: string): (string | number)[] =>
  dotted === "" ? [] : dotted.split(".").map((s) => (/^\d+$/.test(s) ? Number(s) : s));
/** The message is the row's, or begins with it. */
const startingWith = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);

function expectRefused(res: Res, path: string, message: string): void {
  expect422(res, pathOf(path), startingWith(message));
}

const connectionCases = Object.values(appConnectionKinds).flatMap((kind) =>
  (kind.invalidExamples ?? []).map((ex, i) => [`${kind.app} #${i + 1} ${ex.path}`, kind, ex] as const),
);
const syncCases = knownSyncDestinations.flatMap((dest) =>
  (dest.invalidExamples ?? []).map((ex, i) => [`${dest.destination} #${i + 1} ${ex.path}`, dest, ex] as const),
);
const rotationCases = Object.values(rotationTypes).flatMap((type) =>
  (type.invalidExamples ?? []).map((ex, i) => [`${type.type} #${i + 1} ${ex.path}`, type, ex] as const),
);

describe("connection kinds: a row's invalid credentials get a 422 naming the field", () => {
  test.each(connectionCases)("%s", async (_, kind, ex) => {
    const res = await api.post(apiPaths.appConnections(kind.app), {
      name: uniq("kind-rule"),
      method: ex.method ?? kind.example.method,
      credentials: ex.credentials,
    });
    expectRefused(res, ex.path, ex.message);
  });
});

function syncBody(
  dest: KnownSyncDestination,
  destinationConfig: Record<string, unknown>,
  syncOptions: Record<string, unknown> = {},
) {
  return {
    name: uniq("kind-rule"),
    projectId: FX.projectId,
    connectionId: FX.connection(dest.connectionApp).id,
    environment: "dev",
    secretPath: "/app",
    isAutoSyncEnabled: false,
    syncOptions: { initialSyncBehavior: "overwrite-destination", ...syncOptions },
    destinationConfig,
  };
}

async function createSync(dest: KnownSyncDestination, body = syncBody(dest, dest.example.destinationConfig)) {
  const res = await api.post(apiPaths.secretSyncs(dest.destination), body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return SecretSyncEnvelope.parse(res.body).secretSync;
}

describe("sync destinations: a row's invalid bodies get a 422 naming the field", () => {
  test.each(syncCases)("%s", async (_, dest, ex) => {
    const body = syncBody(dest, ex.destinationConfig ?? dest.example.destinationConfig, ex.syncOptions);
    expectRefused(await api.post(apiPaths.secretSyncs(dest.destination), body), ex.path, ex.message);
    if (ex.update) {
      const sync = await createSync(dest);
      const patch = { destinationConfig: body.destinationConfig, syncOptions: body.syncOptions };
      expectRefused(
        await api.patch(`${apiPaths.secretSyncs(dest.destination)}/${sync.id}`, patch),
        ex.path,
        ex.message,
      );
    }
  });
});

describe("rotation types: a row's invalid parameters and mappings get a 422 naming the field", () => {
  test.each(rotationCases)("%s", async (_, type, ex) => {
    const tag = uniq("KR").toUpperCase().replace(/-/g, "_");
    const mapping = Object.fromEntries(Object.keys(type.secretsMapping.shape).map((k) => [k, `${tag}_${k}`]));
    const res = await api.post(apiPaths.secretRotations(type.type), {
      name: uniq("kind-rule"),
      projectId: FX.projectId,
      connectionId: FX.connection(type.connectionApp).id,
      environment: "dev",
      secretPath: "/app",
      rotationInterval: 30,
      parameters: ex.parameters ?? type.example.parameters,
      secretsMapping: { ...mapping, ...ex.secretsMapping },
    });
    expectRefused(res, ex.path, ex.message);
  });
});

/**
 * The service's `CreateAwsSecretsManagerSyncSchema` and `UpdateAwsSecretsManagerSyncSchema`
 * (backend/src/services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-schemas.ts): its
 * `superRefine` adds the issue with no path, so it is at the body's own path.
 */
describe("aws-secrets-manager: many-to-one with syncOptions.syncSecretMetadataAsTags", () => {
  const RULE = 'Syncing secret metadata is not supported with "Many-to-One" mapping behavior.';
  const dest = syncDestinations["aws-secrets-manager"];
  const base = apiPaths.secretSyncs(dest.destination);
  const manyToOne = { region: "us-east-1", mappingBehavior: "many-to-one", secretName: "app/all" };
  const tags = { syncSecretMetadataAsTags: true };

  test("create: 422 at the body's path with the service's message", async () => {
    expect422(await api.post(base, syncBody(dest, manyToOne, tags)), [], RULE);
  });

  test("PATCH with both parts: 422; a PATCH of syncOptions alone is not compared with the stored config", async () => {
    const sync = await createSync(dest, syncBody(dest, manyToOne));
    const both = {
      destinationConfig: manyToOne,
      syncOptions: { initialSyncBehavior: "overwrite-destination", ...tags },
    };
    expect422(await api.patch(`${base}/${sync.id}`, both), [], RULE);
    const alone = await api.patch(`${base}/${sync.id}`, { syncOptions: both.syncOptions });
    expect(alone.status).toBe(200);
  });

  test("one-to-one with the tags, and many-to-one without: 200", async () => {
    await createSync(dest, syncBody(dest, { region: "us-east-1", mappingBehavior: "one-to-one" }, tags));
    await createSync(dest, syncBody(dest, manyToOne, { syncSecretMetadataAsTags: false }));
  });
});

/** backend/src/services/app-connection/okta/okta-connection-schemas.ts: `^00[a-zA-Z0-9_-]{40}$`. */
test("okta: an apiToken of 41 characters after 00 is a 422", async () => {
  const res = await api.post(apiPaths.appConnections("okta"), {
    name: uniq("okta"),
    method: "api-token",
    credentials: { instanceUrl: "https://example.okta.com", apiToken: `00${"a".repeat(41)}` },
  });
  expect422(res, ["credentials", "apiToken"], "Invalid Okta API Token format");
});

describe("what the service accepts, the emulator accepts", () => {
  test.each(relaxedConnectionCases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const res = await api.post(apiPaths.appConnections(c.app), {
      name: uniq("relaxed"),
      method: c.method,
      credentials: c.credentials,
    });
    expect(`${res.status} ${res.status === 200 ? "" : JSON.stringify(res.body)}`).toBe("200 ");
  });

  test.each(relaxedSyncCases.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const dest = syncDestinations[c.destination];
    const res = await api.post(
      apiPaths.secretSyncs(dest.destination),
      syncBody(dest, c.destinationConfig ?? dest.example.destinationConfig, c.syncOptions),
    );
    expect(`${res.status} ${res.status === 200 ? "" : JSON.stringify(res.body)}`).toBe("200 ");
  });

  test("external-infisical: secretPath is stored as the service's default", async () => {
    const dest = syncDestinations["external-infisical"];
    const sync = await createSync(dest, syncBody(dest, { projectId: "p", environment: "prod" }));
    expect(sync.destinationConfig).toMatchObject({ secretPath: "/" });
  });
});
