import { changeCounts } from "./harness";
import { engineEnv, type EngineEnv, type FixtureSummary } from "./lifecycle";

/**
 * Reads during a change (issue 49): an `up` that changes the description of 10 of 100 syncs, each
 * then waiting for its sync job (`waitForSync`, the default), against the emulator enforcing the
 * service's default limits (60 reads, 200 writes a window; the window compressed ×0.1) with its
 * default job time (200 ms), logged in with universal auth as a pipeline is. The waits share the
 * project's rounds (provider/shared-reads.ts): a first look once a job could have settled, at a
 * cadence every waiter joins, so the change costs about a read per PATCH at most, in every trial.
 */
jest.setTimeout(10 * 60_000);

const SYNCS = 100;
const CHANGED = 10;
const TRIALS = 3;
const TIME_FACTOR = 0.1;

function syncs(f: FixtureSummary, description: (i: number) => string | undefined) {
  const project = f.projects[0]!;
  const connectionId = f.connections.find((c) => c.app === "vercel" && !c.projectId)!.id;
  return Array.from({ length: SYNCS }, (_, i) => ({
    kind: "SecretSync",
    name: `sync-${i}`,
    args: {
      projectId: project.id,
      environment: project.environments[0],
      secretPath: "/",
      destination: "vercel",
      name: `change-sync-${i}`,
      connectionId,
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: `prj_change_${i}`, appName: `app-${i}`, env: "production", teamId: "team_1" },
      ...(description(i) !== undefined && { description: description(i) }),
    },
  }));
}

describe(`an up changing ${CHANGED} of ${SYNCS} syncs at the service's default rate limits`, () => {
  let env: EngineEnv;
  const measured: { reads: number; writes: number; refused: number; upMs: number; patches: number }[] = [];
  beforeAll(async () => {
    env = await engineEnv({ syncJobDelayMs: 200 });
    const summary = env.emulator.summary;
    await env.declare(syncs(summary, () => undefined));
    // Made without limits; the changes below run at them.
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(SYNCS + 1);
    // As a pipeline logs in: universal auth, and the provider paces by what the service advertises.
    const ua = (require("../../emulator/fixtures/default.json") as { identities: { universalAuth?: object }[] })
      .identities[0]!.universalAuth as { clientId: string; clientSecret: string };
    await env.t.stack.removeConfig("secretops:token");
    await env.t.stack.setConfig("secretops:clientId", { value: ua.clientId });
    await env.t.stack.setConfig("secretops:clientSecret", { value: ua.clientSecret, secret: true });
    for (const k of ["secretops:readsPerMinute", "secretops:writesPerMinute", "secretops:secretsPerMinute"])
      await env.t.stack.removeConfig(k);
    await env.admin.setRateLimits({ read: 60, write: 200, timeFactor: TIME_FACTOR });
  });
  afterAll(async () => {
    console.info(`change of ${CHANGED} of ${SYNCS} syncs: ${JSON.stringify(measured)}`);
    await env?.dispose();
  });

  it(`makes at most ${CHANGED + 2} reads for ${CHANGED} PATCHes, none refused, in each of ${TRIALS} trials`, async () => {
    for (let trial = 1; trial <= TRIALS; trial++) {
      await env.declare(
        syncs(env.emulator.summary, (i) => (i % (SYNCS / CHANGED) === 0 ? `trial ${trial}` : undefined)),
      );
      await env.resetRequests();
      const t0 = Date.now();
      const up = await env.t.stack.up();
      const upMs = Date.now() - t0;
      expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: CHANGED, same: SYNCS - CHANGED + 1 });
      const rs = await env.requests();
      const patches = rs.filter((r) => r.method === "PATCH").length;
      const m = {
        reads: rs.filter((r) => r.bucket === "read").length,
        writes: rs.filter((r) => r.bucket === "write").length,
        refused: rs.filter((r) => r.status === 429).length,
        upMs,
      };
      measured.push({ ...m, patches });
    }
    // Every trial holds the bound (all are run before any is judged, so each one's figures show).
    for (const m of measured) {
      expect(m.patches).toBe(CHANGED);
      expect(m.reads).toBeLessThanOrEqual(CHANGED + 2);
      expect(m.refused).toBe(0);
    }
  });
});
