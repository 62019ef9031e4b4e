import { changeCounts } from "../engine/harness";
import type { FaultRule, RequestLogEntry } from "../../emulator";
import { engineEnv, type EngineEnv } from "../engine/lifecycle";
import { census, mixedResources } from "./mixed-stack";

/**
 * Faults at scale: 100 resources of every family applied through the real engine while the
 * emulator fails about one request in ten on every route (5xx, 429 with retry-after, connection
 * resets before and after the request is handled, latency past the client's timeout). The first
 * `up` must succeed; afterwards every declared object exists exactly once, the state matches the
 * service (a refresh changes nothing) and a preview shows no change.
 */
jest.setTimeout(15 * 60_000);

const COUNT = Number(process.env.RELIABILITY_FAULT_RESOURCES ?? 100);
const TIMEOUT_MS = 2000;

/**
 * About ten in a hundred requests, whatever the route, at counts that do not vary by luck: each rule
 * takes every n-th request it sees (rules are tried in order; the first that is not latency ends a
 * request, so later rules see fewer).
 */
const FAULTS: FaultRule[] = [
  { kind: "latency", latencyMs: TIMEOUT_MS + 500, every: 50 },
  { kind: "status", status: 503, every: 40 },
  { kind: "status", status: 500, every: 100 },
  { kind: "rate-limit", retryAfterSeconds: 1, every: 50 },
  { kind: "reset", every: 60 },
  { kind: "reset", after: true, every: 50 },
];

/**
 * Faults injected by kind; the SDK's retries (tries after the first, from its attempt header); and
 * the provider's look-ups by name or slug, which settle a create whose outcome a fault hid.
 */
function faultFigures(log: RequestLogEntry[]) {
  const injected: Record<string, number> = {};
  for (const r of log) for (const f of r.faults ?? []) injected[f] = (injected[f] ?? 0) + 1;
  return {
    requests: log.length,
    faulted: log.filter((r) => r.faults?.length).length,
    injected,
    retries: log.filter((r) => (r.attempt ?? 1) > 1).length,
    lookups: log.filter((r) => r.method === "GET" && /\/(sync-name|rotation-name|slug)\//.test(r.path)).length,
  };
}

describe(`${COUNT} resources of every family under 10% faults on every route`, () => {
  let env: EngineEnv;
  const tag = "faults";
  let declared: ReturnType<typeof mixedResources>;

  beforeAll(async () => {
    env = await engineEnv();
    declared = mixedResources(env.emulator.summary, COUNT, tag);
    await env.t.stack.setConfig("secretops:timeoutMs", { value: String(TIMEOUT_MS) });
    await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(declared.secrets), secret: true });
    await env.declare(declared.resources);
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it("the first up succeeds, nothing is lost or made twice, and state matches the service", async () => {
    await env.resetRequests();
    for (const rule of FAULTS) await env.admin.addFault(rule);
    const up = await env.t.stack.up();
    await env.admin.clearFaults();
    const figures = faultFigures(await env.requests());
    const created = changeCounts(up.summary.resourceChanges).create;
    console.log(
      `faults at scale: ${COUNT} resources, ${figures.requests} requests, ${figures.faulted} met a fault ` +
        `${JSON.stringify(figures.injected)}; ${figures.retries} retries, ${figures.lookups} look-ups by name; ` +
        `${created - 1} created, failed steps: ${up.summary.result === "succeeded" ? 0 : "some"}`,
    );
    expect(up.summary.result).toBe("succeeded");
    expect(created).toBe(COUNT + 1); // and the stack itself
    // Enough faults to mean something: every kind was injected, and at least one request in twenty
    // met one. The rules' nominal rate is about one in ten, but at ~190 requests their integer floors
    // give 13 (e.g. 4 + 1 + 3 + 2 before the handler, 3 after), and an "after" reset may fall on a
    // request already failed before it, so one in twenty is what the rules guarantee, not luck.
    expect(figures.faulted).toBeGreaterThanOrEqual(figures.requests * 0.05);
    for (const kind of ["latency", "status", "rate-limit", "reset", "reset after"]) {
      expect(figures.injected[kind] ?? 0).toBeGreaterThan(0);
    }

    // With the faults off, a second up has nothing left to do.
    const again = await env.t.stack.up();
    expect(changeCounts(again.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });

    const onService = await census(env.client, env.emulator.summary, declared.resources);
    expect(onService.missing).toEqual([]);
    expect(onService.duplicated).toEqual([]);
    expect(onService.undeclared).toEqual([]);

    // The state matches the service field by field: a refresh finds nothing to change…
    const refresh = await env.t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 0, delete: 0 });
    // …and the program matches the state.
    const preview = await env.t.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
    // Each resource's id in state is the service's object of its name or slug.
    const outputs = await env.t.stack.outputs();
    const ids = new Map<string, string>();
    for (const s of onService.objects.syncs) ids.set(`sync/${s.name}`, s.id);
    for (const r of onService.objects.rotations) ids.set(`rotation/${r.name}`, r.id);
    for (const p of onService.objects.profiles) ids.set(`profile/${p.slug}`, p.id);
    for (const d of declared.resources.filter((r) => r.kind !== "AppConnectionSettings")) {
      const family = d.kind === "SecretSync" ? "sync" : d.kind === "SecretRotation" ? "rotation" : "profile";
      const id = (outputs[d.name]!.value as { id: string }).id;
      expect(`${d.name} ${id}`).toBe(`${d.name} ${ids.get(`${family}/${String(d.args.name ?? d.args.slug)}`)}`);
    }
  });
});
