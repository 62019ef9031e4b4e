import util from "node:util";
import { SecretOpsClient, SecretOpsError, SecretOpsValidationError, type RequestInfo } from "../../sdk";
import { ids } from "./helpers/fixtures";
import { type StubServer, startStub } from "./helpers/stub-server";

/** Validation before sending: schema rules, client-side rules, unknown slugs — and nothing sent. */

const CANARY = "canary-VALIDATION-7c1f";

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
  // The point of every test here: the request never left the process.
  expect(stub.requests).toHaveLength(0);
  expect(log).toHaveLength(0);
});

async function rejection(p: Promise<unknown>): Promise<SecretOpsValidationError> {
  const err = await p.then(
    () => {
      throw new Error("expected a validation error");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SecretOpsValidationError);
  expect(err).toBeInstanceOf(SecretOpsError);
  return err as SecretOpsValidationError;
}

const syncBody = {
  name: "web-prod",
  projectId: ids.project,
  connectionId: ids.connection,
  environment: "prod",
  secretPath: "/",
  syncOptions: { initialSyncBehavior: "overwrite-destination" as const },
  destinationConfig: { app: "prj_1", appName: "web", env: "production", teamId: "team_1" },
};

describe("schema rules name the field and the rule", () => {
  test("name too long", async () => {
    const err = await rejection(
      client.secretRotations.update("postgres-credentials", ids.rotation, { name: "a".repeat(65) }),
    );
    expect(err.message).toBe("name: must be at most 64 characters");
    expect(err.issues).toEqual([{ path: "name", message: "must be at most 64 characters" }]);
  });

  test("several issues, nested paths, required fields", async () => {
    const err = await rejection(
      client.secretSyncs.create("vercel", {
        ...syncBody,
        name: "Not A Slug",
        connectionId: "nope",
        destinationConfig: { app: "", appName: "web", env: "production" } as never,
      }),
    );
    expect(err.issues).toEqual(
      expect.arrayContaining([
        {
          path: "name",
          message:
            'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
        },
        { path: "connectionId", message: "must be a UUID" },
        { path: "destinationConfig.app", message: "must not be empty" },
        { path: "destinationConfig.teamId", message: "is required" },
      ]),
    );
    expect(err.message).toContain("connectionId: must be a UUID");
    expect(err.message).toContain("destinationConfig.teamId: is required");
  });

  test("a path parameter is checked too", async () => {
    const err = await rejection(client.appConnections.get("postgres", "../../admin"));
    expect(err.issues).toEqual([{ path: "connectionId", message: "must be a UUID" }]);
  });

  test("a kind's PATCH matrix: only-false fields", async () => {
    const err = await rejection(
      client.appConnections.update("auth0", ids.connection, { isPlatformManagedCredentials: true as false }),
    );
    expect(err.message).toBe("isPlatformManagedCredentials: Not supported for Auth0 Connections");
  });

  test("create with an unknown method names the methods of the kind", async () => {
    const err = await rejection(
      client.appConnections.create("azure-client-secrets", {
        name: "az",
        method: "password",
        credentials: {},
      } as never),
    );
    expect(err.issues).toEqual([{ path: "method", message: 'must be one of "oauth", "client-secret", "certificate"' }]);
  });

  test("credentials union: the closest method's rule is reported", async () => {
    const err = await rejection(
      client.appConnections.update("azure-client-secrets", ids.connection, {
        credentials: { clientId: ids.connection, clientSecret: "x".repeat(51), tenantId: ids.connection },
      }),
    );
    expect(err.issues).toEqual([{ path: "credentials.clientSecret", message: "must be at most 50 characters" }]);
  });

  test("rotation parameters come from the type's row", async () => {
    const err = await rejection(
      client.secretRotations.create("redis-credentials", {
        name: "r",
        projectId: ids.project,
        connectionId: ids.connection,
        environment: "dev",
        secretPath: "/",
        rotationInterval: 0,
        parameters: { permissionScope: "" },
        secretsMapping: { username: "U", password: "P/1" },
      }),
    );
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { path: "rotationInterval", message: "must be at least 1 (days)" },
        { path: "parameters.permissionScope", message: "must not be empty" },
        { path: "secretsMapping.password", message: "must not contain ':' or '/'" },
      ]),
    );
  });

  test("certificate profile zod rules", async () => {
    const err = await rejection(
      client.certificateProfiles.create({
        projectId: ids.project,
        certificatePolicyId: ids.policy,
        slug: "Bad_Slug",
        enrollmentType: "api",
        issuerType: "ca",
        apiConfig: {},
        acmeConfig: {},
      }),
    );
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { path: "slug", message: "may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)" },
        { path: "acmeConfig", message: 'is not allowed with enrollmentType "api"' },
        { path: "caId", message: 'is required when issuerType is "ca"' },
      ]),
    );
  });
});

describe("client-side rules the schemas cannot express", () => {
  test("certificate profile: EST enrollment needs estConfig (missingEnrollmentConfig)", async () => {
    const err = await rejection(
      client.certificateProfiles.create({
        projectId: ids.project,
        certificatePolicyId: ids.policy,
        caId: ids.ca,
        slug: "est-profile",
        enrollmentType: "est",
        issuerType: "ca",
      }),
    );
    expect(err.issues).toEqual([{ path: "estConfig", message: "EST enrollment requires EST configuration" }]);
  });

  test("turning on isPlatformManagedCredentials needs credentials in the same body", async () => {
    const err = await rejection(
      client.appConnections.update("postgres", ids.connection, { isPlatformManagedCredentials: true }),
    );
    expect(err.message).toBe("credentials: is required when turning on isPlatformManagedCredentials");
  });
});

describe("audit-log filters (docs/api-spec.md §4.5)", () => {
  test("environment, secretPath and secretKey require projectId", async () => {
    const err = await rejection(client.auditLogs.list({ environment: "prod", secretKey: "K" }));
    expect(err.issues).toEqual([
      { path: "environment", message: "requires projectId" },
      { path: "secretKey", message: "requires projectId" },
    ]);
  });

  test("limit at most 1000; event types are the server's to judge (newer servers add them)", async () => {
    const err = await rejection(client.auditLogs.list({ limit: 5000, eventType: "no-such-event" }));
    expect(err.message).toBe("limit: must be at most 1000");
  });

  test("dates in order and within 3 months", async () => {
    const order = await rejection(
      client.auditLogs.list({ startDate: "2025-02-01T00:00:00Z", endDate: "2025-01-01T00:00:00Z" }),
    );
    expect(order.message).toBe("endDate: End date cannot be before start date");
    const range = await rejection(
      client.auditLogs.list({ startDate: "2025-01-01T00:00:00Z", endDate: "2025-06-01T00:00:00Z" }),
    );
    expect(range.message).toBe("endDate: Dates must be within 3 months");
  });

  test("iterate validates before its first request", async () => {
    const it = client.auditLogs.iterate({ secretPath: "/app" });
    await rejection(it.next());
  });
});

describe("slugs select rows", () => {
  test("unknown app kind, destination and rotation type", async () => {
    const a = await rejection(client.appConnections.list("nope" as never));
    expect(a.issues[0]!.path).toBe("app");
    expect(a.message).toMatch(/^app: must be one of auth0, postgres, /);
    // Any slug-shaped destination is accepted through the generic row; anything else is not.
    const d = await rejection(client.secretSyncs.get("Not A Slug" as never, ids.sync));
    expect(d.issues[0]!.path).toBe("destination");
    const t = await rejection(client.secretRotations.rotate("nope" as never, ids.rotation));
    expect(t.issues[0]!.path).toBe("type");
  });
});

describe("rejected values never appear in the error", () => {
  test("a secret that breaks a rule is not echoed", async () => {
    const err = await rejection(
      client.appConnections.create("postgres", {
        name: "db",
        method: "username-and-password",
        credentials: {
          host: "h",
          port: CANARY as never,
          database: "d",
          username: "u",
          password: CANARY,
          sslEnabled: false,
          sslRejectUnauthorized: true,
        },
        description: CANARY.repeat(40),
      }),
    );
    expect(err.issues.map((i) => i.path).sort()).toEqual(["credentials.port", "description"]);
    for (const text of [String(err), err.stack ?? "", JSON.stringify(err), util.inspect(err, { depth: 10 })]) {
      expect(text).not.toContain(CANARY);
    }
  });
});

describe("client configuration", () => {
  test("auth is checked without echoing it", () => {
    const make = (auth: unknown) => () => new SecretOpsClient(auth as never);
    expect(make({ baseUrl: "ftp://x", token: CANARY })).toThrow("baseUrl: must be an http(s) URL");
    expect(make({ baseUrl: "http://h", token: "" })).toThrow(SecretOpsValidationError);
    expect(make({ baseUrl: "http://h", universalAuth: { clientId: "id", clientSecret: "" } })).toThrow(
      "universalAuth.clientSecret: must not be empty",
    );
    try {
      make({ baseUrl: "ftp://x", token: CANARY })();
    } catch (e) {
      expect(util.inspect(e, { depth: 10 })).not.toContain(CANARY);
    }
  });

  test("rate limits must be positive", () => {
    expect(
      () => new SecretOpsClient({ baseUrl: "http://h", token: "t" }, { rateLimit: { readsPerMinute: 0 } }),
    ).toThrow("rateLimit.readsPerMinute: must be a positive number");
  });

  test("with nothing listening, a validation error still comes first (nothing was attempted)", async () => {
    const seen: RequestInfo[] = [];
    const offline = new SecretOpsClient(
      { baseUrl: "http://127.0.0.1:9", token: "t" },
      { logger: { onRequest: (i) => seen.push(i) } },
    );
    await rejection(offline.secretSyncs.list("vercel", ""));
    expect(seen).toHaveLength(0);
  });
});
