import { changeCounts } from "./harness";
import { engineEnv, type EngineEnv, type FixtureSummary, type LoggedRequest } from "./lifecycle";

/**
 * At the service, calls are the cost: the hosted instance allows each client 60 reads and 200
 * writes a minute by default (docs/service-api.md §8). On the 200-resource stack of issue 20 (100
 * syncs with the default options, 50 rotations, 50 profiles), against the emulator enforcing those
 * limits with the minute compressed, each operation stays within its call budget and no request
 * is answered 429. The budgets hold whatever the timing: reads of one project share list calls
 * (provider/shared-reads.ts), and a sync create asks `check-destination` once.
 */
jest.setTimeout(15 * 60_000);

const SYNCS = 100;
const ROTATIONS = 50;
const PROFILES = 50;
const COUNT = SYNCS + ROTATIONS + PROFILES;
// A 60 s window becomes 15 s (as in tests/reliability/rate-limits.test.ts): the budget per window is
// the service's, and reads stay scarce beside the engine's own pace, as they are at the real limits.
const TIME_FACTOR = 0.25;

function budgetStack(f: FixtureSummary) {
  const project = f.projects[0]!;
  const conn = (app: string) => f.connections.find((c) => c.app === app && !c.projectId)!.id;
  // Profiles live in a cert-manager project: the fixture's, with its CA and policy.
  const policy = f.certificatePolicies[0]!;
  const ca = f.certificateAuthorities.find((c) => c.projectId === policy.projectId)!;
  const place = { projectId: project.id, environment: project.environments[0], secretPath: "/" };
  return [
    ...Array.from({ length: SYNCS }, (_, i) => ({
      kind: "SecretSync",
      name: `sync-${i}`,
      args: {
        ...place,
        destination: "vercel",
        name: `budget-sync-${i}`,
        connectionId: conn("vercel"),
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app: `prj_budget_${i}`, appName: `app-${i}`, env: "production", teamId: "team_1" },
      },
    })),
    ...Array.from({ length: ROTATIONS }, (_, i) => ({
      kind: "SecretRotation",
      name: `rotation-${i}`,
      args: {
        ...place,
        type: "postgres-credentials",
        name: `budget-rotation-${i}`,
        connectionId: conn("postgres"),
        rotationInterval: 30,
        parameters: { username1: "app_a", username2: "app_b" },
        secretsMapping: { username: `BUDGET_USER_${i}`, password: `BUDGET_PASSWORD_${i}` },
      },
    })),
    ...Array.from({ length: PROFILES }, (_, i) => ({
      kind: "CertificateProfile",
      name: `profile-${i}`,
      args: {
        projectId: policy.projectId,
        certificatePolicyId: policy.id,
        caId: ca.id,
        slug: `budget-profile-${i}`,
        enrollmentType: "api",
        apiConfig: { autoRenew: true, renewBeforeDays: 7 },
      },
    })),
  ];
}

/** The calls of an operation, as the rate limiter counts them, and the time from its first to its last. */
function calls(rs: LoggedRequest[]) {
  const reads = rs.filter((r) => r.bucket === "read");
  const checks = reads.filter((r) => r.path.endsWith("/check-destination")).length;
  const times = rs.map((r) => Date.parse(r.at));
  return {
    checkDestination: checks,
    otherReads: reads.length - checks,
    writes: rs.filter((r) => r.bucket === "write").length,
    refused: rs.filter((r) => r.status === 429).length,
    spanMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
  };
}

// Rounds of a project's list are the reads beside check-destination in an `up`: each create's
// check for a rival, with the first look at its sync job once the job could have settled. Every
// waiter joins the project's next round, and rounds are spaced by a share of the read budget's pace
// as it fills (provider/shared-reads.ts): one round answers the creates of a second or two (14 to
// 16 rounds measured in 25 to 28 s, against 27 when each wait kept its own schedule).
const OTHER_READS = 20;

describe(`call budgets of ${COUNT} resources at the service's default rate limits`, () => {
  let env: EngineEnv;
  const measured: Record<string, ReturnType<typeof calls>> = {};
  beforeAll(async () => {
    env = await engineEnv();
    // The provider paces by what the service advertises, as a user's would: no caps.
    for (const k of ["secretops:readsPerMinute", "secretops:writesPerMinute", "secretops:secretsPerMinute"])
      await env.t.stack.removeConfig(k);
    await env.admin.setRateLimits({ read: 60, write: 200, timeFactor: TIME_FACTOR });
    await env.declare(budgetStack(env.emulator.summary));
  });
  afterAll(async () => {
    console.info(`call budgets at ${COUNT} resources: ${JSON.stringify(measured)}`);
    await env?.dispose();
  });

  const operation = async (name: string, run: () => Promise<unknown>) => {
    await env.resetRequests();
    await run();
    measured[name] = calls(await env.requests());
    return measured[name];
  };

  it(`up: one check-destination per sync, at most ${OTHER_READS} other reads, one write per resource`, async () => {
    const c = await operation("up", async () => {
      const up = await env.t.stack.up();
      expect(changeCounts(up.summary.resourceChanges).create).toBe(COUNT + 1); // and the stack
    });
    expect(c.checkDestination).toBe(SYNCS);
    expect(c.otherReads).toBeGreaterThan(0); // the creates' checks for a rival were asked
    expect(c.otherReads).toBeLessThanOrEqual(OTHER_READS);
    expect(c.writes).toBe(COUNT);
    expect(c.refused).toBe(0);
  });

  it("a preview with no change makes no call", async () => {
    const c = await operation("preview", async () => {
      const preview = await env.t.stack.preview();
      expect(preview.changeSummary).toEqual({ same: COUNT + 1 });
    });
    expect(c).toMatchObject({ checkDestination: 0, otherReads: 0, writes: 0, refused: 0 });
  });

  it("refresh: at most 6 reads", async () => {
    const c = await operation("refresh", async () => {
      const refresh = await env.t.stack.refresh();
      expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    });
    expect(c.otherReads + c.checkDestination).toBeLessThanOrEqual(6);
    expect(c.writes).toBe(0);
    expect(c.refused).toBe(0);
  });

  it("preview --refresh: at most 6 reads, and no change", async () => {
    const c = await operation("preview --refresh", async () => {
      const preview = await env.t.stack.preview({ refresh: true });
      expect(preview.changeSummary).toEqual({ same: COUNT + 1 });
    });
    expect(c.otherReads + c.checkDestination).toBeLessThanOrEqual(6);
    expect(c.writes).toBe(0);
    expect(c.refused).toBe(0);
  });

  it("destroy: one write per resource and no read", async () => {
    const c = await operation("destroy", async () => {
      const destroy = await env.t.stack.destroy();
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(COUNT + 1);
    });
    expect(c).toMatchObject({ checkDestination: 0, otherReads: 0, writes: COUNT, refused: 0 });
  });
});

const SECRETS = 500;
const FOLDERS = 5;

/** 500 secrets in 5 folders of a project's `dev`, each folder and secret a resource. */
function secretsStack(f: FixtureSummary) {
  const project = f.projects[0]!;
  const place = { projectId: project.id, environment: "dev" };
  return [
    ...Array.from({ length: FOLDERS }, (_, i) => ({
      kind: "SecretFolder",
      name: `folder-${i}`,
      args: { ...place, name: `budget-${i}` },
    })),
    ...Array.from({ length: SECRETS }, (_, i) => ({
      kind: "Secret",
      name: `secret-${i}`,
      args: {
        ...place,
        secretPath: { $ref: `folder-${i % FOLDERS}.secretPath` },
        secretName: `KEY_${i}`,
        secretValue: `value-${i}`,
      },
    })),
  ];
}

describe(`a refresh of ${SECRETS} secrets in ${FOLDERS} folders at the service's default rate limits`, () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
    await env.declare(secretsStack(env.emulator.summary));
    // Made without limits (the bench measures an up at the limits); the refresh below runs at them.
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(SECRETS + FOLDERS + 1);
    for (const k of ["secretops:readsPerMinute", "secretops:writesPerMinute", "secretops:secretsPerMinute"])
      await env.t.stack.removeConfig(k);
    await env.admin.setRateLimits({ read: 60, write: 200, secrets: 40, timeFactor: TIME_FACTOR });
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it("lists each folder's secrets once and its parent's folders once: a handful of reads, none refused", async () => {
    await env.resetRequests();
    const refresh = await env.t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ same: SECRETS + FOLDERS + 1, update: 0 });
    const rs = await env.requests();
    const byRoute = (path: string) => rs.filter((r) => r.method === "GET" && r.path === path).length;
    // One list of the secrets of each folder (a second round at most, for reads arriving later)
    // and one list of the folders of `/`: no read per secret.
    expect(byRoute("/api/v4/secrets")).toBeGreaterThanOrEqual(FOLDERS);
    expect(byRoute("/api/v4/secrets")).toBeLessThanOrEqual(2 * FOLDERS);
    expect(byRoute("/api/v2/folders")).toBeLessThanOrEqual(2);
    expect(rs.length).toBe(byRoute("/api/v4/secrets") + byRoute("/api/v2/folders"));
    expect(rs.filter((r) => r.status === 429)).toEqual([]);
    console.info(`refresh of ${SECRETS} secrets: ${rs.length} reads (${JSON.stringify(rs.map((r) => r.path))})`);
  });
});
