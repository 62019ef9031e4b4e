import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsApiError, SecretOpsClient, SecretOpsResponseError, SecretOpsValidationError } from "../../sdk";
import { Api, FX, expect422, expectError, fixtures, start, uniq } from "../emulator/helpers";
import { startStub, type StubServer } from "./helpers/stub-server";
import type { Fixtures, RunningEmulator } from "../../emulator";

/**
 * Where the service's own source says otherwise than our first reading of it: each rule below
 * is checked against the emulator over HTTP, through the SDK, or both. The service file each one
 * comes from is named in the schema or route that implements it.
 */

const VERCEL = FX.connection("vercel").id;
const POSTGRES = FX.connection("postgres").id;
const SECOND_PROJECT = fixtures.projects[1]!.id;

/** The default fixtures, with the identity also a member of the second project of the organization. */
function twoProjectFixtures(): Fixtures {
  const fx = structuredClone(fixtures);
  fx.identities[0]!.projectIds.push(SECOND_PROJECT);
  return fx as unknown as Fixtures;
}

const vercelSync = (name: string, over: Record<string, unknown> = {}) => ({
  name,
  projectId: FX.projectId,
  connectionId: VERCEL,
  environment: "dev",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" as const },
  destinationConfig: { app: `prj-${name}`, appName: name, env: "production", teamId: "team" },
  ...over,
});

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

let emu: RunningEmulator;
let api: Api;
let client: SecretOpsClient;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-compat-"));
  ({ emu, api } = await start({ fixtures: twoProjectFixtures() }));
  client = new SecretOpsClient({ baseUrl: emu.url, token: emu.token }, { rateLimit: false });
});
afterAll(async () => {
  await emu?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the service's own defaults work end to end", () => {
  test('keySchema "" means no schema: accepted by the SDK and the emulator, stored as sent', async () => {
    const s = await client.secretSyncs.create(
      "vercel",
      vercelSync(uniq("empty-key"), {
        syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "" },
      }),
    );
    expect(s.syncOptions.keySchema).toBe("");
    const raw = await api.post("/api/v1/secret-syncs/vercel", {
      ...vercelSync(uniq("empty-raw")),
      syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "" },
    });
    expect(raw.status).toBe(200);
    // Only a non-empty key schema must name {{secretKey}}.
    const err = await rejection(
      client.secretSyncs.create(
        "vercel",
        vercelSync(uniq("bad-key"), { syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "X_" } }),
      ),
    );
    expect(err).toBeInstanceOf(SecretOpsValidationError);
    expect((err as Error).message).toBe("syncOptions.keySchema: must contain the {{secretKey}} placeholder");
    expect422(
      await api.post("/api/v1/secret-syncs/vercel", {
        ...vercelSync(uniq("bad-raw")),
        syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "X_" },
      }),
      ["syncOptions", "keySchema"],
    );
  });

  test("a rotation without passwordRequirements is stored and returned without them", async () => {
    const r = await client.secretRotations.create("postgres-credentials", {
      name: uniq("no-reqs"),
      projectId: FX.projectId,
      connectionId: POSTGRES,
      environment: "dev",
      secretPath: "/app/db",
      rotationInterval: 30,
      parameters: { username1: "a", username2: "b" },
      secretsMapping: {
        username: uniq("U").toUpperCase().replace(/-/g, "_"),
        password: uniq("P").toUpperCase().replace(/-/g, "_"),
      },
    });
    expect(r.parameters).toEqual({ username1: "a", username2: "b" });
    expect((await client.secretRotations.get("postgres-credentials", r.id)).parameters).toEqual({
      username1: "a",
      username2: "b",
    });
    // The service's default still shapes the generated password (48 characters).
    const gc = await client.secretRotations.generatedCredentials("postgres-credentials", r.id);
    expect(gc.generatedCredentials[0]!.password).toHaveLength(48);
  });

  test("a certificate profile PATCH takes description null, an estConfig without passphrase, a scepConfig without password", async () => {
    // The stored passphrase (a hash) is read from the emulator's data file, written on stop.
    const file = path.join(dataDir, "profiles.json");
    const storedPassphrase = (id: string) => {
      const state = JSON.parse(fs.readFileSync(file, "utf8")) as {
        certificateProfiles: { id: string; configs: Record<string, { value: Record<string, unknown> }> }[];
      };
      return state.certificateProfiles.find((p) => p.id === id)!.configs.est!.value.passphrase;
    };
    const withOwnEmulator = async <T>(fn: (c: SecretOpsClient) => Promise<T>): Promise<T> => {
      const own = await start({ data: file });
      try {
        return await fn(new SecretOpsClient({ baseUrl: own.emu.url, token: own.emu.token }, { rateLimit: false }));
      } finally {
        await own.emu.stop();
      }
    };
    const est = await withOwnEmulator((c) =>
      c.certificateProfiles.create({
        projectId: FX.pkiProjectId,
        certificatePolicyId: FX.policyId,
        caId: FX.internalCaId,
        slug: uniq("est"),
        description: "to be cleared",
        enrollmentType: "est",
        estConfig: { passphrase: "est-passphrase-canary-1" },
      }),
    );
    const hashBefore = storedPassphrase(est.id);
    expect(typeof hashBefore).toBe("string");
    const [cleared, kept] = await withOwnEmulator(async (c) => [
      await c.certificateProfiles.update(est.id, { description: null }),
      await c.certificateProfiles.update(est.id, { estConfig: { disableBootstrapCaValidation: true } }),
    ]);
    expect(cleared!.description).toBeNull();
    // The PATCH answers with the profile's row; its read by id shows the config.
    expect(kept!.estConfigId).toBe(est.estConfigId);
    const keptConfig = (await withOwnEmulator((c) => c.certificateProfiles.get(est.id))).estConfig;
    expect(keptConfig).toMatchObject({ disableBootstrapCaValidation: true });
    expect(storedPassphrase(est.id)).toBe(hashBefore);

    const scep = await client.certificateProfiles.create({
      projectId: FX.pkiProjectId,
      certificatePolicyId: FX.policyId,
      caId: FX.internalCaId,
      slug: uniq("scep"),
      enrollmentType: "scep",
      scepConfig: { challengePassword: "scep-challenge-canary" },
    });
    await client.certificateProfiles.update(scep.id, { scepConfig: { allowCertBasedRenewal: false } });
    expect((await client.certificateProfiles.get(scep.id)).scepConfig).toMatchObject({ allowCertBasedRenewal: false });
    const short = await rejection(
      client.certificateProfiles.update(scep.id, { scepConfig: { challengePassword: "short" } }),
    );
    expect((short as Error).message).toBe(
      "scepConfig.challengePassword: a static challenge needs a challengePassword of at least 8 characters",
    );
    expect422(
      await api.patch(`/api/v1/cert-manager/certificate-profiles/${scep.id}`, {
        scepConfig: { challengePassword: "short" },
      }),
      ["scepConfig", "challengePassword"],
    );

    // Changing the enrollment type stores the new type.
    const api2 = await client.certificateProfiles.update(scep.id, {
      enrollmentType: "api",
      apiConfig: { autoRenew: true },
    });
    expect(api2.enrollmentType).toBe("api");
    expect((await client.certificateProfiles.get(scep.id)).enrollmentType).toBe("api");
  });
});

describe("syncOptions.recursive", () => {
  test("is sent, stored and returned; with an import behaviour the SDK and the emulator refuse it alike", async () => {
    const s = await client.secretSyncs.create(
      "vercel",
      vercelSync(uniq("recursive"), { syncOptions: { initialSyncBehavior: "overwrite-destination", recursive: true } }),
    );
    expect(s.syncOptions).toMatchObject({ recursive: true });
    const body = vercelSync(uniq("recursive-import"), {
      syncOptions: { initialSyncBehavior: "import-prioritize-source", recursive: true },
    });
    const err = (await rejection(client.secretSyncs.create("vercel", body))) as SecretOpsValidationError;
    expect(err.issues.map((i) => i.path)).toEqual(["syncOptions.recursive"]);
    expect422(
      await api.post("/api/v1/secret-syncs/vercel", body),
      ["syncOptions", "recursive"],
      err.issues[0]!.message,
    );
  });
});

describe("duplicate-destination check", () => {
  test("answers whether another sync of the organization already pushes to a destination", async () => {
    const name = uniq("dest-a");
    const a = await client.secretSyncs.create("vercel", vercelSync(name));
    const config = { app: `prj-${name}`, appName: "another label", env: "production", teamId: "team" };
    // appName is a label (the service skips it); the project differs: still a duplicate, naming a's project.
    expect(
      await client.secretSyncs.checkDestination("vercel", { destinationConfig: config, projectId: SECOND_PROJECT }),
    ).toEqual({
      hasDuplicate: true,
      duplicateProjectId: FX.projectId,
    });
    expect(
      await client.secretSyncs.checkDestination("vercel", {
        destinationConfig: config,
        projectId: FX.projectId,
        excludeSyncId: a.id,
      }),
    ).toEqual({ hasDuplicate: false });
    expect(
      await client.secretSyncs.checkDestination("vercel", {
        destinationConfig: { ...config, env: "preview" },
        projectId: FX.projectId,
      }),
    ).toEqual({ hasDuplicate: false });
    // Over HTTP: no resource key, 422 on a body that is not the route's.
    const raw = await api.post("/api/v1/secret-syncs/vercel/check-destination", {
      destinationConfig: config,
      projectId: FX.projectId,
    });
    expect(raw.status).toBe(200);
    expect(raw.body).toEqual({ hasDuplicate: true, duplicateProjectId: FX.projectId });
    expect422(
      await api.post("/api/v1/secret-syncs/vercel/check-destination", { destinationConfig: config, projectId: "p" }),
      ["projectId"],
    );
  });

  test("uses the read rate-limit bucket", async () => {
    const limited = await start({ rateLimits: { read: 2, write: 100 } });
    try {
      const body = { destinationConfig: { vaultBaseUrl: "https://v.example" }, projectId: FX.projectId };
      const first = await limited.api.post("/api/v1/secret-syncs/azure-key-vault/check-destination", body);
      expect(first.headers.get("x-ratelimit-limit")).toBe("2");
      await limited.api.get(`/api/v1/secret-syncs/azure-key-vault?projectId=${FX.projectId}`);
      expectError(
        await limited.api.post("/api/v1/secret-syncs/azure-key-vault/check-destination", body),
        429,
        "RateLimitExceeded",
      );
    } finally {
      await limited.emu.stop();
    }
  });
});

describe("error bodies carry the error's name, not its class name", () => {
  test("BadRequest, NotFound, UnauthorizedError, ForbiddenError, a project's refusal, ValidationFailure", async () => {
    const missing = "0f0f0f0f-0000-4000-8000-00000000dead";
    expectError(await api.get(`/api/v1/secret-syncs/vercel/${missing}`), 404, "NotFound");
    expectError(
      await api.post("/api/v1/secret-syncs/vercel", vercelSync(uniq("nofolder"), { secretPath: "/nowhere" })),
      400,
      "BadRequest",
    );
    expectError(await api.get(`/api/v1/secret-syncs/vercel/${missing}`, { token: null }), 401, "UnauthorizedError");
    const slug = uniq("dup-slug");
    const profile = {
      projectId: FX.pkiProjectId,
      certificatePolicyId: FX.policyId,
      caId: FX.internalCaId,
      slug,
      enrollmentType: "api",
      apiConfig: { autoRenew: false },
    };
    expect((await api.post("/api/v1/cert-manager/certificate-profiles", profile)).status).toBe(200);
    expectError(await api.post("/api/v1/cert-manager/certificate-profiles", profile), 403, "ForbiddenError");
    // Another organization's project: a `ForbiddenRequestError` named by its words (§20).
    expectError(
      await api.get(`/api/v1/secret-syncs/vercel?projectId=${fixtures.projects[2]!.id}`),
      403,
      "This project does not belong to your selected organization.",
    );
    expect422(await api.post("/api/v1/secret-syncs/vercel", { name: "x" }), ["projectId"]);
  });

  test("RateLimitExceeded on 429", async () => {
    const limited = await start({ rateLimits: { read: 1, write: 100 } });
    try {
      await limited.api.get(`/api/v1/secret-syncs/vercel?projectId=${FX.projectId}`);
      expectError(
        await limited.api.get(`/api/v1/secret-syncs/vercel?projectId=${FX.projectId}`),
        429,
        "RateLimitExceeded",
      );
    } finally {
      await limited.emu.stop();
    }
  });
});

describe("rotation read by name", () => {
  test("in a folder that does not exist is the service's 400, not a 404", async () => {
    const err = (await rejection(
      client.secretRotations.getByName("postgres-credentials", "anything", {
        projectId: FX.projectId,
        environment: "dev",
        secretPath: "/no/such/folder",
      }),
    )) as SecretOpsApiError;
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err.status).toBe(400);
    expect(err.error).toBe("BadRequest");
    expect(err.message).toBe(
      `Could not find folder with path "/no/such/folder" in environment "dev" for project with ID "${FX.projectId}"`,
    );
    // In a folder that exists, an unknown name is a 404.
    const nf = (await rejection(
      client.secretRotations.getByName("postgres-credentials", "anything", {
        projectId: FX.projectId,
        environment: "dev",
        secretPath: "/app",
      }),
    )) as SecretOpsApiError;
    expect(nf.status).toBe(404);
  });

  test("its query takes any trimmed non-empty environment, as the service does", async () => {
    // Not a slug: the SDK passes it on and the service (here the emulator) answers for the folder.
    const err = (await rejection(
      client.secretRotations.getByName("postgres-credentials", "anything", {
        projectId: FX.projectId,
        environment: "Not_A_Slug",
        secretPath: "/app",
      }),
    )) as SecretOpsApiError;
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err.status).toBe(400);
  });
});

describe("audit-log dates", () => {
  test("either date alone is never range-checked; offsets are sent as UTC; the server judges event types", async () => {
    await expect(client.auditLogs.list({ startDate: "2020-01-01T00:00:00Z" })).resolves.toBeInstanceOf(Array);
    await expect(client.auditLogs.list({ endDate: "2035-01-01T00:00:00Z" })).resolves.toBeInstanceOf(Array);
    const stub = await startStub();
    try {
      const viaStub = new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit: false });
      stub.fallback({ status: 200, body: { auditLogs: [] } });
      await viaStub.auditLogs.list({
        startDate: "2025-03-01T10:00:00+02:00",
        endDate: new Date("2025-03-02T00:00:00Z"),
        eventType: ["create-secret-sync", "some-event-of-a-newer-server"],
      });
      const q = new URL(stub.requests[0]!.url, stub.url).searchParams;
      expect(q.get("startDate")).toBe("2025-03-01T08:00:00.000Z");
      expect(q.get("endDate")).toBe("2025-03-02T00:00:00.000Z");
      expect(q.get("eventType")).toBe("create-secret-sync,some-event-of-a-newer-server");
    } finally {
      await stub.close();
    }
    // The service takes UTC with Z only, and checks event types against its list.
    expect422(await api.get("/api/v1/organization/audit-logs", { query: { startDate: "2025-03-01T10:00:00+02:00" } }), [
      "startDate",
    ]);
    expectError(
      await api.get("/api/v1/organization/audit-logs", { query: { eventType: "some-event-of-a-newer-server" } }),
      422,
      "ValidationFailure",
    );
  });

  test("iterate pins the end of its walk only where the service takes the range", async () => {
    const stub = await startStub();
    try {
      const viaStub = new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit: false });
      const entry = (id: string) => ({
        id,
        createdAt: new Date().toISOString(),
        event: { type: "get-secrets", metadata: {} },
        actor: { type: "identity", metadata: {} },
        orgId: "o",
      });
      const walk = async (startDate: string) => {
        stub.requests.length = 0;
        stub.queue({ status: 200, body: { auditLogs: [entry("a"), entry("b")] } });
        stub.queue({ status: 200, body: { auditLogs: [entry("c")] } });
        const ids: string[] = [];
        for await (const e of viaStub.auditLogs.iterate({ startDate, limit: 2 })) ids.push(e.id);
        expect(ids).toEqual(["a", "b", "c"]);
        return new URL(stub.requests[1]!.url, stub.url).searchParams.get("endDate");
      };
      // A recent start: the second page is pinned to the first page's newest entry.
      expect(await walk(new Date(Date.now() - 86_400_000).toISOString())).not.toBeNull();
      // A start more than 3 months back: a pinned end would break the range rule, so none.
      expect(await walk("2020-01-01T00:00:00Z")).toBeNull();
    } finally {
      await stub.close();
    }
  });

  test("the range rule is 3 calendar months", async () => {
    await expect(
      client.auditLogs.list({ startDate: "2025-01-31T00:00:00Z", endDate: "2025-04-30T00:00:00Z" }),
    ).resolves.toBeInstanceOf(Array);
    const err = await rejection(
      client.auditLogs.list({ startDate: "2025-01-01T00:00:00Z", endDate: "2025-04-02T00:00:00Z" }),
    );
    expect((err as Error).message).toBe("endDate: Dates must be within 3 months");
  });
});

describe("connection listing scope", () => {
  test("without projectId: every connection the caller may read, project-scoped ones included; with it: that project's", async () => {
    const scoped = await client.appConnections.create("vercel", {
      name: uniq("scoped"),
      projectId: FX.projectId,
      method: "api-token",
      credentials: { apiToken: "vercel-token-canary" },
    });
    const all = await client.appConnections.list("vercel");
    expect(all.map((c) => c.id)).toEqual(expect.arrayContaining([VERCEL, scoped.id]));
    const inProject = await client.appConnections.list("vercel", { projectId: FX.projectId });
    expect(inProject.map((c) => c.id)).toEqual([scoped.id]);
  });

  test("using a connection of another project is the service's 400", async () => {
    const other = await client.appConnections.create("vercel", {
      name: uniq("other-project"),
      projectId: SECOND_PROJECT,
      method: "api-token",
      credentials: { apiToken: "vercel-token-canary" },
    });
    const err = (await rejection(
      client.secretSyncs.create("vercel", vercelSync(uniq("cross"), { connectionId: other.id })),
    )) as SecretOpsApiError;
    expect(err.status).toBe(400);
    expect(err.error).toBe("BadRequest");
    expect(err.message).toBe(
      `You cannot connect project App Connection with ID "${other.id}" from project with ID "${SECOND_PROJECT}" to project with ID "${FX.projectId}"`,
    );
  });
});

describe("no stricter than the service", () => {
  test("SQL port, configurationUrl, LDAP url, rotateAtUtc, password requirements and Vercel env take what the service takes", async () => {
    const sql = await client.appConnections.create("postgres", {
      name: uniq("port"),
      method: "username-and-password",
      credentials: {
        host: "db",
        port: "70000",
        database: "d",
        username: "u",
        password: "postgres-password-canary",
        sslEnabled: false,
        sslRejectUnauthorized: false,
      },
    });
    expect(sql.credentials.port).toBe(70000);
    const ldap = await client.appConnections.create("ldap", {
      name: uniq("ldap"),
      method: "simple-bind",
      credentials: {
        provider: "active-directory",
        url: "ldaps://dc1.corp.example:636/ou=ignored",
        dn: "admin@corp.example",
        password: "ldap-password-canary",
      },
    });
    expect(ldap.credentials.url).toBe("ldaps://dc1.corp.example:636/ou=ignored");
    await expect(
      client.secretSyncs.create("azure-app-configuration", {
        ...vercelSync(uniq("appconfig")),
        connectionId: FX.connection("azure-app-configuration").id,
        destinationConfig: { configurationUrl: "my-config-store" },
      }),
    ).resolves.toMatchObject({ destinationConfig: { configurationUrl: "my-config-store" } });
    await expect(
      client.secretSyncs.create(
        "vercel",
        vercelSync(uniq("custom-env"), { destinationConfig: { app: uniq("a"), appName: "n", env: "", teamId: "" } }),
      ),
    ).resolves.toBeDefined();
    const r = await client.secretRotations.create("redis-credentials", {
      name: uniq("half-hour"),
      projectId: FX.projectId,
      connectionId: FX.connection("redis").id,
      environment: "dev",
      secretPath: "/infra",
      rotationInterval: 1.5,
      rotateAtUtc: { hours: 2.5, minutes: 0 },
      parameters: {
        permissionScope: "~* +@all",
        passwordRequirements: { length: 20.5, required: { digits: 1, lowercase: 1, uppercase: 0, symbols: 0 } },
      },
      secretsMapping: {
        username: uniq("RU").toUpperCase().replace(/-/g, "_"),
        password: uniq("RP").toUpperCase().replace(/-/g, "_"),
      },
    });
    expect(r.rotateAtUtc).toEqual({ hours: 2.5, minutes: 0 });
  });

  test("still refuses what the service refuses, naming the field", async () => {
    const err = (await rejection(
      client.appConnections.create("ldap", {
        name: uniq("ldap-bad"),
        method: "simple-bind",
        credentials: { provider: "active-directory", url: "http://dc1", dn: "not a dn", password: "p" },
      }),
    )) as SecretOpsValidationError;
    expect(err.issues).toEqual([
      { path: "credentials.url", message: "must be an LDAP URL (ldap:// or ldaps://)" },
      {
        path: "credentials.dn",
        message: "must be a distinguished name (cn=...,dc=...) or a user principal name (user@domain.tld)",
      },
    ]);
  });
});

describe("responses are read leniently", () => {
  let stub: StubServer;
  let viaStub: SecretOpsClient;
  beforeAll(async () => {
    stub = await startStub();
    viaStub = new SecretOpsClient({ baseUrl: stub.url, token: "t" }, { rateLimit: false, retry: false });
  });
  afterAll(() => stub.close());

  const id = "0e0e0e0e-0000-4000-8000-000000000001";
  const at = "2025-05-01T00:00:00.000Z";

  test("extra fields, missing optional fields and unknown enum values: every read succeeds", async () => {
    // A newer server's sync: a status this package does not know, fields it has never seen.
    stub.queue({
      status: 200,
      body: {
        secretSync: {
          id,
          name: "web",
          description: null,
          destination: "vercel",
          isAutoSyncEnabled: true,
          destinationConfig: { app: "a", appName: "A", env: "production", teamId: "t", newDestinationField: 1 },
          syncOptions: { initialSyncBehavior: "overwrite-destination", recursive: true },
          projectId: "p",
          connectionId: id,
          createdAt: at,
          updatedAt: at,
          syncStatus: "queued-for-retry",
          lastSyncJobId: null,
          lastSyncMessage: null,
          lastSyncedAt: null,
          // an old server: the remove job spelled `erase*`, no version, no joined objects
          eraseStatus: null,
          someNewField: { nested: true },
        },
      },
    });
    const sync = await viaStub.secretSyncs.get("vercel", id);
    expect(sync.syncStatus).toBe("queued-for-retry");
    expect(sync.syncOptions).toMatchObject({ recursive: true });
    expect(sync).not.toHaveProperty("someNewField");

    // An older server's connection: no isAutoRotationEnabled, credentialsHash or project.
    stub.queue({
      status: 200,
      body: {
        appConnection: {
          id,
          name: "pg",
          orgId: "o",
          createdAt: at,
          updatedAt: at,
          app: "postgres",
          method: "username-and-password",
          credentials: { host: "db" },
          description: null,
          version: 1,
          isPlatformManagedCredentials: false,
          gatewayId: null,
          projectId: null,
          gatewayPoolId: null,
        },
      },
    });
    const conn = await viaStub.appConnections.get("postgres", id);
    expect(conn.credentialsHash).toBeUndefined();
    expect(conn.isAutoRotationEnabled).toBeUndefined();

    // An older server's profile: no scepConfigId, defaults or config ids; a newer enrollment type.
    stub.queue({
      status: 200,
      body: {
        certificateProfile: {
          id,
          projectId: "p",
          certificateTemplateId: id,
          slug: "web",
          enrollmentType: "cmpv2",
          issuerType: "ca",
          createdAt: at,
          updatedAt: at,
          caId: id,
          description: null,
        },
      },
    });
    expect((await viaStub.certificateProfiles.get(id)).enrollmentType).toBe("cmpv2");

    // A rotation with a status of a newer server and without the newer bookkeeping fields.
    stub.queue({
      status: 200,
      body: {
        secretRotation: {
          id,
          name: "pg",
          description: null,
          type: "postgres-credentials",
          projectId: "p",
          folderId: id,
          connectionId: id,
          createdAt: at,
          updatedAt: at,
          rotationInterval: 30,
          rotateAtUtc: { hours: 0, minutes: 0 },
          isAutoRotationEnabled: true,
          parameters: { username1: "a", username2: "b" },
          secretsMapping: { username: "U", password: "P" },
          activeIndex: 0,
          rotationStatus: "partially-rotated",
          environment: { slug: "dev", name: "Development", id },
          folder: { id, path: "/" },
          connection: { app: "postgres", name: "pg", id },
        },
      },
    });
    expect((await viaStub.secretRotations.get("postgres-credentials", id)).rotationStatus).toBe("partially-rotated");

    stub.queue({
      status: 200,
      body: {
        auditLogs: [
          {
            id: "a1",
            createdAt: at,
            event: { type: "some-event-of-a-newer-server", metadata: { k: "v" } },
            actor: { type: "newActorKind" },
            orgId: "o",
            newColumn: 1,
          },
        ],
      },
    });
    const [entry] = await viaStub.auditLogs.list();
    expect(entry!.event.type).toBe("some-event-of-a-newer-server");
    expect(entry!.actor.metadata).toEqual({});
  });

  test("a response without what the operation needs (an id) is still an error naming the field", async () => {
    stub.queue({ status: 200, body: { secretSync: { name: "web", destination: "vercel" } } });
    const err = (await rejection(viaStub.secretSyncs.get("vercel", id))) as SecretOpsResponseError;
    expect(err).toBeInstanceOf(SecretOpsResponseError);
    expect(err.issues.map((i) => i.path)).toContain("secretSync.id");
  });
});
