import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SecretOpsClient, syncDestinationSlugs, rotationTypeSlugs, type AppConnectionApp } from "../../sdk";
import { startEmulator } from "../../emulator";
import { changeCounts, cliStackExport, createTestStack, repoRoot, storedState, TestStack } from "./harness";

/**
 * Every example program runs as a user would run it, against a fresh emulator on its default
 * fixture: `pulumi up` succeeds, its secret config (and the token) is in neither the stored state
 * nor `pulumi stack export`, a second preview shows no changes, and `pulumi destroy` leaves
 * nothing behind on the service (and managed connections in place).
 */
jest.setTimeout(15 * 60_000);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type Outputs = Record<string, unknown>;

const examplesDir = path.join(repoRoot, "examples");
const PROJECT = "10000000-0000-4000-8000-000000000001";
const CANARY_EST_PASSPHRASE = "canary-est-passphrase-0c41d7";
const CANARY_PG_PASSWORD = "canary-postgres-password-7e2a90";
const CANARY_ORDERS_DB_PASSWORD = "canary-orders-db-password-3b81f4";
const CANARY_AWS_SECRET_KEY = "canary-aws-secret-access-key-95d2c7";

interface Ctx {
  emulator: Emulator;
  client: SecretOpsClient;
  t: TestStack;
}

interface ExampleSpec {
  /** The program directory: the quickstart's Pulumi.yaml is the repository root's. */
  dir: string;
  /** Its Pulumi project name: the namespace of its own config keys. */
  project: string;
  /** Secret program config, as `pulumi config set --secret` would set it. */
  secrets?: Record<string, string>;
  /** Resources `up` creates, the stack excluded. */
  resources: number;
  /** Runs against the emulator before `up`. */
  before?(c: Ctx): Promise<void>;
  /** Checks the service and the outputs after `up`. */
  afterUp(c: Ctx, outputs: Outputs): Promise<void>;
  /** Checks the service after `destroy`. */
  afterDestroy(c: Ctx): Promise<void>;
  /** Whether `up` succeeds again after `destroy` on the same service (default true). */
  rerunnable?: boolean;
}

const orUndefined = <T>(p: Promise<T>) => p.catch((e) => (e.status === 404 ? undefined : Promise.reject(e)));
const allSyncs = async (client: SecretOpsClient) =>
  (await Promise.all(syncDestinationSlugs.map((d) => client.secretSyncs.list(d, PROJECT)))).flat();
const allRotations = async (client: SecretOpsClient) =>
  (await Promise.all(rotationTypeSlugs.map((t) => client.secretRotations.list(t, PROJECT)))).flat();
const allProfiles = async (client: SecretOpsClient) =>
  (await client.certificateProfiles.list({ projectId: PROJECT, limit: 100 })).certificateProfiles;

/** The program directories this file runs. */
const covered = new Set<string>();

function exampleTests(spec: ExampleSpec) {
  covered.add(spec.dir);
  let ctx: Ctx;
  let stackFile: string;

  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 100 });
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    const config: ConfigMap = {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      // The emulator runs without rate limits here; the provider need not pace itself.
      "secretops:readsPerMinute": { value: "100000" },
      "secretops:writesPerMinute": { value: "100000" },
    };
    for (const [key, value] of Object.entries(spec.secrets ?? {}))
      config[`${spec.project}:${key}`] = { value, secret: true };
    try {
      const t = await createTestStack({ program: spec.dir, config });
      stackFile = path.join(spec.dir, `Pulumi.${t.stack.name}.yaml`);
      ctx = { emulator, client, t };
    } catch (e) {
      await emulator.stop();
      throw e;
    }
  });

  afterAll(async () => {
    try {
      await ctx?.t.dispose({ destroy: false }); // the emulator stops next
    } finally {
      await ctx?.emulator.stop();
    }
    // createTestStack writes the stack's settings file into the program directory.
    if (stackFile) expect(fs.existsSync(stackFile)).toBe(false);
  });

  it("up succeeds and creates the example's objects", async () => {
    await spec.before?.(ctx);
    const up = await ctx.t.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({
      create: spec.resources + 1,
      update: 0,
      replace: 0,
      delete: 0,
    });
    const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    await spec.afterUp(ctx, outputs);
  });

  it("keeps the secret config out of state in plaintext, stored and exported", async () => {
    const state = storedState(ctx.t);
    const exported = await cliStackExport(ctx.t);
    // Not a vacuous check: the export holds the stack's resources.
    expect(exported).toContain("pulumi:pulumi:Stack");
    for (const canary of [...Object.values(spec.secrets ?? {}), ctx.emulator.token]) {
      expect(state).not.toContain(canary);
      expect(exported).not.toContain(canary);
    }
  });

  it("a second preview shows no changes", async () => {
    const preview = await ctx.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: spec.resources + 1 });
  });

  it("destroy removes what it created", async () => {
    const destroy = await ctx.t.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(spec.resources + 1);
    await spec.afterDestroy(ctx);
  });

  if (spec.rerunnable !== false) {
    it("runs again after destroy, against the same service", async () => {
      const up = await ctx.t.stack.up();
      expect(changeCounts(up.summary.resourceChanges).create).toBe(spec.resources + 1);
      const destroy = await ctx.t.stack.destroy();
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(spec.resources + 1);
    });
  }
}

describe("examples/quickstart", () =>
  exampleTests({
    // The quickstart has no Pulumi.yaml of its own: the repository root's runs it.
    dir: repoRoot,
    project: "secretops-quickstart",
    resources: 4,
    // Its rotation keeps its secrets on destroy (deleteSecrets defaults to false), and a rotation
    // cannot be created over existing secrets: a second `up` on the same service fails with
    // `The following secrets already exist at the path "/app/db": DB_USER, DB_PASSWORD`.
    rerunnable: false,
    async afterUp({ client }, outputs) {
      expect(await allSyncs(client)).toHaveLength(1);
      expect(await allRotations(client)).toHaveLength(1);
      expect(await allProfiles(client)).toHaveLength(1);
      expect(outputs.syncStatus).toBe("succeeded");
      expect(outputs.recentSyncEvents).toEqual([expect.stringMatching(/ create-secret-sync$/)]);
    },
    async afterDestroy({ client }) {
      expect(await allSyncs(client)).toEqual([]);
      expect(await allRotations(client)).toEqual([]);
      expect(await allProfiles(client)).toEqual([]);
      const settings = await client.appConnections.getByName("postgres", "emulator-postgres");
      expect(settings.description).toBe("Primary application database");
    },
  }));

describe("examples/secret-sync", () =>
  exampleTests({
    dir: path.join(examplesDir, "secret-sync"),
    project: "secretops-secret-sync",
    resources: 4,
    async afterUp({ client }, outputs) {
      const syncs = await allSyncs(client);
      expect(syncs.map((s) => `${s.destination} ${s.name} ${s.environment?.slug}${s.folder?.path}`).sort()).toEqual([
        "azure-app-configuration api-prod-app-configuration prod/app",
        "azure-key-vault infra-prod-key-vault prod/infra",
        "vercel storefront-prod-vercel prod/app",
        "vercel storefront-staging-vercel staging/app",
      ]);
      const appConfig = syncs.find((s) => s.destination === "azure-app-configuration")!;
      expect(appConfig.syncOptions).toMatchObject({ keySchema: "APP_{{secretKey}}" });
      expect(appConfig.destinationConfig).toMatchObject({ label: "prod" });
      const keyVault = syncs.find((s) => s.destination === "azure-key-vault")!;
      expect(keyVault.syncOptions).toMatchObject({ disableCertificateImport: true });
      expect(Object.values(outputs.syncStatuses as Record<string, string>)).toEqual(Array(4).fill("succeeded"));
    },
    async afterDestroy({ client }) {
      expect(await allSyncs(client)).toEqual([]);
      // Only the Key Vault sync removed its secrets from the destination, and waited for that.
      const deletes = await client.auditLogs.list({ projectId: PROJECT, eventType: ["delete-secret-sync"] });
      expect(deletes.map(({ event: { metadata: m } }) => `${m.name} ${m.removeSecrets}`).sort()).toEqual([
        "api-prod-app-configuration false",
        "infra-prod-key-vault true",
        "storefront-prod-vercel false",
        "storefront-staging-vercel false",
      ]);
    },
  }));

describe("examples/secret-rotation", () =>
  exampleTests({
    dir: path.join(examplesDir, "secret-rotation"),
    project: "secretops-secret-rotation",
    resources: 5,
    async afterUp({ client }, outputs) {
      const rotations = await allRotations(client);
      expect(rotations.map((r) => `${r.type} ${r.environment!.slug}${r.folder!.path}/${r.name}`).sort()).toEqual([
        "azure-client-secret prod/infra/ci-deployer-client-secret",
        "mysql-credentials prod/app/db/reporting-db",
        "postgres-credentials prod/app/db/orders-db",
        "postgres-credentials staging/app/db/orders-db",
        "redis-credentials prod/infra/storefront-cache",
      ]);
      const pg = rotations.find((r) => r.type === "postgres-credentials")!;
      expect(pg.parameters).toMatchObject({
        rotationStatement: expect.stringContaining("{{password}}"),
        passwordRequirements: { length: 40, allowedSymbols: "-_.~" },
      });
      expect(rotations.find((r) => r.type === "redis-credentials")!.parameters.permissionScope).toContain("~cache:*");
      expect(Object.keys(outputs.nextRotations as object)).toHaveLength(5);
    },
    async afterDestroy({ client }) {
      expect(await allRotations(client)).toEqual([]);
      // The delete options reached the service.
      const deletes = await client.auditLogs.list({ projectId: PROJECT, eventType: ["delete-secret-rotation"] });
      expect(
        deletes
          .map(
            ({ event: { metadata: m } }) =>
              `${m.environment}/${m.name} ${m.deleteSecrets} ${m.revokeGeneratedCredentials}`,
          )
          .sort(),
      ).toEqual([
        "prod/ci-deployer-client-secret true true",
        "prod/orders-db true true",
        "prod/reporting-db true false",
        "prod/storefront-cache true false",
        "staging/orders-db true true",
      ]);
    },
  }));

describe("examples/certificate-profile", () =>
  exampleTests({
    dir: path.join(examplesDir, "certificate-profile"),
    project: "secretops-certificate-profile",
    secrets: { estPassphrase: CANARY_EST_PASSPHRASE },
    resources: 5,
    async afterUp({ client }, outputs) {
      const profiles = await allProfiles(client);
      expect(profiles.map((p) => `${p.slug} ${p.enrollmentType}/${p.issuerType}`).sort()).toEqual([
        "k8s-ingress acme/ca",
        "local-dev-self-signed api/self-signed",
        "mdm-laptops scep/ca",
        "network-devices est/ca",
        "service-mtls api/ca",
      ]);
      const mtls = profiles.find((p) => p.slug === "service-mtls")!;
      // The service's read of a profile reports its config object with the object's id.
      expect(mtls.apiConfig).toEqual({ id: mtls.apiConfigId, autoRenew: true, renewBeforeDays: 14 });
      expect(mtls.defaults).toMatchObject({ ttlDays: 30, keyAlgorithm: "EC_prime256v1" });
      expect(profiles.find((p) => p.slug === "local-dev-self-signed")!.caId).toBeNull();
      expect(profiles.find((p) => p.slug === "mdm-laptops")!.externalConfigs).toEqual({ template: "CorpLaptop" });
      expect(outputs.profileKinds).toMatchObject({
        "local-dev-self-signed": "api/self-signed",
        "network-devices": "est/ca",
      });
    },
    async afterDestroy({ client }) {
      expect(await allProfiles(client)).toEqual([]);
    },
  }));

describe("examples/app-connection", () => {
  const connectionsOfProject = async (client: SecretOpsClient) =>
    (await client.appConnections.listAll({ projectId: PROJECT })).filter((c) => c.projectId === PROJECT);
  exampleTests({
    dir: path.join(examplesDir, "app-connection"),
    project: "secretops-app-connection",
    secrets: { ordersDbPassword: CANARY_ORDERS_DB_PASSWORD, awsSecretAccessKey: CANARY_AWS_SECRET_KEY },
    resources: 5,
    async before({ client }) {
      // The program makes its own connections: the project has none before.
      expect(await connectionsOfProject(client)).toEqual([]);
    },
    async afterUp({ client }, outputs) {
      const connections = await connectionsOfProject(client);
      expect(connections.map((c) => `${c.app} ${c.name} ${c.method}`).sort()).toEqual([
        "aws aws-prod access-key",
        "postgres orders-db username-and-password",
      ]);
      const ordersDb = connections.find((c) => c.app === "postgres")!;
      const awsProd = connections.find((c) => c.app === "aws")!;
      expect(outputs.connectionIds).toEqual({ "orders-db": ordersDb.id, "aws-prod": awsProd.id });
      // The service holds the secret parts and never returns them.
      expect(ordersDb.credentials).toMatchObject({
        host: "orders-db.internal.example.com",
        username: "secretops_rotator",
      });
      expect(ordersDb.credentials).not.toHaveProperty("password");
      expect(awsProd.credentials).toEqual({ accessKeyId: "AKIAIOSFODNN7EXAMPLE" });
      // The rotation and the syncs use the connections made in the same program, by id.
      const rotations = await allRotations(client);
      expect(
        rotations.map((r) => `${r.type} ${r.environment!.slug}${r.folder!.path}/${r.name} ${r.connectionId}`),
      ).toEqual([`postgres-credentials prod/app/db/orders-db-credentials ${ordersDb.id}`]);
      const syncs = await allSyncs(client);
      expect(
        syncs.map((s) => `${s.destination} ${s.name} ${s.environment?.slug}${s.folder?.path} ${s.connectionId}`).sort(),
      ).toEqual([
        `aws-parameter-store app-prod-parameter-store prod/app ${awsProd.id}`,
        `aws-secrets-manager infra-prod-aws-secrets-manager prod/infra ${awsProd.id}`,
      ]);
      const secretsManager = syncs.find((s) => s.destination === "aws-secrets-manager")!;
      expect(secretsManager.syncOptions).toMatchObject({
        keySchema: "storefront/{{secretKey}}",
        tags: [{ key: "managed-by", value: "secretops" }],
      });
      expect(outputs.syncStatuses).toEqual({
        "infra-prod-aws-secrets-manager": "succeeded",
        "app-prod-parameter-store": "succeeded",
      });
    },
    async afterDestroy({ client }) {
      // The syncs and the rotation went first, then the connections they used.
      expect(await allSyncs(client)).toEqual([]);
      expect(await allRotations(client)).toEqual([]);
      expect(await connectionsOfProject(client)).toEqual([]);
    },
  });
});

const managedConnections: [AppConnectionApp, string][] = [
  ["auth0", "emulator-auth0"],
  ["postgres", "emulator-postgres"],
  ["ldap", "emulator-ldap"],
  ["azure-client-secrets", "emulator-azure-client-secrets"],
];

describe("examples/app-connection-settings", () => {
  const before: Record<string, number> = {};
  exampleTests({
    dir: path.join(examplesDir, "app-connection-settings"),
    project: "secretops-app-connection-settings",
    secrets: { postgresPassword: CANARY_PG_PASSWORD },
    resources: 4,
    async before({ client }) {
      for (const [app, name] of managedConnections)
        before[name] = (await client.appConnections.getByName(app, name)).version!;
    },
    async afterUp({ client }, outputs) {
      const auth0 = await client.appConnections.getByName("auth0", "emulator-auth0");
      expect(auth0.description).toMatch(/^Customer identity tenant/);
      const pg = await client.appConnections.get("postgres", "50000000-0000-4000-8000-000000000002");
      expect(pg.gatewayId).toBeNull();
      expect(pg.credentials).toMatchObject({
        host: "orders-db.internal.example.com",
        database: "orders",
        username: "secretops_rotator",
      });
      expect(pg.credentials).not.toHaveProperty("password");
      expect((await client.appConnections.getByName("ldap", "emulator-ldap")).gatewayId).toBe(
        "40000000-0000-4000-8000-000000000001",
      );
      const azure = await client.appConnections.getByName("azure-client-secrets", "emulator-azure-client-secrets");
      expect(azure.isAutoRotationEnabled).toBe(true);
      expect(azure.rotation?.rotationInterval).toBe(60);
      // Each connection took exactly one PATCH.
      const versions = outputs.connectionVersions as Record<string, number>;
      for (const [, name] of managedConnections) expect(versions[name]).toBe(before[name]! + 1);
    },
    async afterDestroy({ client }) {
      // Releasing management leaves every connection in place, as the program left it.
      for (const [app, name] of managedConnections) {
        const c = await orUndefined(client.appConnections.getByName(app, name));
        expect(c).toBeDefined();
        expect(c!.version).toBe(before[name]! + 1);
      }
    },
  });
});

describe("examples/audit-logs", () => {
  let syncId: string;
  exampleTests({
    dir: path.join(examplesDir, "audit-logs"),
    project: "secretops-audit-logs",
    resources: 0,
    // Something for the queries to find: a prod sync to Vercel, changed once, and a connection update.
    async before({ client }) {
      const sync = await client.secretSyncs.create("vercel", {
        name: "audit-probe",
        projectId: PROJECT,
        connectionId: "50000000-0000-4000-8000-000000000012",
        environment: "prod",
        secretPath: "/app",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app: "prj_probe", appName: "probe", env: "production", teamId: "team_probe" },
      });
      syncId = sync.id;
      await client.secretSyncs.update("vercel", sync.id, { description: "probe" });
      await client.appConnections.update("bitbucket", "50000000-0000-4000-8000-000000000010", {
        description: "audited",
      });
    },
    async afterUp(_c, outputs) {
      const summary = outputs.summary as {
        projectChanges: {
          count: number;
          truncated: boolean;
          byEventType: Record<string, number>;
          byActor: Record<string, number>;
        };
        "vercel-prod-syncs": { count: number; events: string[] };
        connectionUpdates: { count: number; events: string[] };
      };
      expect(summary.projectChanges).toMatchObject({
        count: 2,
        truncated: false,
        byEventType: { "create-secret-sync": 1, "update-secret-sync": 1 },
        byActor: { "emulator-admin": 2 },
      });
      expect(summary["vercel-prod-syncs"].events).toEqual([
        expect.stringMatching(/ update-secret-sync audit-probe$/),
        expect.stringMatching(/ create-secret-sync audit-probe$/),
      ]);
      expect(summary.connectionUpdates.events).toEqual([
        expect.stringMatching(/ bitbucket\/emulator-bitbucket: description$/),
      ]);
    },
    async afterDestroy({ client }) {
      // A query program owns nothing: the stack is empty and the service untouched.
      expect((await client.secretSyncs.get("vercel", syncId)).name).toBe("audit-probe");
    },
  });
});

// examples/ci (its workflow replayed in tests/engine/ci-pipeline.test.ts), examples/policy (a
// policy pack, tests/policy/), examples/yaml, examples/python and examples/go (the native provider,
// tests/engine/native-yaml.test.ts, native-python.test.ts, native-go.test.ts) have tests of their own.
test("every example program under examples/ is run above", () => {
  const programs = fs
    .readdirSync(examplesDir)
    .filter(
      (d) => !["ci", "yaml", "python", "go"].includes(d) && fs.existsSync(path.join(examplesDir, d, "Pulumi.yaml")),
    )
    .map((d) => path.join(examplesDir, d));
  // The repository root's Pulumi.yaml runs examples/quickstart (`npm run demo`).
  const quickstart = path.join(examplesDir, "quickstart");
  expect(programs.sort()).toEqual([...covered].map((d) => (d === repoRoot ? quickstart : d)).sort());
});
