import { createHash } from "node:crypto";
import {
  AppConnectionEnvelope,
  SecretRotationEnvelope,
  SecretSyncEnvelope,
  apiPaths,
  rotationTypes,
  syncDestinations,
  type SecretSync,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expectError, start, uniq, type Api, type Res } from "./helpers";
import { rotationObjects } from "./objects";

/**
 * The emulator answers a request with keys its schemas do not know as the service does: the
 * service's request schemas are plain `z.object`s (no `.strict()`), which drop such keys, so the
 * request succeeds with what remains, and a 422 lists only the real problems. The program side
 * and the SDK stay strict on purpose (tests/sdk/validation.test.ts).
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

/** The issues of a 422, as `path.joined` → code. */
function issuesOf(res: Res): { path: string; code: string; message: string }[] {
  expectError(res, 422, "ValidationFailure");
  return (res.body.message as { path: PropertyKey[]; code: string; message: string }[]).map((i) => ({
    path: i.path.map(String).join("."),
    code: i.code,
    message: i.message,
  }));
}

function syncBody(destination: keyof typeof syncDestinations, destinationConfig: Record<string, unknown>) {
  const dest = syncDestinations[destination];
  return {
    name: uniq("unknown"),
    projectId: FX.projectId,
    connectionId: FX.connection(dest.connectionApp).id,
    environment: "dev",
    secretPath: "/app",
    isAutoSyncEnabled: false,
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig,
  };
}

const getSync = async (destination: string, id: string): Promise<SecretSync> =>
  SecretSyncEnvelope.parse((await api.get(`${apiPaths.secretSyncs(destination)}/${id}`)).body).secretSync;

describe("secret syncs", () => {
  // services/secret-sync/github/github-sync-schemas.ts: `destinationConfig` is a discriminatedUnion
  // on `scope` of plain z.objects; the `repository` branch has only scope, owner and repo, so it
  // drops `org` (a field of the `organization` branch) and the service stores what it parsed.
  test("github, repository scope with an org key: 200, org dropped from what is stored", async () => {
    const res = await api.post(
      apiPaths.secretSyncs("github"),
      syncBody("github", { scope: "repository", owner: "acme", repo: "web", org: "acme-org" }),
    );
    expect(res.status).toBe(200);
    const made = SecretSyncEnvelope.parse(res.body).secretSync;
    const expected = { scope: "repository", owner: "acme", repo: "web" };
    expect(made.destinationConfig).toEqual(expected);
    expect((await getSync("github", made.id)).destinationConfig).toEqual(expected);
    // the same on PATCH (UpdateGitHubSyncSchema uses the same union)
    const patched = await api.patch(`${apiPaths.secretSyncs("github")}/${made.id}`, {
      destinationConfig: { scope: "repository", owner: "acme", repo: "api", org: "x", visibility: "all" },
    });
    expect(patched.status).toBe(200);
    expect(SecretSyncEnvelope.parse(patched.body).secretSync.destinationConfig).toEqual({
      scope: "repository",
      owner: "acme",
      repo: "api",
    });
  });

  test("github: an unknown key beside a real error is not listed; only the real error is", async () => {
    const issues = issuesOf(
      await api.post(
        apiPaths.secretSyncs("github"),
        syncBody("github", { scope: "repository", owner: "acme", org: "acme-org", nope: 1 }),
      ),
    );
    expect(issues.map((i) => i.path)).toEqual(["destinationConfig.repo"]);
    expect(issues.some((i) => i.code === "unrecognized_keys")).toBe(false);
  });

  // services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-schemas.ts: a discriminatedUnion
  // on `mappingBehavior` (only `many-to-one` has `secretName`) `.and(z.object({ region }))`. Both
  // sides of the intersection are plain z.objects and neither keeps `secretName` for `one-to-one`:
  // the merged result is `{ mappingBehavior, region }`.
  test("aws-secrets-manager one-to-one with a secretName: 200, secretName dropped", async () => {
    const res = await api.post(
      apiPaths.secretSyncs("aws-secrets-manager"),
      syncBody("aws-secrets-manager", { region: "us-east-1", mappingBehavior: "one-to-one", secretName: "all-in-one" }),
    );
    expect(res.status).toBe(200);
    const made = SecretSyncEnvelope.parse(res.body).secretSync;
    expect(made.destinationConfig).toEqual({ region: "us-east-1", mappingBehavior: "one-to-one" });
    expect((await getSync("aws-secrets-manager", made.id)).destinationConfig).toEqual({
      region: "us-east-1",
      mappingBehavior: "one-to-one",
    });
    // many-to-one keeps it: it is a field of that branch
    const many = await api.post(
      apiPaths.secretSyncs("aws-secrets-manager"),
      syncBody("aws-secrets-manager", {
        region: "us-east-1",
        mappingBehavior: "many-to-one",
        secretName: "all-in-one",
      }),
    );
    expect(SecretSyncEnvelope.parse(many.body).secretSync.destinationConfig).toMatchObject({
      secretName: "all-in-one",
    });
  });

  // services/secret-sync/secret-sync-schemas.ts: the create body and its syncOptions are plain
  // z.objects (GenericCreateSecretSyncFieldsSchema).
  test("unknown top-level and syncOptions keys are dropped", async () => {
    const body = {
      ...syncBody("vercel", syncDestinations.vercel.example.destinationConfig),
      colour: "blue",
      syncOptions: { initialSyncBehavior: "overwrite-destination", keySchemaa: "X_{{secretKey}}" },
    };
    const res = await api.post(apiPaths.secretSyncs("vercel"), body);
    expect(res.status).toBe(200);
    const made = SecretSyncEnvelope.parse(res.body).secretSync as Record<string, unknown> & SecretSync;
    expect(made["colour"]).toBeUndefined();
    expect(made.syncOptions).toEqual({ initialSyncBehavior: "overwrite-destination" });
  });
});

describe("secret rotations", () => {
  const t = rotationTypes["okta-client-secret"];
  const rotations = rotationObjects(() => api);
  const body = (parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    rotations.body(t, { parameters, ...extra });

  // ee/services/secret-rotation-v2/okta-client-secret/okta-client-secret-rotation-schemas.ts: the
  // parameters are a plain z.object({ clientId }), so an unknown parameter is dropped.
  test("an unknown parameter alone: 200, dropped from the stored parameters", async () => {
    const res = await api.post(apiPaths.secretRotations(t.type), body({ clientId: "0oaclient", scopes: ["x"] }));
    expect(res.status).toBe(200);
    const r = SecretRotationEnvelope.parse(res.body).secretRotation;
    expect(r.parameters).toEqual({ clientId: "0oaclient" });
    const read = await api.get(`${apiPaths.secretRotations(t.type)}/${r.id}`);
    expect(SecretRotationEnvelope.parse(read.body).secretRotation.parameters).toEqual({ clientId: "0oaclient" });
  });

  test("an unknown parameter beside another error: only the real error is listed", async () => {
    // the same body with a real error elsewhere (the rotation interval) and one in the parameters
    for (const [extra, parameters, paths] of [
      [{ rotationInterval: 0 }, { clientId: "0oaclient", scopes: ["x"] }, ["rotationInterval"]],
      [{}, { clientId: "", scopes: ["x"] }, ["parameters.clientId"]],
    ] as const) {
      const issues = issuesOf(await api.post(apiPaths.secretRotations(t.type), body({ ...parameters }, { ...extra })));
      expect(issues.map((i) => i.path)).toEqual(paths);
      expect(issues.some((i) => i.code === "unrecognized_keys")).toBe(false);
    }
  });
});

describe("app connections", () => {
  const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

  // services/app-connection/vercel/vercel-connection-schemas.ts: the credentials are a plain
  // z.object({ apiToken }) inside a discriminatedUnion on `method`, `.and` the generic fields
  // (all plain z.objects): an unknown credential key is dropped before the service stores them.
  test("a credential with an unknown key: 200, the key is not stored", async () => {
    const res = await api.post(apiPaths.appConnections("vercel"), {
      name: uniq("conn"),
      method: "api-token",
      credentials: { apiToken: "vercel-token-1", teamSlug: "acme" },
      extra: true,
    });
    expect(res.status).toBe(200);
    const c = AppConnectionEnvelope.parse(res.body).appConnection;
    // a non-secret key would be returned if it were stored; the hash is of what is stored
    expect(c.credentials).toEqual({});
    expect(c.credentialsHash).toBe(sha256(JSON.stringify({ apiToken: "vercel-token-1" })));
    // PATCH (UpdateVercelConnectionSchema) drops it too
    const patched = await api.patch(`${apiPaths.appConnections("vercel")}/${c.id}`, {
      credentials: { apiToken: "vercel-token-2", teamSlug: "acme" },
    });
    expect(patched.status).toBe(200);
    expect(AppConnectionEnvelope.parse(patched.body).appConnection.credentialsHash).toBe(
      sha256(JSON.stringify({ apiToken: "vercel-token-2" })),
    );
  });

  test("a credential with an unknown key beside another error: only the real error is listed", async () => {
    const issues = issuesOf(
      await api.post(apiPaths.appConnections("vercel"), {
        name: uniq("conn"),
        method: "api-token",
        credentials: { apiToken: "", teamSlug: "acme" },
      }),
    );
    expect(issues.map((i) => i.path)).toEqual(["credentials.apiToken"]);
    expect(issues.some((i) => i.code === "unrecognized_keys")).toBe(false);
  });
});
