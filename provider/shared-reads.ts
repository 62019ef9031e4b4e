import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";
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
 * - Waiting is spent only where reads are scarce (`nextRound`): without a read budget, or with
 *   room in its share of it, a round of the list goes at once.
 */

/** How long reads gather before their list call is sent (a round's call does not: its waiters are gathered). */
const GATHER_MS = 10;
/**
 * How long a list's answer serves later reads (that did not ask for a fresh one): longer than a
 * refresh of thousands of resources takes. (At 5 s, a refresh of 1,000 syncs, rotations and
 * profiles made 9 list calls where 5 answer it: docs/benchmarks.md, at the real limits.)
 */
export const ANSWER_REUSE_MS = 60_000;
/**
 * How long a wait asks again after its n-th poll: 250 ms, 500 ms, then every second (a sync job
 * takes longer than a round trip); a round may then wait for the budget (`roundWait`).
 */
const pollGapMs = (n: number) => Math.min(250 * 2 ** n, 1000);
/**
 * With the read budget full, rounds of the list spend one read in this many: at the service's
 * default of 60 a minute, a round every 8 s while anyone waits, however many wait.
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
  /** Waiters for the next round, whether the round loop runs, and when its last round began. */
  waiting: ((objects: Listed<T> | undefined) => void)[];
  polling: boolean;
  lastRoundAt?: number;
}

/** The shared reads of one family (its list call) at one endpoint (one client). */
export class SharedReads<T extends { id: string }> {
  private readonly projects = new Map<string, ProjectState<T>>();

  constructor(
    private readonly client: SecretOpsClient,
    private readonly list: ListProject<T>,
  ) {}

  private state(projectId: string): ProjectState<T> {
    let s = this.projects.get(projectId);
    if (!s) {
      s = { generation: 0, waiting: [], polling: false };
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
   * The project's objects as the next round lists them: one list call per round for everyone
   * waiting, sent after they asked. Latency is spent only where reads are scarce (`roundWait`), so
   * without a limiter or with unspent reads a create's checks are answered at once, and many waits
   * through a long `up` at the service's limits cost one call per interval however many wait.
   * `poll`: the wait's how-many-th poll this is (from 0), which first waits `pollGapMs` of it.
   */
  async nextRound(projectId: string, opts: { poll?: number } = {}): Promise<Listed<T> | undefined> {
    if (opts.poll !== undefined) await sleep(pollGapMs(opts.poll));
    const s = this.state(projectId);
    const next = new Promise<Listed<T> | undefined>((resolve) => s.waiting.push(resolve));
    if (!s.polling) void this.poll(projectId, s);
    return next;
  }

  private async poll(projectId: string, s: ProjectState<T>): Promise<void> {
    s.polling = true;
    try {
      while (s.waiting.length > 0) {
        const wait = this.roundWait(s.lastRoundAt);
        // Waiters asking in this turn of the event loop join the round, whatever the wait.
        await (wait > 0 ? sleep(wait) : nextTurn());
        s.lastRoundAt = Date.now();
        const round = s.waiting.splice(0);
        const objects = await this.objects(projectId, { fresh: true, now: true });
        for (const resolve of round) resolve(objects);
      }
    } finally {
      s.polling = false;
    }
  }

  /**
   * How long a round waits after one that began at `lastRoundAt`: a share of the read budget's
   * pace (one read in `POLL_SHARE`), scaled by the square of the fraction of the budget the window
   * holds spent. Unspent reads make rounds go at once; a budget half spent, a quarter of the share's
   * gap (2 s at 60 a minute); a full one, the share's (8 s). Rounds alone settle where half the
   * budget is spent (the gap `share × f²` and `f = rounds / limit` meet there), leaving the rest to
   * other reads. No time without a budget.
   */
  roundWait(lastRoundAt = -Infinity): number {
    const budget = this.client.readBudget();
    if (!budget) return 0;
    const full = Math.min(1, budget.spent / budget.limit);
    return lastRoundAt + (budget.windowMs / budget.limit) * POLL_SHARE * full ** 2 - Date.now();
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

const isRefusal = (e: unknown) =>
  typeof e === "object" &&
  e !== null &&
  "status" in e &&
  typeof e.status === "number" &&
  e.status >= 400 &&
  e.status < 500 &&
  e.status !== 429;

/** What the steps use of a family's shared reads (its objects come out, nothing goes in). */
export type Reads<T extends { id: string }> = Pick<SharedReads<T>, "objects" | "find" | "invalidate" | "nextRound">;

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
