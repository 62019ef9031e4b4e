import { SecretOpsApiError, SecretOpsClient, SecretOpsResponseError } from "../../sdk";
import { appConnection, auditEntry, certificateProfile, ids, secretRotation, secretSync } from "./helpers/fixtures";
import { type Recorded, type StubServer, errorBody, startStub } from "./helpers/stub-server";

/**
 * What each method puts on the wire (method, route, query, body after the schema's
 * normalisation), and how responses are read: envelope unwrapped, extra fields tolerated, a
 * mismatch reported by path, error bodies mapped.
 */

let stub: StubServer;
let client: SecretOpsClient;
beforeEach(async () => {
  stub = await startStub();
  client = new SecretOpsClient(
    { baseUrl: stub.url, token: "t" },
    { rateLimit: false, retry: { baseDelayMs: 1, maxDelayMs: 2 } },
  );
});
afterEach(() => stub.close());

const last = (): Recorded => stub.requests[stub.requests.length - 1]!;
const sent = () => ({
  method: last().method,
  url: last().url,
  body: last().body ? JSON.parse(last().body) : undefined,
});

describe("app connections", () => {
  test("list / get / getByName / create / update / delete", async () => {
    stub.queue({ status: 200, body: { appConnections: [appConnection()] } });
    expect(await client.appConnections.list("postgres", { projectId: ids.project })).toHaveLength(1);
    expect(sent()).toEqual({
      method: "GET",
      url: `/api/v1/app-connections/postgres?projectId=${ids.project}`,
      body: undefined,
    });

    stub.queue({ status: 200, body: { appConnections: [] } });
    await client.appConnections.list("ldap");
    expect(sent().url).toBe("/api/v1/app-connections/ldap");

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    await client.appConnections.get("postgres", ids.connection);
    expect(sent().url).toBe(`/api/v1/app-connections/postgres/${ids.connection}`);

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    await client.appConnections.getByName("postgres", "my db/x", { projectId: ids.project });
    expect(sent().url).toBe(`/api/v1/app-connections/postgres/connection-name/my%20db%2Fx?projectId=${ids.project}`);

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    await client.appConnections.create("postgres", {
      name: "db",
      method: "username-and-password",
      credentials: {
        host: " db ",
        port: 5432,
        database: "app",
        username: "u",
        password: "p",
        sslEnabled: false,
        sslRejectUnauthorized: true,
        sslCertificate: "",
      },
    });
    // The schema's output is what is sent: trimmed, "" certificate dropped, defaults filled in.
    expect(sent()).toEqual({
      method: "POST",
      url: "/api/v1/app-connections/postgres",
      body: {
        name: "db",
        method: "username-and-password",
        isPlatformManagedCredentials: false,
        credentials: {
          host: "db",
          port: 5432,
          database: "app",
          username: "u",
          password: "p",
          sslEnabled: false,
          sslRejectUnauthorized: true,
        },
      },
    });
    expect(last().headers["content-type"]).toMatch(/^application\/json/);

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    await client.appConnections.update("postgres", ids.connection, { description: null, gatewayId: null });
    expect(sent()).toEqual({
      method: "PATCH",
      url: `/api/v1/app-connections/postgres/${ids.connection}`,
      body: { description: null, gatewayId: null },
    });

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    await client.appConnections.update("azure-client-secrets", ids.connection, {
      isAutoRotationEnabled: true,
      rotation: { rotationInterval: 30 },
    });
    expect(sent().body).toEqual({ isAutoRotationEnabled: true, rotation: { rotationInterval: 30 } });

    stub.queue({ status: 200, body: { appConnection: appConnection() } });
    const deleted = await client.appConnections.delete("postgres", ids.connection);
    expect(deleted.id).toBe(ids.connection);
    expect(sent()).toMatchObject({ method: "DELETE", url: `/api/v1/app-connections/postgres/${ids.connection}` });
  });
});

describe("secret syncs", () => {
  const ok = () => ({ status: 200, body: { secretSync: secretSync() } });

  test("reads, writes, delete flag and the three triggers", async () => {
    stub.queue({ status: 200, body: { secretSyncs: [secretSync()] } });
    await client.secretSyncs.list("vercel", ids.project);
    expect(sent().url).toBe(`/api/v1/secret-syncs/vercel?projectId=${ids.project}`);

    stub.queue(ok());
    await client.secretSyncs.get("azure-key-vault", ids.sync);
    expect(sent().url).toBe(`/api/v1/secret-syncs/azure-key-vault/${ids.sync}`);

    stub.queue(ok());
    await client.secretSyncs.getByName("vercel", "web", ids.project);
    expect(sent().url).toBe(`/api/v1/secret-syncs/vercel/sync-name/web?projectId=${ids.project}`);

    stub.queue(ok());
    await client.secretSyncs.create("azure-key-vault", {
      name: "kv",
      projectId: ids.project,
      connectionId: ids.connection,
      environment: "prod",
      secretPath: "/app/",
      syncOptions: { initialSyncBehavior: "import-prioritize-source", disableCertificateImport: true },
      destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
    });
    expect(sent().body).toEqual({
      name: "kv",
      projectId: ids.project,
      connectionId: ids.connection,
      environment: "prod",
      secretPath: "/app",
      isAutoSyncEnabled: true,
      syncOptions: { initialSyncBehavior: "import-prioritize-source", disableCertificateImport: true },
      destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
    });

    stub.queue(ok());
    await client.secretSyncs.update("azure-app-configuration", ids.sync, {
      destinationConfig: { configurationUrl: "https://c.azconfig.io", label: "l" },
    });
    expect(sent()).toMatchObject({ method: "PATCH", url: `/api/v1/secret-syncs/azure-app-configuration/${ids.sync}` });

    stub.queue(ok(), ok());
    await client.secretSyncs.delete("vercel", ids.sync, { removeSecrets: true });
    expect(sent().url).toBe(`/api/v1/secret-syncs/vercel/${ids.sync}?removeSecrets=true`);
    await client.secretSyncs.delete("vercel", ids.sync);
    expect(sent().url).toBe(`/api/v1/secret-syncs/vercel/${ids.sync}?removeSecrets=false`);

    stub.queue(ok(), ok(), ok());
    await client.secretSyncs.syncSecrets("vercel", ids.sync);
    expect(sent()).toEqual({
      method: "POST",
      url: `/api/v1/secret-syncs/vercel/${ids.sync}/sync-secrets`,
      body: undefined,
    });
    // A trigger has no body, so it must not claim a JSON one (Fastify rejects an empty JSON body).
    expect(last().headers["content-type"]).toBeUndefined();
    await client.secretSyncs.importSecrets("vercel", ids.sync, "prioritize-destination");
    expect(sent().url).toBe(
      `/api/v1/secret-syncs/vercel/${ids.sync}/import-secrets?importBehavior=prioritize-destination`,
    );
    await client.secretSyncs.removeSecrets("vercel", ids.sync);
    expect(sent().url).toBe(`/api/v1/secret-syncs/vercel/${ids.sync}/remove-secrets`);
  });
});

describe("secret rotations", () => {
  const ok = () => ({ status: 200, body: { secretRotation: secretRotation() } });

  test("reads, writes, delete flags, rotate and generated credentials", async () => {
    stub.queue({ status: 200, body: { secretRotations: [] } });
    await client.secretRotations.list("mysql-credentials", ids.project);
    expect(sent().url).toBe(`/api/v2/secret-rotations/mysql-credentials?projectId=${ids.project}`);

    stub.queue(ok());
    await client.secretRotations.getByName("postgres-credentials", "pg", {
      projectId: ids.project,
      environment: "dev",
      secretPath: "/db/",
    });
    expect(sent().url).toBe(
      `/api/v2/secret-rotations/postgres-credentials/rotation-name/pg?projectId=${ids.project}&secretPath=%2Fdb&environment=dev`,
    );

    stub.queue(ok());
    await client.secretRotations.create("postgres-credentials", {
      name: "pg",
      projectId: ids.project,
      connectionId: ids.connection,
      environment: "dev",
      secretPath: "/",
      rotationInterval: 30,
      parameters: { username1: "a", username2: "b" },
      secretsMapping: { username: "DB_USER", password: "DB_PASS" },
    });
    expect(sent().body).toMatchObject({
      isAutoRotationEnabled: true,
      rotateAtUtc: { hours: 0, minutes: 0 },
    });
    // passwordRequirements is not invented: the service defaults it only when generating a password.
    expect((sent().body as { parameters: unknown }).parameters).toEqual({ username1: "a", username2: "b" });

    stub.queue(ok());
    await client.secretRotations.update("azure-client-secret", ids.rotation, {
      parameters: { objectId: "o", clientId: "c" },
    });
    expect(sent()).toMatchObject({ method: "PATCH", body: { parameters: { objectId: "o", clientId: "c" } } });

    stub.queue(ok(), ok());
    await client.secretRotations.delete("redis-credentials", ids.rotation, { deleteSecrets: true });
    expect(sent().url).toBe(
      `/api/v2/secret-rotations/redis-credentials/${ids.rotation}?deleteSecrets=true&revokeGeneratedCredentials=false`,
    );
    await client.secretRotations.delete("redis-credentials", ids.rotation, { revokeGeneratedCredentials: true });
    expect(sent().url).toBe(
      `/api/v2/secret-rotations/redis-credentials/${ids.rotation}?deleteSecrets=false&revokeGeneratedCredentials=true`,
    );

    stub.queue(ok());
    await client.secretRotations.rotate("mssql-credentials", ids.rotation);
    expect(sent()).toMatchObject({
      method: "POST",
      url: `/api/v2/secret-rotations/mssql-credentials/${ids.rotation}/rotate-secrets`,
    });

    stub.queue({
      status: 200,
      body: {
        generatedCredentials: [{ clientId: "c", clientSecret: "s", keyId: "k" }],
        activeIndex: 0,
        rotationId: ids.rotation,
        type: "azure-client-secret",
      },
    });
    const creds = await client.secretRotations.generatedCredentials("azure-client-secret", ids.rotation);
    expect(creds.generatedCredentials[0]!.keyId).toBe("k");
    expect(sent().url).toBe(`/api/v2/secret-rotations/azure-client-secret/${ids.rotation}/generated-credentials`);
  });
});

describe("certificate profiles", () => {
  const ok = () => ({ status: 200, body: { certificateProfile: certificateProfile() } });

  test("list / get / getBySlug / create / update / delete", async () => {
    stub.queue({ status: 200, body: { certificateProfiles: [certificateProfile()], totalCount: 1 } });
    const page = await client.certificateProfiles.list({ projectId: ids.project, enrollmentType: "api" });
    expect(page.totalCount).toBe(1);
    expect(sent().url).toBe(
      `/api/v1/cert-manager/certificate-profiles?projectId=${ids.project}&offset=0&limit=20&enrollmentType=api`,
    );

    stub.queue(ok(), ok());
    await client.certificateProfiles.get(ids.profile);
    expect(sent().url).toBe(`/api/v1/cert-manager/certificate-profiles/${ids.profile}`);
    await client.certificateProfiles.getBySlug("web", ids.project);
    expect(sent().url).toBe(`/api/v1/cert-manager/certificate-profiles/slug/web?projectId=${ids.project}`);

    stub.queue(ok(), ok(), ok());
    await client.certificateProfiles.create({
      projectId: ids.project,
      certificatePolicyId: ids.policy,
      caId: ids.ca,
      slug: "web",
      enrollmentType: "api",
      apiConfig: { renewBeforeDays: 7 },
    });
    expect(sent().body).toEqual({
      projectId: ids.project,
      certificatePolicyId: ids.policy,
      caId: ids.ca,
      slug: "web",
      enrollmentType: "api",
      issuerType: "ca",
      apiConfig: { autoRenew: false, renewBeforeDays: 7 },
    });
    await client.certificateProfiles.update(ids.profile, { description: "d" });
    expect(sent()).toEqual({
      method: "PATCH",
      url: `/api/v1/cert-manager/certificate-profiles/${ids.profile}`,
      body: { description: "d" },
    });
    await client.certificateProfiles.delete(ids.profile);
    expect(sent()).toMatchObject({ method: "DELETE", url: `/api/v1/cert-manager/certificate-profiles/${ids.profile}` });
  });
});

describe("audit logs", () => {
  test("list sends the filters as the service reads them", async () => {
    stub.queue({ status: 200, body: { auditLogs: [auditEntry(1)] } });
    const entries = await client.auditLogs.list({
      projectId: ids.project,
      environment: "prod",
      eventType: ["create-secret-sync", "update-secret-sync"],
      eventMetadata: "syncId=1,k=v",
      limit: 50,
    });
    expect(entries).toHaveLength(1);
    const q = new URL(last().url, "http://x").searchParams;
    expect(Object.fromEntries(q)).toEqual({
      projectId: ids.project,
      environment: "prod",
      eventType: "create-secret-sync,update-secret-sync",
      eventMetadata: "syncId=1,k=v",
      offset: "0",
      limit: "50",
    });
  });

  /** A fake audit log of `total` entries that serves offset/limit pages and records each query. */
  function serve(total: number) {
    const queries: URLSearchParams[] = [];
    stub.fallback((r) => {
      const q = new URL(r.url, "http://x").searchParams;
      queries.push(q);
      const offset = Number(q.get("offset"));
      const limit = Number(q.get("limit"));
      const page = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
        auditEntry(offset + i),
      );
      return { status: 200, body: { auditLogs: page } };
    });
    return queries;
  }

  test("iterate walks every entry once, in pages of 1000, and stops at a short page", async () => {
    const queries = serve(2345);
    const seen = new Set<string>();
    let n = 0;
    for await (const e of client.auditLogs.iterate({ startDate: "2024-12-01T00:00:00Z" })) {
      seen.add(e.id);
      n++;
    }
    expect(n).toBe(2345);
    expect(seen.size).toBe(2345);
    expect(queries.map((q) => [q.get("offset"), q.get("limit")])).toEqual([
      ["0", "1000"],
      ["1000", "1000"],
      ["2000", "1000"],
    ]);
    // After the first page the window is pinned just after its newest entry.
    expect(queries[0]!.get("endDate")).toBeNull();
    expect(queries[1]!.get("endDate")).toBe(new Date(Date.parse(auditEntry(0).createdAt) + 1).toISOString());
    expect(queries[2]!.get("endDate")).toBe(queries[1]!.get("endDate"));
  });

  test("an exact multiple of the page size costs one empty request; an empty log one request", async () => {
    const queries = serve(4);
    const all: string[] = [];
    for await (const e of client.auditLogs.iterate({ limit: 2 })) all.push(e.id);
    expect(all).toHaveLength(4);
    expect(queries.map((q) => q.get("offset"))).toEqual(["0", "2", "4"]);

    stub.requests.length = 0;
    serve(0);
    for await (const _ of client.auditLogs.iterate()) throw new Error("no entries expected");
    expect(stub.requests).toHaveLength(1);
  });

  test("limit 0 is sent as the service takes it (an empty page), and a walk with it ends", async () => {
    const queries = serve(5);
    expect(await client.auditLogs.list({ limit: 0 })).toEqual([]);
    for await (const _ of client.auditLogs.iterate({ limit: 0 })) throw new Error("no entries expected");
    expect(queries.map((q) => q.get("limit"))).toEqual(["0", "0"]);
  });

  test("pages are fetched lazily, one at a time; a caller-fixed endDate is kept", async () => {
    const queries = serve(25);
    const it = client.auditLogs.iterate({ limit: 10, offset: 5, endDate: "2025-01-02T00:00:00Z" });
    for (let i = 0; i < 10; i++) await it.next();
    expect(queries).toHaveLength(1);
    await it.next();
    expect(queries).toHaveLength(2);
    await it.return(undefined);
    expect(queries.map((q) => [q.get("offset"), q.get("endDate")])).toEqual([
      ["5", "2025-01-02T00:00:00Z"],
      ["15", "2025-01-02T00:00:00Z"],
    ]);
  });
});

describe("responses", () => {
  test("unknown extra fields are tolerated (and dropped)", async () => {
    stub.queue({ status: 200, body: { secretSync: { ...secretSync(), somethingNew: 1 }, meta: {} } });
    const s = await client.secretSyncs.get("vercel", ids.sync);
    expect(s).not.toHaveProperty("somethingNew");
  });

  test("a mismatch names the path", async () => {
    stub.queue({ status: 200, body: { secretSync: { ...secretSync(), version: "2" } } });
    const err = await client.secretSyncs.get("vercel", ids.sync).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsResponseError);
    expect((err as SecretOpsResponseError).issues).toEqual([
      { path: "secretSync.version", message: "expected number" },
    ]);
    expect((err as Error).message).toContain("secretSync.version: expected number");
  });

  test("a missing envelope key", async () => {
    stub.queue({ status: 200, body: { appConnections: [] } });
    await expect(client.appConnections.get("postgres", ids.connection)).rejects.toThrow("appConnection: is required");
  });

  test("an error body becomes SecretOpsApiError with the service's fields", async () => {
    stub.queue({
      status: 400,
      body: errorBody(400, "BadRequest", 'A Secret Sync with the name "web" already exists'),
    });
    const err = (await client.secretSyncs
      .create("vercel", {
        name: "web",
        projectId: ids.project,
        connectionId: ids.connection,
        environment: "dev",
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app: "a", appName: "A", env: "development", teamId: "t" },
      })
      .catch((e: unknown) => e)) as SecretOpsApiError;
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err).toMatchObject({
      status: 400,
      error: "BadRequest",
      message: 'A Secret Sync with the name "web" already exists',
      reqId: "req-400",
      method: "POST",
      path: "/api/v1/secret-syncs/vercel",
      ambiguous: false,
    });
    expect(String(err)).toBe(
      'SecretOpsApiError: POST /api/v1/secret-syncs/vercel failed with 400 BadRequest: A Secret Sync with the name "web" already exists',
    );
  });

  test("the error path leaves out the query string", async () => {
    stub.queue({ status: 404, body: errorBody(404, "NotFound", "nope") });
    await expect(client.secretSyncs.getByName("vercel", "web", "secret-project")).rejects.toMatchObject({
      path: "/api/v1/secret-syncs/vercel/sync-name/web",
    });
  });
});
