import type { SecretOpsClient } from "../../sdk";
import { ANSWER_REUSE_MS, SharedReads, lookAfterMs } from "../../provider/shared-reads";

// The sharing rules of provider/shared-reads.ts, with a list function that counts its calls. The
// engine tests (tests/engine/call-budgets.test.ts) prove the budgets they give under the real engine.

type Obj = { id: string; v: number };

function listing(objects: () => Obj[], fail?: () => unknown) {
  const projects: string[] = [];
  const list = async (_client: SecretOpsClient, projectId: string) => {
    projects.push(projectId);
    // What the service holds when the call arrives, answered a little later.
    const answer = objects();
    const error = fail?.();
    await new Promise((r) => setTimeout(r, 20));
    if (error) throw error;
    return answer;
  };
  return { list, projects };
}

// Unpaced: a round goes as soon as someone waiting is due.
const client = { readBudget: () => undefined } as unknown as SecretOpsClient;

test("reads of one project near in time share one list call; another project has its own", async () => {
  let objects = Array.from({ length: 50 }, (_, i) => ({ id: `o${i}`, v: 1 }));
  const l = listing(() => objects);
  const reads = new SharedReads(client, l.list);
  const found = await Promise.all([
    ...objects.map((o) => reads.find("p1", o.id)),
    reads.find("p1", "missing"),
    reads.find("p2", "o1"),
  ]);
  expect(found.slice(0, 50).map((o) => o?.id)).toEqual(objects.map((o) => o.id));
  expect(found[50]).toBeUndefined(); // not listed: the caller reads it by id
  expect(l.projects.sort()).toEqual(["p1", "p2"]);
  // A read soon after takes the answer; a write makes it stale.
  objects = objects.map((o) => ({ ...o, v: 2 }));
  expect((await reads.find("p1", "o1"))?.v).toBe(1);
  reads.invalidate("p1");
  expect((await reads.find("p1", "o1"))?.v).toBe(2);
  expect(l.projects).toHaveLength(3);
});

test("an answer serves the reads of a long refresh, and no longer than ANSWER_REUSE_MS", async () => {
  let v = 1;
  const l = listing(() => [{ id: "a", v }]);
  const reads = new SharedReads(client, l.list);
  const start = Date.now();
  const now = jest.spyOn(Date, "now");
  try {
    expect((await reads.find("p", "a"))?.v).toBe(1);
    v = 2;
    now.mockReturnValue(start + 30_000); // a refresh of thousands of resources is still reading
    expect((await reads.find("p", "a"))?.v).toBe(1);
    now.mockReturnValue(start + ANSWER_REUSE_MS + 1_000);
    expect((await reads.find("p", "a"))?.v).toBe(2);
    expect(l.projects).toHaveLength(2);
  } finally {
    now.mockRestore();
  }
});

test("a fresh read takes only a call sent after it asked", async () => {
  let v = 1;
  const l = listing(() => [{ id: "a", v }]);
  const reads = new SharedReads(client, l.list);
  expect((await reads.objects("p"))?.get("a")?.v).toBe(1);
  v = 2;
  expect((await reads.objects("p"))?.get("a")?.v).toBe(1);
  expect((await reads.objects("p", { fresh: true }))?.get("a")?.v).toBe(2);
  expect(l.projects).toHaveLength(2);
});

test("a write while a call is in flight makes later reads wait for a new call", async () => {
  let v = 1;
  const l = listing(() => [{ id: "a", v }]);
  const reads = new SharedReads(client, l.list);
  const first = reads.find("p", "a");
  await new Promise((r) => setTimeout(r, 15)); // sent, not answered
  reads.invalidate("p");
  v = 2;
  const second = reads.find("p", "a");
  expect((await first)?.v).toBe(1);
  expect((await second)?.v).toBe(2);
  expect(l.projects).toHaveLength(2);
});

test("many waits poll in shared rounds: one call per round for everyone waiting", async () => {
  const l = listing(() => [{ id: "a", v: 1 }]);
  const reads = new SharedReads(client, l.list);
  const waits = await Promise.all(Array.from({ length: 30 }, () => reads.nextRound("p")));
  expect(waits.every((w) => w?.get("a")?.v === 1)).toBe(true);
  expect(l.projects).toHaveLength(1);
  // Each next round is a new call, sent after it was asked for.
  await Promise.all([reads.nextRound("p"), reads.nextRound("p")]);
  expect(l.projects).toHaveLength(2);
});

test("a refused list sends the reads one by one from then on; another failure only fails that call", async () => {
  let error: unknown = Object.assign(new Error("forbidden"), { status: 403 });
  const l = listing(
    () => [{ id: "a", v: 1 }],
    () => error,
  );
  const reads = new SharedReads(client, l.list);
  expect(await reads.objects("p")).toBeUndefined();
  error = undefined;
  expect(await reads.objects("p")).toBeUndefined();
  expect(l.projects).toHaveLength(1);

  let other: unknown = Object.assign(new Error("unavailable"), { status: 503 });
  const m = listing(
    () => [{ id: "a", v: 1 }],
    () => other,
  );
  const retried = new SharedReads(client, m.list);
  expect(await retried.objects("p")).toBeUndefined();
  other = undefined;
  expect((await retried.find("p", "a"))?.v).toBe(1);
});

/**
 * A client pacing reads by `limit` a `windowMs`, its window holding `spent` (default: all of it);
 * undefined: no budget, `rateLimit: false`.
 */
const budgeted = (budget?: { limit: number; windowMs: number; spent?: number }) =>
  ({ readBudget: () => budget && { spent: budget.limit, ...budget } }) as unknown as SecretOpsClient;

/** The time each of `n` rounds took, asked for one after another (as creates finish, or as one wait looks again). */
async function roundTimes(reads: SharedReads<Obj>, n: number, opts: { poll?: boolean } = {}) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await reads.nextRound("p", opts.poll ? { after: lookAfterMs(i) } : {});
    times.push(performance.now() - t0);
  }
  return times;
}

test.each([
  ["no read budget", undefined],
  ["a plentiful budget (a million a minute)", { limit: 1_000_000, windowMs: 60_000 }],
])("with %s, a create's round goes at once: no wait but the call's own", async (_, budget) => {
  const l = listing(() => [{ id: "a", v: 1 }]);
  const reads = new SharedReads(budgeted(budget), l.list);
  const times = await roundTimes(reads, 10);
  // The list answers after 20 ms; the old first round alone waited 250 ms.
  expect(Math.max(...times)).toBeLessThan(120);
  expect(l.projects).toHaveLength(10);
});

test("where reads are scarce, rounds keep to their share of the budget's pace", async () => {
  // 16 reads a second, all spent: rounds spend one read in POLL_SHARE = 8, one every 500 ms.
  const l = listing(() => [{ id: "a", v: 1 }]);
  const reads = new SharedReads(budgeted({ limit: 16, windowMs: 1000 }), l.list);
  const t0 = performance.now();
  const [first, second, third] = await roundTimes(reads, 3);
  // The first has room (no round before it): at once. The next ones wait for the pace.
  expect(first).toBeLessThan(120);
  expect(second).toBeGreaterThan(400);
  expect(third).toBeGreaterThan(400);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(990);
  expect(l.projects).toHaveLength(3);
  // At the service's default of 60 reads a minute, one round in 8 s.
  expect(new SharedReads(budgeted({ limit: 60, windowMs: 60_000 }), l.list).roundGap()).toBe(8000);
});

test("the budget spaces rounds by the fraction of it spent; unspent, by a wait's shortest look", async () => {
  const l = listing(() => [{ id: "a", v: 1 }]);
  const gap = (spent: number, limit = 60) =>
    new SharedReads(budgeted({ limit, windowMs: 60_000, spent }), l.list).roundGap();
  // At the service's default of 60 a minute: 8 s when full, 4 s when half spent; with the budget
  // unspent, 250 ms, so waits due within it of one another share a round.
  expect(gap(60)).toBe(8000);
  expect(gap(30)).toBe(4000);
  expect(gap(0)).toBe(250);
  // A plentiful budget (a million a minute, its share's gap under a millisecond) spaces by nothing.
  expect(gap(0, 1_000_000)).toBeLessThan(1);
});

test("reads are plentiful without a budget, or where the rounds' share is shorter than a look", () => {
  const l = listing(() => [{ id: "a", v: 1 }]);
  const plentiful = (limit?: number) =>
    new SharedReads(budgeted(limit ? { limit, windowMs: 60_000 } : undefined), l.list).readsArePlentiful();
  // The share is 8 reads' pace: 8 s at 60 a minute, 250 ms at 1,920.
  expect(plentiful(60)).toBe(false);
  expect(plentiful(1920)).toBe(false);
  expect(plentiful(1921)).toBe(true);
  expect(plentiful(1_000_000)).toBe(true);
  expect(plentiful()).toBe(true);
});

test("rounds keep to their share of the budget however little else spends it", async () => {
  // 16 reads a second, none spent by others: the rounds' share is 2 a second (one in POLL_SHARE =
  // 8); the first round spends half of it, the second all, and the rounds after are 500 ms apart.
  const l = listing(() => [{ id: "a", v: 1 }]);
  const reads = new SharedReads(budgeted({ limit: 16, windowMs: 1000, spent: 0 }), l.list);
  const times = await roundTimes(reads, 4);
  expect(times[0]).toBeLessThan(120);
  expect(times[2]).toBeGreaterThan(400);
  expect(times[3]).toBeGreaterThan(400);
  expect(l.projects).toHaveLength(4);
});

test("a wait looks 250 ms after its write, then 500 ms, then every second, where reads are plentiful", async () => {
  const reads = new SharedReads(budgeted({ limit: 6000, windowMs: 60_000, spent: 0 }), listing(() => []).list);
  const polls = await roundTimes(reads, 4, { poll: true });
  for (const [i, gap] of [250, 500, 1000, 1000].entries()) {
    expect(polls[i]).toBeGreaterThanOrEqual(gap - 5);
    expect(polls[i]).toBeLessThan(gap + 150);
  }
});

test("waiters join the project's next round instead of each starting one", async () => {
  // 20 waits whose writes came 30 ms apart, each first looking 250 ms after its own, at a budget of
  // 60 reads a minute with none spent: a few rounds answer them, where each alone would take one.
  const l = listing(() => [{ id: "a", v: 1 }]);
  const reads = new SharedReads(budgeted({ limit: 60, windowMs: 60_000, spent: 0 }), l.list);
  const waits: Promise<unknown>[] = [];
  for (let i = 0; i < 20; i++) {
    waits.push(reads.nextRound("p", { after: lookAfterMs(0) }));
    await new Promise((r) => setTimeout(r, 30));
  }
  await Promise.all(waits);
  expect(l.projects.length).toBeLessThanOrEqual(3);
  // Without a read budget each goes when due: quick answers, and a round each.
  const m = listing(() => [{ id: "a", v: 1 }]);
  const unpaced = new SharedReads(client, m.list);
  const t0 = performance.now();
  await Promise.all([unpaced.nextRound("p", { after: 250 }), unpaced.nextRound("p", { after: 250 })]);
  expect(performance.now() - t0).toBeLessThan(400);
  expect(m.projects).toHaveLength(1);
});
