import { changeCounts } from "../engine/harness";
import { engineEnv, type EngineEnv } from "../engine/lifecycle";
import { census, mixedResources } from "./mixed-stack";

/**
 * Rate limits at scale: the emulator enforces the service's default limits (the unlicensed plan's
 * 60 reads, 200 writes and 40 secrets calls a minute, docs/service-api.md §8), with the minute compressed to a few seconds, and
 * advertises them in `x-ratelimit-*`. With no caps of its own, the provider learns them: a
 * 200-resource up, refresh and destroy finish with no failed operation and no request answered 429.
 */
jest.setTimeout(20 * 60_000);

const COUNT = Number(process.env.RELIABILITY_RATE_RESOURCES ?? 200);
// A 60 s window becomes 15 s.
const TIME_FACTOR = Number(process.env.RELIABILITY_RATE_TIME_FACTOR ?? 0.25);
const ARRIVAL_DELAY_MS = 2000;

describe(`${COUNT} resources under the service's default rate limits`, () => {
  let env: EngineEnv;
  let declared: ReturnType<typeof mixedResources>;
  beforeAll(async () => {
    env = await engineEnv();
    // The provider paces by what the service advertises, as a user's would: no caps.
    for (const k of ["secretops:readsPerMinute", "secretops:writesPerMinute", "secretops:secretsPerMinute"])
      await env.t.stack.removeConfig(k);
    await env.admin.setRateLimits({ read: 60, write: 200, secrets: 40, timeFactor: TIME_FACTOR });
    await env.admin.addFault({ kind: "latency", latencyMs: ARRIVAL_DELAY_MS, every: 4 });
    declared = mixedResources(env.emulator.summary, COUNT, "paced");
    await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(declared.secrets), secret: true });
    await env.declare(declared.resources);
  });
  afterAll(async () => {
    await env?.dispose();
  });

  const limited = async () => (await env.requests()).filter((r) => r.status === 429).length;

  it("up creates all of them with no request refused", async () => {
    await env.resetRequests();
    const up = await env.t.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(changeCounts(up.summary.resourceChanges).create).toBe(COUNT + 1); // and the stack
    const c = await census(env.client, env.emulator.summary, declared.resources);
    expect({ missing: c.missing, duplicated: c.duplicated }).toEqual({ missing: [], duplicated: [] });
    const served = await env.requests();
    console.log(
      `rate limits, up: ${served.length} requests in ${up.summary.endTime.getTime() - up.summary.startTime.getTime()} ms, ${await limited()} answered 429`,
    );
    expect(await limited()).toBe(0);
  });

  // The census after `up` spent reads in the emulator's current window, as another client of the
  // same service would; the refresh's fresh provider process must keep out of that budget too.
  it("refresh reads all of them with no request refused", async () => {
    await env.resetRequests();
    const refresh = await env.t.stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    expect(await limited()).toBe(0);
    // One list call per family (provider/shared-reads.ts), and one read per managed connection.
    const reads = (await env.requests()).filter((r) => r.method === "GET");
    const connections = declared.resources.filter((r) => r.kind === "AppConnectionSettings").length;
    expect(reads.length).toBeLessThanOrEqual(3 + connections);
  });

  it("destroy deletes all of them with no request refused", async () => {
    await env.resetRequests();
    const destroy = await env.t.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(COUNT + 1);
    const c = await census(env.client, env.emulator.summary, declared.resources);
    expect(c.undeclared).toEqual([]);
    expect(await limited()).toBe(0);
  });
});
