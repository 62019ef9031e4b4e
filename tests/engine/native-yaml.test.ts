import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { changeCounts, createTestStack, repoRoot, type TestStack } from "./harness";
import { exampleSecretConfig, nativeEnv, nativeLifecycleTests, pluginBinDir, programVariant } from "./native";

/**
 * examples/yaml under the real engine, through the native provider (`pulumi-resource-secretops`
 * from PATH) against the emulator: the tree from nothing and a connection, a rotation, a sync and
 * a certificate profile on it. up, a no-change preview, an in-place update of the connection's
 * password (masked), refresh, destroy; a typo'd destination field refused at preview, naming it,
 * in the words of the dynamic path; no secret in the state or `pulumi stack export`.
 */
jest.setTimeout(15 * 60_000);

const program = path.join(repoRoot, "examples", "yaml");
const PROJECT = "10000000-0000-4000-8000-000000000001";
/** The fixture's cert-manager project: CAs, policies and profiles live there. */
const PKI_PROJECT = "10000000-0000-4000-8000-000000000003";
const CANARY_ONE = "canary-yaml-orders-db-password-51c0e2";
const CANARY_TWO = "canary-yaml-orders-db-password-9d73aa";
type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emulator: Emulator;
let client: SecretOpsClient;
let plugin: ReturnType<typeof pluginBinDir>;

const configFor = (password: string) => ({
  "secretops:apiUrl": { value: emulator.url },
  "secretops:token": { value: emulator.token, secret: true },
  ...exampleSecretConfig("secretops-yaml", password),
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 100 });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  plugin = pluginBinDir();
});

afterAll(async () => {
  plugin?.dispose();
  await emulator?.stop();
});

describe("examples/yaml through the native provider", () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await createTestStack({ program, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  nativeLifecycleTests({
    stack: () => t,
    client: () => client,
    token: () => emulator.token,
    passwordKey: "secretops-yaml:ordersDbPassword",
    canaries: [CANARY_ONE, CANARY_TWO],
  });
});

test("a typo'd destination field is refused at preview, naming it, before any write", async () => {
  const variant = programVariant(program, (text) => text.replace("teamId: team_platform", "teemId: team_platform"));
  let t: TestStack | undefined;
  try {
    t = await createTestStack({ program: variant.dir, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
    const failed = await t.stack.preview().then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toContain(
      `secretops:index:SecretSync resource 'web-to-vercel' has a problem: destinationConfig: unknown field "teemId" (did you mean "teamId"?)`,
    );
    expect(failed).not.toContain(CANARY_ONE);
  } finally {
    await t?.dispose();
    variant.dispose();
  }
});

/** A one-profile program for the config tests below, `extra` added to its properties. */
const profileProgram = (extra: string) => `name: secretops-yaml
runtime: yaml
resources:
  edge-mtls:
    type: secretops:index:CertificateProfile
    properties:
      projectId: ${PKI_PROJECT}
      certificatePolicyId: 70000000-0000-4000-8000-000000000001
      caId: 60000000-0000-4000-8000-000000000001
      slug: edge-mtls
      enrollmentType: api
      apiConfig:
        autoRenew: false
${extra}outputs:
  profileId: \${edge-mtls.id}
`;

test("a resource's endpoint option reaches the endpoint named in secretops:endpoints", async () => {
  const second = await startEmulator({ port: 0, admin: true, rateLimits: false });
  const secondClient = new SecretOpsClient({ baseUrl: second.url, token: second.token }, { rateLimit: false });
  const variant = programVariant(program, () => profileProgram("      endpoint: second\n"));
  let t: TestStack | undefined;
  try {
    t = await createTestStack({ program: variant.dir, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
    await t.stack.setConfig("secretops:endpoints.second.apiUrl", { value: second.url }, true);
    await t.stack.setConfig("secretops:endpoints.second.token", { value: second.token, secret: true }, true);
    const up = await t.stack.up();
    const id = String(up.outputs.profileId!.value);
    expect((await secondClient.certificateProfiles.get(id)).slug).toBe("edge-mtls");
    await expect(client.certificateProfiles.get(id)).rejects.toMatchObject({ status: 404 });
    await t.stack.preview({ expectNoChanges: true });
  } finally {
    await t?.dispose();
    variant.dispose();
    await second.stop();
  }
});

test("a token set as plain stack config is refused at preview, naming the key, never the value", async () => {
  const variant = programVariant(program, () => profileProgram(""));
  let t: TestStack | undefined;
  try {
    t = await createTestStack({
      program: variant.dir,
      config: { ...configFor(CANARY_ONE), "secretops:token": { value: emulator.token, secret: false } },
      env: nativeEnv(plugin.dir),
    });
    const failed = await t.stack.preview().then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toContain(
      "secretops:index:CertificateProfile resource 'edge-mtls' has a problem: secretops:token is set as plain stack config",
    );
    expect(failed).not.toContain(emulator.token);
  } finally {
    await t?.dispose();
    variant.dispose();
  }
});

/** A program of one audit-log query (`fn::invoke`), its arguments given. */
const auditProgram = (args: string) => `name: secretops-yaml
runtime: yaml
variables:
  recent:
    fn::invoke:
      function: secretops:index:getAuditLogs
      arguments:
${args}outputs:
  entries: \${recent.entries}
  truncated: \${recent.truncated}
`;

test("getAuditLogs answers fn::invoke, and refuses a filter it does not have, naming it", async () => {
  // Two events at least: a sync made and deleted outside the program.
  const made = await client.secretSyncs.create("vercel", {
    name: "audit-probe",
    projectId: PROJECT,
    connectionId: "50000000-0000-4000-8000-000000000012",
    environment: "staging",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { app: "prj_audit", appName: "audit", env: "production", teamId: "team_platform" },
    isAutoSyncEnabled: false,
  });
  await client.secretSyncs.delete("vercel", made.id);
  const before = await client.auditLogs.list({ projectId: PROJECT, limit: 100 });
  expect(before.length).toBeGreaterThan(1);
  const good = programVariant(program, () => auditProgram(`        projectId: ${PROJECT}\n        maxEntries: 1\n`));
  const bad = programVariant(program, () => auditProgram(`        projectID: ${PROJECT}\n`));
  const stacks: TestStack[] = [];
  try {
    const t = await createTestStack({ program: good.dir, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
    stacks.push(t);
    const up = await t.stack.up();
    expect(up.outputs.truncated!.value).toBe(true);
    expect((up.outputs.entries!.value as { id: string }[]).map((e) => e.id)).toEqual([before[0]!.id]);

    const u = await createTestStack({ program: bad.dir, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
    stacks.push(u);
    const failed = await u.stack.preview().then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toContain("projectID");
    expect(failed).toContain("is not a filter of getAuditLogs");
  } finally {
    for (const s of stacks) await s.dispose();
    good.dispose();
    bad.dispose();
  }
});

/** A program of `count` syncs to distinct Vercel projects, in one project. */
const syncsProgram = (count: number) =>
  [
    "name: secretops-yaml",
    "runtime: yaml",
    "resources:",
    ...Array.from({ length: count }, (_, i) =>
      [
        `  sync-${i}:`,
        "    type: secretops:index:SecretSync",
        "    properties:",
        "      destination: vercel",
        `      name: shared-read-${i}`,
        `      projectId: ${PROJECT}`,
        "      connectionId: 50000000-0000-4000-8000-000000000012",
        "      environment: dev",
        "      secretPath: /app",
        "      isAutoSyncEnabled: false",
        "      syncOptions:",
        "        initialSyncBehavior: overwrite-destination",
        "      destinationConfig:",
        `        app: prj_shared_${i}`,
        `        appName: shared-${i}`,
        "        env: production",
        "        teamId: team_platform",
      ].join("\n"),
    ),
    "",
  ].join("\n");

test("a refresh of 20 syncs of one project shares the project's list reads, as the dynamic path does", async () => {
  const admin = new EmulatorAdmin(emulator.url);
  const variant = programVariant(program, () => syncsProgram(20));
  let t: TestStack | undefined;
  try {
    t = await createTestStack({ program: variant.dir, config: configFor(CANARY_ONE), env: nativeEnv(plugin.dir) });
    await t.stack.up();
    await admin.clearRequests();
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    const reads = (await admin.requests()).filter((r) => r.method === "GET" && r.path.includes("/secret-syncs"));
    // One list of the project's syncs (a second round at most, for reads arriving later), no read per sync.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(reads.every((r) => !/\/secret-syncs\/vercel\/[0-9a-f-]{36}/.test(r.path))).toBe(true);
  } finally {
    await t?.dispose();
    variant.dispose();
  }
});
