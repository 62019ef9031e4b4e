import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { startEmulator } from "../../emulator";
import { createTestStack, repoRoot, TestStack } from "../engine/harness";

// The policy pack in examples/policy under the real engine: `pulumi preview --policy-pack`, a
// passing and a violating program for each rule. Previews only: nothing is created.
jest.setTimeout(5 * 60_000);

const PACK = path.join(repoRoot, "examples", "policy");
type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type Declared = { kind: string; name: string; args: Record<string, unknown> }[];

let emulator: Emulator;
/** A stack the default pattern calls production (`prod-…`), and one it does not (`staging-…`). */
let prod: TestStack;
let staging: TestStack;
let tmp: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-policy-"));
  const config: ConfigMap = {
    "secretops:apiUrl": { value: emulator.url },
    "secretops:token": { value: emulator.token, secret: true },
    "resources:resources": { value: "[]" },
  };
  try {
    prod = await createTestStack({ program: "resources", stackName: `prod-t${process.pid}`, config });
    staging = await createTestStack({ program: "resources", stackName: `staging-t${process.pid}`, config });
  } catch (e) {
    await prod?.dispose();
    await emulator.stop();
    throw e;
  }
});

afterAll(async () => {
  try {
    for (const t of [prod, staging]) await t?.dispose({ destroy: false }); // the emulator stops next
  } finally {
    await emulator?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
});

// Args valid for the provider's check, in the emulator's default fixture.
function fixture() {
  const f = emulator.summary;
  const p = f.projects[0]!;
  const conn = (app: string) => f.connections.find((c) => c.app === app && (!c.projectId || c.projectId === p.id))!.id;
  const policy = f.certificatePolicies.find((x) => x.projectId === p.id) ?? f.certificatePolicies[0]!;
  return { f, p, conn, policy };
}

function sync(name: string, environment: string, extra: Record<string, unknown> = {}, syncOptions = {}) {
  const { p, conn } = fixture();
  return {
    kind: "SecretSync",
    name,
    args: {
      destination: "vercel",
      name,
      projectId: p.id,
      connectionId: conn("vercel"),
      environment,
      secretPath: "/app",
      syncOptions: { initialSyncBehavior: "overwrite-destination", ...syncOptions },
      destinationConfig: { app: `prj_${name}`, appName: name, env: "production", teamId: "team_1" },
      ...extra,
    },
  };
}

function rotation(name: string, environment: string, extra: Record<string, unknown> = {}) {
  const { p, conn } = fixture();
  return {
    kind: "SecretRotation",
    name,
    args: {
      type: "postgres-credentials",
      name,
      projectId: p.id,
      connectionId: conn("postgres"),
      environment,
      secretPath: "/app/db",
      rotationInterval: 30,
      parameters: { username1: "app_a", username2: "app_b" },
      secretsMapping: { username: `${name.toUpperCase().replace(/-/g, "_")}_USER`, password: "DB_PASSWORD" },
      ...extra,
    },
  };
}

function profile(name: string, extra: Record<string, unknown> = {}) {
  const { f, policy } = fixture();
  const caId = f.certificateAuthorities.find((ca) => ca.projectId === policy.projectId)!.id;
  return {
    kind: "CertificateProfile",
    name,
    args: {
      projectId: policy.projectId,
      certificatePolicyId: policy.id,
      caId,
      slug: name,
      enrollmentType: "api",
      apiConfig: { autoRenew: true, renewBeforeDays: 14 },
      defaults: { ttlDays: 90, keyAlgorithm: "RSA_2048" },
      ...extra,
    },
  };
}

function selfSigned(name: string) {
  const p = profile(name, { issuerType: "self-signed", apiConfig: { autoRenew: false } });
  delete (p.args as Record<string, unknown>).caId;
  return p;
}

let configFiles = 0;
/** `pulumi preview --policy-pack examples/policy` of the declared resources: whether it passed, and its output. */
async function preview(t: TestStack, resources: Declared, packConfig?: Record<string, unknown>) {
  await t.stack.setConfig("resources:resources", { value: JSON.stringify(resources) });
  const policyPackConfigs: string[] = [];
  if (packConfig) {
    const file = path.join(tmp, `pack-config-${++configFiles}.json`);
    fs.writeFileSync(file, JSON.stringify(packConfig));
    policyPackConfigs.push(file);
  }
  try {
    const r = await t.stack.preview({ policyPacks: [PACK], policyPackConfigs });
    return { passed: true, output: r.stdout + r.stderr };
  } catch (e) {
    return { passed: false, output: (e as Error).message };
  }
}

/** The violations the preview printed, as `<policy> <resource name>` (a failed command's message repeats its output). */
function violations(output: string) {
  const re = /- \[mandatory\]\s+(\S+)\s+\(pulumi-nodejs:dynamic\/secretops:\w+: ([^)]+)\)/g;
  return [...new Set([...output.matchAll(re)].map((m) => `${m[1]} ${m[2]}`))].sort();
}

async function expectPass(t: TestStack, resources: Declared, packConfig?: Record<string, unknown>) {
  const { passed, output } = await preview(t, resources, packConfig);
  // The pack ran, and found nothing.
  expect(violations(output)).toEqual([]);
  expect(output).toContain("secretops-security@v0.1.0");
  expect(passed).toBe(true);
}

async function expectViolations(
  t: TestStack,
  resources: Declared,
  expected: string[],
  messages: RegExp[],
  packConfig?: Record<string, unknown>,
) {
  const { passed, output } = await preview(t, resources, packConfig);
  expect(passed).toBe(false);
  expect(violations(output)).toEqual([...expected].sort());
  for (const m of messages) expect(output).toMatch(m);
}

describe("rotation-interval-max-90-days", () => {
  it("passes a rotation every 90 days", () =>
    expectPass(prod, [rotation("orders-db", "prod", { rotationInterval: 90 })]));
  it("fails a rotation every 91 days", () =>
    expectViolations(
      prod,
      [rotation("orders-db", "prod", { rotationInterval: 91 }), rotation("other-db", "staging")],
      ["rotation-interval-max-90-days orders-db"],
      [/SecretRotation "orders-db": rotationInterval is 91 days; it must be at most 90 days/],
    ));
});

describe("sync-production-keeps-secrets", () => {
  it("passes a prod sync with secret deletion disabled, and a staging sync without", () =>
    expectPass(prod, [sync("web-prod", "prod", {}, { disableSecretDeletion: true }), sync("web-staging", "staging")]));
  it("fails a prod sync that may delete secrets at the destination", () =>
    expectViolations(
      prod,
      [sync("web-prod", "prod"), sync("web-staging", "staging")],
      ["sync-production-keeps-secrets web-prod"],
      [/SecretSync "web-prod" .*"prod": syncOptions\.disableSecretDeletion must be true \(it is unset\)/],
    ));
});

describe("certificate-ttl-max-397-days", () => {
  it("passes a TTL of 397 days", () => expectPass(prod, [profile("web-tls", { defaults: { ttlDays: 397 } })]));
  it("fails a TTL of 398 days", () =>
    expectViolations(
      prod,
      [profile("web-tls", { defaults: { ttlDays: 398 } }), profile("api-tls")],
      ["certificate-ttl-max-397-days web-tls"],
      [/CertificateProfile "web-tls": defaults\.ttlDays is 398; it must be at most 397 days/],
    ));
});

describe("no-self-signed-in-production", () => {
  it("passes a self-signed profile in a staging stack", () => expectPass(staging, [selfSigned("local-dev")]));
  it("fails a self-signed profile in a prod stack", () =>
    expectViolations(
      prod,
      [selfSigned("local-dev"), profile("web-tls")],
      ["no-self-signed-in-production local-dev"],
      [/CertificateProfile "local-dev": issuerType "self-signed" is not allowed in production \(stack "prod-t\d+"/],
    ));
});

describe("no-destructive-deletes-in-production", () => {
  it("passes removeSecrets and deleteSecrets outside production", () =>
    expectPass(prod, [
      sync("web-staging", "staging", { removeSecrets: true }),
      rotation("orders-db", "staging", { deleteSecrets: true }),
      sync("web-prod", "prod", { removeSecrets: false }, { disableSecretDeletion: true }),
      rotation("reporting-db", "prod", { deleteSecrets: false }),
    ]));
  it("fails removeSecrets on a prod sync and deleteSecrets on a prod rotation", () =>
    expectViolations(
      prod,
      [
        sync("web-prod", "prod", { removeSecrets: true }, { disableSecretDeletion: true }),
        rotation("orders-db", "prod", { deleteSecrets: true }),
      ],
      ["no-destructive-deletes-in-production orders-db", "no-destructive-deletes-in-production web-prod"],
      [
        /SecretSync "web-prod" .*"prod": removeSecrets must not be true/,
        /SecretRotation "orders-db" .*"prod": deleteSecrets must not be true/,
      ],
    ));
});

describe("policy config", () => {
  it("production environments, production projects and limits are configurable", () => {
    const { policy } = fixture();
    return expectViolations(
      staging,
      [sync("web-staging", "staging"), selfSigned("local-dev"), rotation("orders-db", "dev", { rotationInterval: 45 })],
      [
        "no-self-signed-in-production local-dev",
        "rotation-interval-max-90-days orders-db",
        "sync-production-keeps-secrets web-staging",
      ],
      [/issuerType "self-signed" is not allowed in production \(project [0-9a-f-]+ is production\)/, /at most 30 days/],
      {
        "sync-production-keeps-secrets": { productionEnvironments: ["staging"] },
        "no-self-signed-in-production": { productionProjectIds: [policy.projectId] },
        "rotation-interval-max-90-days": { maxDays: 30 },
      },
    );
  });
});
