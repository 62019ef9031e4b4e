import { setTimeout as sleep } from "node:timers/promises";
import type { SecretOpsClient } from "../sdk";

/**
 * Runs in the provider process, which the engine starts for one operation and serves every
 * resource of the program from. At the service, calls are the cost (60 reads a minute by default),
 * and the service lists a project's syncs, rotations or profiles in one call: so reads of one
 * family and project that come near in time (a refresh reads every resource at once; sync-status
 * waits poll together) are answered by one list call instead of one read each.
 *
 * What is shared, and for how long:
 * - A read joins the list call being gathered or in flight for its family and project, or takes
 *   the answer of one that came back less than `ANSWER_REUSE_MS` ago: the reads of one refresh,
 *   however long it runs, take one list call per family and project. Only a refresh's reads take
 *   an earlier answer, and nothing outlives the provider process, which lives for one operation.
 * - A write of the family in the project (`invalidate`) makes every earlier answer and call stale.
 * - A `fresh` read takes only a call sent after it was asked for (what a wait needs to see change).
 * - An object missing from the list is not reported from it: the caller confirms with its own read
 *   (it may be gone, or hidden from the list by a permission).
 * - When the list cannot be had (a 4xx: no permission to list, an older server without the route),
 *   the family's reads in that project go one by one, as before.
 * - Waits (sync jobs) and a create's check for a rival are answered by rounds of the list
 *   (`nextRound`), one call for everyone waiting. No wait the budget does not require, and no read
 *   the operation does not need: a look is asked for only once it is worth it (a job's first 250 ms
 *   after its write, when it could have settled), every waiter joins the project's next round
 *   instead of starting its own, and rounds keep one cadence (a look's 250 ms, spaced further by
 *   the read budget as it fills). Without a read budget, or with a plentiful one, a round goes as
 *   soon as someone is due.
 */

/**
 * How long reads gather before their list call is sent (a round's call does not: its waiters are
 * gathered), and how early a waiter may be looked for in a round (due within it, it joins).
 */
const GATHER_MS = 10;
/**
 * How long a list's answer serves later reads (that did not ask for a fresh one): longer than a
 * refresh of thousands of resources takes. (At 5 s, a refresh of 1,000 syncs, rotations and
 * profiles made 9 list calls where 5 answer it: docs/benchmarks.md, at the real limits.)
 */
export const ANSWER_REUSE_MS = 60_000;
/**
 * When a wait's n-th look (from 0, the first after its write) is worth a read: 250 ms after the
 * write (a sync job takes longer than a round trip: an earlier look only sees it pending), then
 * 500 ms after that look, then every second. A look joins the project's first round at or after
 * its time (`nextRound`), so waiters share rounds instead of each sending its own.
 */
export const lookAfterMs = (n: number) => Math.min(250 * 2 ** n, 1000);
/**
 * Where reads are scarce, rounds of the list spend at most one read in this many of the budget's
 * pace: at the service's default of 60 a minute, a round every 8 s while the budget is spent.
 */
const POLL_SHARE = 8;

/** A project's objects of one family, in one call's worth (every page). */
export type ListProject<T extends { id: string }> = (client: SecretOpsClient, projectId: string) => Promise<T[]>;

type Listed<T> = ReadonlyMap<string, T>;

interface Call<T> {
  answer: Promise<Listed<T> | undefined>;
  /** The project's write generation when the call was sent (while gathering: when it began). */
  generation: number;
}

interface ProjectState<T> {
  /** Raised by every write of the family in the project. */
  generation: number;
  gathering?: Call<T>;
  inFlight?: Call<T>;
  answered?: { objects: Listed<T>; at: number; generation: number };
  /** The list is refused here: reads go one by one. */
  unlisted?: boolean;
  /** Waiters for a round, each from the time a look is worth it (`due`). */
  waiting: Waiter<T>[];
  /** The next round's timer and time; whether a round's call is out. */
  timer?: ReturnType<typeof setTimeout>;
  timerAt?: number;
  inRound: boolean;
  /** When the last round was answered. */
  lastRoundAt?: number;
}

interface Waiter<T> {
  due: number;
  resolve: (objects: Listed<T> | undefined) => void;
}

/** The shared reads of one family (its list call) at one endpoint (one client). */
export class SharedReads<T extends { id: string }> {
  private readonly projects = new Map<string, ProjectState<T>>();
  /** When this endpoint's rounds (of every project) sent their calls: they count against their share. */
  private roundsAt: number[] = [];

  constructor(
    private readonly client: SecretOpsClient,
    private readonly list: ListProject<T>,
  ) {}

  private state(projectId: string): ProjectState<T> {
    let s = this.projects.get(projectId);
    if (!s) {
      s = { generation: 0, waiting: [], inRound: false };
      this.projects.set(projectId, s);
    }
    return s;
  }

  /**
   * The project's objects by id, from a list call shared with other reads; undefined when the
   * list cannot be had (the caller reads by id). `fresh`: only from a call sent after this; `now`:
   * sent without gathering (a round's waiters are gathered already).
   */
  async objects(projectId: string, opts: { fresh?: boolean; now?: boolean } = {}): Promise<Listed<T> | undefined> {
    const s = this.state(projectId);
    if (s.unlisted) return undefined;
    if (!opts.fresh) {
      const a = s.answered;
      if (a && a.generation === s.generation && Date.now() - a.at <= ANSWER_REUSE_MS) return a.objects;
      if (s.inFlight && s.inFlight.generation === s.generation) return s.inFlight.answer;
    }
    if (opts.now) return this.gather(projectId, s, 0).answer;
    s.gathering ??= this.gather(projectId, s, GATHER_MS);
    return s.gathering.answer;
  }

  /** The object, when the project's list has it; undefined when it does not or there is none. */
  async find(projectId: string, id: string): Promise<T | undefined> {
    return (await this.objects(projectId))?.get(id);
  }

  /** A write of the family in the project: what was listed before may be stale. */
  invalidate(projectId: string): void {
    const s = this.projects.get(projectId);
    if (s) {
      s.generation++;
      s.answered = undefined;
    }
  }

  /**
   * The project's objects as a round of its list has them: one list call per round for everyone
   * waiting, sent after they asked and no sooner than `after` ms from now (when a look is worth
   * it: `lookAfterMs`). A project's rounds keep one cadence that every waiter joins: a waiter is
   * answered by the first round at or after its time, and rounds come no closer than `roundGap`
   * (a wait's shortest look, spaced further by the read budget where reads are scarce), so many
   * waits cost one call per round however many wait. Without a read budget, or with a plentiful
   * one, a round goes as soon as someone is due.
   */
  nextRound(projectId: string, opts: { after?: number } = {}): Promise<Listed<T> | undefined> {
    const s = this.state(projectId);
    return new Promise((resolve) => {
      s.waiting.push({ due: Date.now() + Math.max(0, opts.after ?? 0), resolve });
      this.schedule(projectId, s);
    });
  }

  /** Sets the timer for the project's next round: when its first waiter is due, and the gap allows. */
  private schedule(projectId: string, s: ProjectState<T>): void {
    if (s.inRound || s.waiting.length === 0) return;
    const due = Math.min(...s.waiting.map((w) => w.due));
    const at = Math.max(due, (s.lastRoundAt ?? -Infinity) + this.roundGap());
    if (s.timer !== undefined && s.timerAt! <= at) return;
    if (s.timer !== undefined) clearTimeout(s.timer);
    s.timerAt = at;
    s.timer = setTimeout(() => {
      s.timer = s.timerAt = undefined;
      void this.round(projectId, s);
    }, at - Date.now());
  }

  private async round(projectId: string, s: ProjectState<T>): Promise<void> {
    const now = Date.now();
    // The budget may have filled since the timer was set: then the round waits for it.
    if ((s.lastRoundAt ?? -Infinity) + this.roundGap() > now + GATHER_MS) return this.schedule(projectId, s);
    // Everyone due by now (or within the time reads gather) is in this round; the rest wait for a later one.
    const round = s.waiting.filter((w) => w.due <= now + GATHER_MS);
    if (round.length === 0) return this.schedule(projectId, s);
    s.waiting = s.waiting.filter((w) => !round.includes(w));
    s.inRound = true;
    this.roundsAt.push(now);
    try {
      const objects = await this.objects(projectId, { fresh: true, now: true });
      for (const w of round) w.resolve(objects);
    } finally {
      s.inRound = false;
      // Counted from the answer: a round held in the budget's queue spaces the next one by its wait.
      s.lastRoundAt = Date.now();
      this.schedule(projectId, s);
    }
  }

  /**
   * How long after a round is answered the next may go: a wait's shortest look (250 ms), so waits
   * due within it of one another share a round (the later ones looking a little after their time);
   * and where reads are scarce, a share of the read budget's pace (one read in `POLL_SHARE`: 8 s
   * at 60 a minute) times how near the budget is to full: the fraction of it the window holds
   * spent, or of the rounds' own share that rounds spent in it, whichever is more. So rounds go
   * quickly while reads are unspent, keep to their share however slowly the rest of the operation
   * spends, and are spaced by the whole share once the budget is full. A plentiful budget (its
   * share's gap shorter than a look) and no budget space rounds by nothing: a round goes when due.
   */
  roundGap(): number {
    const budget = this.client.readBudget();
    if (!budget) return 0;
    const now = Date.now();
    this.roundsAt = this.roundsAt.filter((at) => at > now - budget.windowMs);
    const share = roundShare(budget);
    const full = Math.min(1, Math.max(budget.spent / budget.limit, (this.roundsAt.length * POLL_SHARE) / budget.limit));
    return Math.max(Math.min(lookAfterMs(0), share), share * full);
  }

  /**
   * Are reads plentiful at this endpoint: no read budget, or one whose rounds' share is shorter
   * than a look (`roundGap` spaces rounds by next to nothing)? Then a read of one object's answer
   * (a few hundred bytes) costs less than a round of the whole list, which grows with the project.
   */
  readsArePlentiful(): boolean {
    const budget = this.client.readBudget();
    return !budget || roundShare(budget) < lookAfterMs(0);
  }

  private gather(projectId: string, s: ProjectState<T>, gatherMs: number): Call<T> {
    const call: Call<T> = { answer: Promise.resolve(undefined), generation: s.generation };
    call.answer = this.send(projectId, s, call, gatherMs);
    return call;
  }

  private async send(
    projectId: string,
    s: ProjectState<T>,
    call: Call<T>,
    gatherMs: number,
  ): Promise<Listed<T> | undefined> {
    if (gatherMs > 0) await sleep(gatherMs);
    // From here on, later reads share this call only while no write makes it stale.
    if (s.gathering === call) s.gathering = undefined;
    call.generation = s.generation;
    s.inFlight = call;
    try {
      const objects = new Map((await this.list(this.client, projectId)).map((o) => [o.id, o]));
      if (call.generation === s.generation) s.answered = { objects, at: Date.now(), generation: call.generation };
      return objects;
    } catch (e) {
      // A refusal says the list is not for this caller here; anything else (after the SDK's own
      // retries) only fails this call. Either way the reads fall back to their own.
      if (isRefusal(e)) s.unlisted = true;
      return undefined;
    } finally {
      if (s.inFlight === call) s.inFlight = undefined;
    }
  }
}

/** The rounds' share of a read budget's pace: one read in `POLL_SHARE` (8 s at 60 a minute). */
const roundShare = (budget: { limit: number; windowMs: number }) => (budget.windowMs / budget.limit) * POLL_SHARE;

const isRefusal = (e: unknown) =>
  typeof e === "object" &&
  e !== null &&
  "status" in e &&
  typeof e.status === "number" &&
  e.status >= 400 &&
  e.status < 500 &&
  e.status !== 429;

/** What the steps use of a family's shared reads (its objects come out, nothing goes in). */
export type Reads<T extends { id: string }> = Pick<
  SharedReads<T>,
  "objects" | "find" | "invalidate" | "nextRound" | "readsArePlentiful"
>;

/** A family's list call, and its shared reads at each endpoint (client) it is read at. */
export interface FamilyReads<T extends { id: string }> {
  /** The project's objects of the family, every page (one call's worth). */
  readonly list: ListProject<T>;
  /** The family's shared reads at `client`'s endpoint, for the life of the provider process. */
  at(client: SecretOpsClient): Reads<T>;
}

/** The shared reads of the family `list` lists: one `SharedReads` per client. */
export function familyReads<T extends { id: string }>(list: ListProject<T>): FamilyReads<T> {
  const byClient = new WeakMap<SecretOpsClient, SharedReads<T>>();
  return {
    list,
    at(client) {
      let reads = byClient.get(client);
      if (!reads) {
        reads = new SharedReads(client, list);
        byClient.set(client, reads);
      }
      return reads;
    },
  };
}
