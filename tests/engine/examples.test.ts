import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { SecretOpsClient, syncDestinationSlugs, rotationTypeSlugs, type AppConnectionApp } from "../../sdk";
import { EmulatorAdmin, startEmulator } from "../../emulator";
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
const FIXTURE_GATEWAY = "40000000-0000-4000-8000-000000000001";
const CANARY_EST_PASSPHRASE = "canary-est-passphrase-0c41d7";
const CANARY_SCEP_CHALLENGE = "canary-scep-challenge-password-e83f20";
const CANARY_PG_PASSWORD = "canary-postgres-password-7e2a90";
const CANARY_ORDERS_DB_PASSWORD = "canary-orders-db-password-3b81f4";
const CANARY_AWS_SECRET_KEY = "canary-aws-secret-access-key-95d2c7";
const CANARY_STAGING_STRIPE_KEY = "canary-staging-stripe-key-2f6b1d";
const CANARY_PROD_STRIPE_KEY = "canary-prod-stripe-key-8c03e5";
const CANARY_CDN_SIGNING_KEY = "canary-cdn-signing-key-4a9e72";
const CANARY_VERCEL_TOKEN = "canary-vercel-api-token-d51b08";
const CANARY_AZURE_CLIENT_SECRET = "canary-azure-client-secret-7f2c93";
const CANARY_MYSQL_PASSWORD = "canary-mysql-password-61e0ab";
const CANARY_REDIS_PASSWORD = "canary-redis-password-b7d431";
const CANARY_QUICKSTART_API_URL = "https://canary-quickstart-api-url-09c2ef.example.com";
const CANARY_QUICKSTART_API_KEY = "canary-quickstart-api-key-5d7e31";

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
  /** Plain program config, as `pulumi config set` would set it. */
  config?: Record<string, string>;
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
const allSyncs = async (client: SecretOpsClient, projectId = PROJECT) =>
  (await Promise.all(syncDestinationSlugs.map((d) => client.secretSyncs.list(d, projectId)))).flat();
const allRotations = async (client: SecretOpsClient, projectId = PROJECT) =>
  (await Promise.all(rotationTypeSlugs.map((t) => client.secretRotations.list(t, projectId)))).flat();
const allProfiles = async (client: SecretOpsClient, projectId = PROJECT) =>
  (await client.certificateProfiles.list({ projectId, limit: 100 })).certificateProfiles;

/** A secretops resource of the stack's state: its type, its name in the program, its id and outputs. */
interface Made {
  type: string;
  name: string;
  id: string;
  outputs: Record<string, unknown>;
}
const TYPE_PREFIX = "pulumi-nodejs:dynamic/secretops:";

/** The objects the stack's resources made, from its state (`pulumi stack export`). */
async function madeObjects(t: TestStack): Promise<Made[]> {
  const { deployment } = await t.stack.exportStack();
  const resources = (deployment?.resources ?? []) as { type: string; urn: string; id?: string; outputs?: object }[];
  return resources
    .filter((r) => r.type.startsWith(TYPE_PREFIX) && r.id)
    .map((r) => ({
      type: r.type.slice(TYPE_PREFIX.length),
      name: r.urn.split("::").pop()!,
      id: r.id!,
      outputs: (r.outputs ?? {}) as Record<string, unknown>,
    }));
}

/** The object a resource made, read at the service by its id: undefined once the service has none. */
function readById(client: SecretOpsClient, m: Made): Promise<{ id?: string } | undefined> {
  const o = m.outputs as Record<string, never>;
  const read: Record<string, () => Promise<{ id?: string }>> = {
    Project: () => client.projects.get(m.id),
    ProjectEnvironment: () => client.projectEnvironments.get(o.projectId, m.id),
    SecretFolder: () => client.secretFolders.get(m.id),
    Secret: () => client.secrets.getById(m.id),
    AppConnection: () => client.appConnections.get(o.app, m.id),
    SecretSync: () => client.secretSyncs.get(o.destination, m.id),
    SecretRotation: () => client.secretRotations.get(o.type, m.id),
    CertificateAuthority: () => client.certificateAuthorities.get(m.id),
    CertificatePolicy: () => client.certificatePolicies.get(m.id),
    CertificateProfile: () => client.certificateProfiles.get(m.id),
    MachineIdentity: () => client.identities.get(m.id),
    // The service says 400 for a method its identity does not have: that is gone too.
    IdentityAuth: () =>
      client.identityAuths.get(o.method, m.id).then(
        (a) => ({ ...a, id: a.identityId }),
        (e) => Promise.reject(e.status === 400 && /does not have/.test(e.message) ? { status: 404 } : e),
      ),
    IdentityClientSecret: () => client.identityAuths.getClientSecret(o.identityId, m.id),
    ProjectRole: () => client.projectRoles.getBySlug(o.projectId, o.slug),
    ProjectIdentityMembership: () => client.identityMemberships.get(o.projectId, o.identityId),
  };
  if (!read[m.type]) throw new Error(`no read by id for ${m.type} ${m.name}`);
  return orUndefined(read[m.type]!());
}

/** Every object the program made exists at the service, by id: `types` counts them by type. */
async function expectMadeAtService(c: Ctx, types: Record<string, number>): Promise<Made[]> {
  const made = await madeObjects(c.t);
  const counts = made.reduce<Record<string, number>>((n, m) => ({ ...n, [m.type]: (n[m.type] ?? 0) + 1 }), {});
  expect(counts).toEqual(types);
  for (const m of made) expect([m.name, (await readById(c.client, m))?.id]).toEqual([m.name, m.id]);
  return made;
}

/** After destroy: none of them is left at the service. */
async function expectGoneFromService(c: Ctx, made: Made[]): Promise<void> {
  expect(made).not.toEqual([]);
  for (const m of made) expect([m.type, m.name, await readById(c.client, m)]).toEqual([m.type, m.name, undefined]);
}

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
      "secretops:secretsPerMinute": { value: "100000" },
    };
    for (const [key, value] of Object.entries(spec.config ?? {})) config[`${spec.project}:${key}`] = { value };
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

describe("examples/quickstart", () => {
  let made: Made[];
  exampleTests({
    // The quickstart has no Pulumi.yaml of its own: the repository root's runs it.
    dir: repoRoot,
    project: "secretops-quickstart",
    secrets: {
      apiUrl: CANARY_QUICKSTART_API_URL,
      apiKey: CANARY_QUICKSTART_API_KEY,
      vercelToken: CANARY_VERCEL_TOKEN,
      databasePassword: CANARY_PG_PASSWORD,
    },
    // From nothing: two projects, an environment, two folders, two secrets, two connections, a
    // sync, a rotation, a CA, a policy and a profile.
    resources: 14,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 2,
        ProjectEnvironment: 1,
        SecretFolder: 2,
        Secret: 2,
        AppConnection: 2,
        SecretSync: 1,
        SecretRotation: 1,
        CertificateAuthority: 1,
        CertificatePolicy: 1,
        CertificateProfile: 1,
      });
      const sync = made.find((m) => m.type === "SecretSync")!;
      // The sync's first job carried the two secrets (their values hashed, never shown).
      const pushed = await new EmulatorAdmin(c.emulator.url).pushedSecrets(sync.id);
      const sha = (v: string) => crypto.createHash("sha256").update(v).digest("hex");
      expect(pushed?.secrets).toEqual([
        { key: "API_KEY", valueSha256: sha(CANARY_QUICKSTART_API_KEY) },
        { key: "API_URL", valueSha256: sha(CANARY_QUICKSTART_API_URL) },
      ]);
      const rotation = made.find((m) => m.type === "SecretRotation")!;
      const rotated = await c.client.secretRotations.get("postgres-credentials", rotation.id);
      expect(rotated.folder?.path).toBe("/web/db");
      expect(outputs).toMatchObject({ syncStatus: "succeeded", caStatus: "active", folderPath: "/web" });
      expect(outputs.recentSyncEvents).toEqual([expect.stringMatching(/ create-secret-sync$/)]);
    },
    async afterDestroy(c) {
      await expectGoneFromService(c, made);
    },
  });
});

describe("examples/secret-sync", () => {
  let projectId: string;
  let made: Made[];
  exampleTests({
    dir: path.join(examplesDir, "secret-sync"),
    project: "secretops-secret-sync",
    secrets: {
      stagingStripeSecretKey: CANARY_STAGING_STRIPE_KEY,
      prodStripeSecretKey: CANARY_PROD_STRIPE_KEY,
      cdnSigningKey: CANARY_CDN_SIGNING_KEY,
      vercelApiToken: CANARY_VERCEL_TOKEN,
      azureClientSecret: CANARY_AZURE_CLIENT_SECRET,
    },
    resources: 16,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 1,
        ProjectEnvironment: 2,
        SecretFolder: 3,
        Secret: 3,
        AppConnection: 3,
        SecretSync: 4,
      });
      const { client } = c;
      projectId = outputs.projectId as string;
      const project = await client.projects.get(projectId);
      expect(project).toMatchObject({ slug: "storefront-syncs", name: "Storefront" });
      // The template's environments, taken over: no others were made.
      expect(project.environments!.map((e) => e.slug).sort()).toEqual(["dev", "prod", "staging"]);

      const connections = made.filter((m) => m.type === "AppConnection");
      const connectionOf = (app: string) => connections.find((m) => m.outputs.app === app)!.id;
      const syncs = await allSyncs(client, projectId);
      expect(
        syncs.map((s) => `${s.destination} ${s.name} ${s.environment?.slug}${s.folder?.path} ${s.connectionId}`).sort(),
      ).toEqual([
        `azure-app-configuration api-prod-app-configuration prod/app ${connectionOf("azure-app-configuration")}`,
        `azure-key-vault infra-prod-key-vault prod/infra ${connectionOf("azure-key-vault")}`,
        `vercel storefront-prod-vercel prod/app ${connectionOf("vercel")}`,
        `vercel storefront-staging-vercel staging/app ${connectionOf("vercel")}`,
      ]);
      const appConfig = syncs.find((s) => s.destination === "azure-app-configuration")!;
      expect(appConfig.syncOptions).toMatchObject({ keySchema: "APP_{{secretKey}}" });
      expect(appConfig.destinationConfig).toMatchObject({ label: "prod" });
      const keyVault = syncs.find((s) => s.destination === "azure-key-vault")!;
      expect(keyVault.syncOptions).toMatchObject({ disableCertificateImport: true });
      expect(Object.values(outputs.syncStatuses as Record<string, string>)).toEqual(Array(4).fill("succeeded"));

      // Each sync's first job pushed its folder's secrets, with the values from secret config.
      const admin = new EmulatorAdmin(c.emulator.url);
      const pushed = Object.fromEntries(
        await Promise.all(syncs.map(async (s) => [s.name, (await admin.pushedSecrets(s.id))?.secrets] as const)),
      );
      const sha = (v: string) => crypto.createHash("sha256").update(v).digest("hex");
      expect(pushed).toEqual({
        "storefront-staging-vercel": [{ key: "STRIPE_SECRET_KEY", valueSha256: sha(CANARY_STAGING_STRIPE_KEY) }],
        "storefront-prod-vercel": [{ key: "STRIPE_SECRET_KEY", valueSha256: sha(CANARY_PROD_STRIPE_KEY) }],
        "api-prod-app-configuration": [{ key: "STRIPE_SECRET_KEY", valueSha256: sha(CANARY_PROD_STRIPE_KEY) }],
        "infra-prod-key-vault": [{ key: "CDN_SIGNING_KEY", valueSha256: sha(CANARY_CDN_SIGNING_KEY) }],
      });
      // The connections hold the credentials from secret config, and never return them.
      const vercel = await client.appConnections.get("vercel", connectionOf("vercel"));
      expect(vercel.credentials).not.toHaveProperty("apiToken");
    },
    async afterDestroy(c) {
      await expectGoneFromService(c, made);
      // Only the Key Vault sync removed its secrets from the destination, and waited for that.
      const deletes = (await c.client.auditLogs.list({ eventType: ["delete-secret-sync"] })).filter(
        (e) => e.projectId === projectId,
      );
      expect(deletes.map(({ event: { metadata: m } }) => `${m.name} ${m.removeSecrets}`).sort()).toEqual([
        "api-prod-app-configuration false",
        "infra-prod-key-vault true",
        "storefront-prod-vercel false",
        "storefront-staging-vercel false",
      ]);
    },
  });
});

describe("examples/secret-rotation", () => {
  let projectId: string;
  let made: Made[];
  exampleTests({
    dir: path.join(examplesDir, "secret-rotation"),
    project: "secretops-secret-rotation",
    secrets: {
      postgresPassword: CANARY_PG_PASSWORD,
      mysqlPassword: CANARY_MYSQL_PASSWORD,
      redisPassword: CANARY_REDIS_PASSWORD,
      azureRotatorClientSecret: CANARY_AZURE_CLIENT_SECRET,
    },
    resources: 17,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 1,
        ProjectEnvironment: 2,
        SecretFolder: 5,
        AppConnection: 4,
        SecretRotation: 5,
      });
      const { client } = c;
      projectId = outputs.projectId as string;
      expect(await client.projects.get(projectId)).toMatchObject({ slug: "storefront-rotations" });
      const connectionOf = (app: string) => made.find((m) => m.type === "AppConnection" && m.outputs.app === app)!.id;
      const rotations = await allRotations(client, projectId);
      expect(
        rotations.map((r) => `${r.type} ${r.environment!.slug}${r.folder!.path}/${r.name} ${r.connectionId}`).sort(),
      ).toEqual([
        `azure-client-secret prod/infra/ci-deployer-client-secret ${connectionOf("azure-client-secrets")}`,
        `mysql-credentials prod/app/db/reporting-db ${connectionOf("mysql")}`,
        `postgres-credentials prod/app/db/orders-db ${connectionOf("postgres")}`,
        `postgres-credentials staging/app/db/orders-db ${connectionOf("postgres")}`,
        `redis-credentials prod/infra/storefront-cache ${connectionOf("redis")}`,
      ]);
      const pg = rotations.find((r) => r.type === "postgres-credentials")!;
      expect(pg.parameters).toMatchObject({
        rotationStatement: expect.stringContaining("{{password}}"),
        passwordRequirements: { length: 40, allowedSymbols: "-_.~" },
      });
      expect(rotations.find((r) => r.type === "redis-credentials")!.parameters.permissionScope).toContain("~cache:*");
      expect(Object.keys(outputs.nextRotations as object)).toHaveLength(5);
      // The rotations wrote their secrets into the folders the program made.
      const written = await client.secrets.list({ projectId, environment: "prod", secretPath: "/app/db" });
      expect(written.map((x) => x.secretKey).sort()).toEqual([
        "ORDERS_DB_PASSWORD",
        "ORDERS_DB_USER",
        "REPORTING_DB_PASSWORD",
        "REPORTING_DB_USER",
      ]);
    },
    async afterDestroy(c) {
      await expectGoneFromService(c, made);
      // The delete options reached the service.
      const deletes = (await c.client.auditLogs.list({ eventType: ["delete-secret-rotation"] })).filter(
        (e) => e.projectId === projectId,
      );
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
  });
});

describe("examples/certificate-profile", () => {
  let made: Made[];
  exampleTests({
    dir: path.join(examplesDir, "certificate-profile"),
    project: "secretops-certificate-profile",
    secrets: { estPassphrase: CANARY_EST_PASSPHRASE, scepChallengePassword: CANARY_SCEP_CHALLENGE },
    resources: 10,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 1,
        CertificateAuthority: 2,
        CertificatePolicy: 2,
        CertificateProfile: 5,
      });
      const { client } = c;
      const idOf = (name: string) => made.find((m) => m.name === name)!.id;
      const projectId = outputs.projectId as string;
      expect(await client.projects.get(projectId)).toMatchObject({ slug: "example-corp-pki", type: "cert-manager" });
      const root = await client.certificateAuthorities.get(idOf("root-ca"));
      const issuing = await client.certificateAuthorities.get(idOf("issuing-ca"));
      expect(root).toMatchObject({ status: "active", projectId });
      // Signed by the root as part of its create.
      expect(issuing).toMatchObject({ status: "active", configuration: { parentCaId: root.id } });

      const profiles = await allProfiles(client, projectId);
      const policyName = Object.fromEntries(
        await Promise.all(
          ["services", "devices"].map(async (n) => [idOf(n), (await client.certificatePolicies.get(idOf(n))).name]),
        ),
      );
      expect(
        profiles
          .map(
            (p) =>
              `${p.slug} ${p.enrollmentType}/${p.issuerType} ${policyName[p.certificatePolicyId ?? ""]} ${p.caId === issuing.id ? "issuing" : p.caId}`,
          )
          .sort(),
      ).toEqual([
        "k8s-ingress acme/ca internal-services issuing",
        "local-dev-self-signed api/self-signed internal-services null",
        "mdm-laptops scep/ca managed-devices issuing",
        "network-devices est/ca managed-devices issuing",
        "service-mtls api/ca internal-services issuing",
      ]);
      const mtls = profiles.find((p) => p.slug === "service-mtls")!;
      // The service's read of a profile reports its config object with the object's id.
      expect(mtls.apiConfig).toEqual({ id: mtls.apiConfigId, autoRenew: true, renewBeforeDays: 14 });
      expect(mtls.defaults).toMatchObject({ ttlDays: 30, keyAlgorithm: "EC_prime256v1" });
      expect(profiles.find((p) => p.slug === "mdm-laptops")!.externalConfigs).toBeNull();
      expect(outputs.profileKinds).toMatchObject({
        "local-dev-self-signed": "api/self-signed",
        "network-devices": "est/ca",
      });
    },
    async afterDestroy(c) {
      await expectGoneFromService(c, made);
    },
  });
});

describe("examples/app-connection", () => {
  let projectId: string;
  let made: Made[];
  const connectionsOfProject = async (client: SecretOpsClient) =>
    (await client.appConnections.listAll({ projectId })).filter((c) => c.projectId === projectId);
  exampleTests({
    dir: path.join(examplesDir, "app-connection"),
    project: "secretops-app-connection",
    secrets: { ordersDbPassword: CANARY_ORDERS_DB_PASSWORD, awsSecretAccessKey: CANARY_AWS_SECRET_KEY },
    resources: 10,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 1,
        ProjectEnvironment: 1,
        SecretFolder: 3,
        AppConnection: 2,
        SecretRotation: 1,
        SecretSync: 2,
      });
      const { client } = c;
      projectId = outputs.projectId as string;
      expect(await client.projects.get(projectId)).toMatchObject({ slug: "storefront-connections" });
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
      const rotations = await allRotations(client, projectId);
      expect(
        rotations.map((r) => `${r.type} ${r.environment!.slug}${r.folder!.path}/${r.name} ${r.connectionId}`),
      ).toEqual([`postgres-credentials prod/app/db/orders-db-credentials ${ordersDb.id}`]);
      const syncs = await allSyncs(client, projectId);
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
    async afterDestroy(c) {
      // The syncs and the rotation went first, then the connections they used, and the project.
      await expectGoneFromService(c, made);
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
    // The fixture's gateway: made outside any program, so the program takes it from config.
    config: { gatewayId: FIXTURE_GATEWAY },
    secrets: { postgresPassword: CANARY_PG_PASSWORD },
    resources: 4,
    async before({ client }) {
      for (const [app, name] of managedConnections)
        before[name] = (await client.appConnections.getByName(app, name)).version!;
    },
    async afterUp({ client }, outputs) {
      const auth0 = await client.appConnections.getByName("auth0", "emulator-auth0");
      expect(auth0.description).toMatch(/^Customer identity tenant/);
      const pg = await client.appConnections.getByName("postgres", "emulator-postgres");
      expect(outputs.postgresConnectionId).toBe(pg.id);
      expect(pg.gatewayId).toBeNull();
      expect(pg.credentials).toMatchObject({
        host: "orders-db.internal.example.com",
        database: "orders",
        username: "secretops_rotator",
      });
      expect(pg.credentials).not.toHaveProperty("password");
      expect((await client.appConnections.getByName("ldap", "emulator-ldap")).gatewayId).toBe(FIXTURE_GATEWAY);
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

describe("examples/machine-identity", () => {
  let made: Made[];
  exampleTests({
    dir: path.join(examplesDir, "machine-identity"),
    project: "secretops-machine-identity",
    resources: 3,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, { MachineIdentity: 1, IdentityAuth: 1, IdentityClientSecret: 1 });
      const { clientId, clientSecret } = outputs as { clientId: string; clientSecret: string };
      expect(clientSecret).toMatch(/^[0-9a-f]{64}$/);
      // The consumer's login, with what the stack's outputs hand it.
      const consumer = new SecretOpsClient(
        { baseUrl: c.emulator.url, universalAuth: { clientId, clientSecret } },
        { rateLimit: false },
      );
      await expect(consumer.login()).resolves.toBeDefined();
      // Secret output: never in plaintext in state, stored or exported.
      expect(storedState(c.t)).not.toContain(clientSecret);
      expect(await cliStackExport(c.t)).not.toContain(clientSecret);
    },
    async afterDestroy(c) {
      // The identity is gone, and its login and client secret with it.
      await expectGoneFromService(c, made);
    },
  });
});

describe("examples/app-reads-secrets", () => {
  let made: Made[];
  const databaseUrl = "postgres://canary-app-reads-4e1b.internal/app";
  exampleTests({
    dir: path.join(examplesDir, "app-reads-secrets"),
    project: "secretops-app-reads-secrets",
    secrets: { databaseUrl },
    resources: 7,
    async afterUp(c, outputs) {
      made = await expectMadeAtService(c, {
        Project: 1,
        SecretFolder: 1,
        Secret: 1,
        MachineIdentity: 1,
        IdentityAuth: 1,
        IdentityClientSecret: 1,
        ProjectIdentityMembership: 1,
      });
      // The app's login, with what the stack's outputs hand it: a viewer reads the secret.
      const o = outputs as Record<string, string>;
      const app = new SecretOpsClient(
        { baseUrl: c.emulator.url, universalAuth: { clientId: o.clientId!, clientSecret: o.clientSecret! } },
        { rateLimit: false },
      );
      const place = { projectId: o.projectId!, environment: o.environment!, secretPath: o.secretPath! };
      expect((await app.secrets.get("DATABASE_URL", place)).secretValue).toBe(databaseUrl);
      expect(storedState(c.t)).not.toContain(o.clientSecret);
    },
    async afterDestroy(c) {
      await expectGoneFromService(c, made);
    },
  });
});

describe("examples/audit-logs", () => {
  let syncId: string;
  exampleTests({
    dir: path.join(examplesDir, "audit-logs"),
    project: "secretops-audit-logs",
    // The project to look at, as another program made it: here the fixture's.
    config: { projectId: PROJECT },
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
        scope: string;
        changes: {
          count: number;
          truncated: boolean;
          byEventType: Record<string, number>;
          byActor: Record<string, number>;
        };
        "vercel-prod-syncs": { count: number; events: string[] };
        connectionUpdates: { count: number; events: string[] };
      };
      expect(summary.scope).toBe(`project ${PROJECT}`);
      expect(summary.changes).toMatchObject({
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
