import type * as dynamic from "@pulumi/pulumi/dynamic";
import { setTimeout as sleep } from "node:timers/promises";
import { formatIssue } from "../sdk/schemas/issues";
import type { Exclusive, ResourceType } from "./definition";
import { type Plain, UNKNOWN, containsUnknown } from "./values";

/**
 * Runs in the provider process: the keys of a definition's `exclusive` add-on (a sync's
 * destination) that the program's resources hold. One provider process serves every resource of a
 * program and sees each one's `check`, so it knows which resource holds which key; the writes that
 * take a key run one at a time per key, after a resource of the program leaving it has moved.
 */

/** How long a write waits for a resource of the program to leave the key it takes. */
const DEPARTURE_WAIT_MS = 60_000;

export class ProgramKeys {
  /** Key → the resources holding it (with their args), and the way back. */
  private readonly holders = new Map<string, Map<string, Plain>>();
  private readonly heldBy = new Map<string, string>();
  /**
   * Keys a resource of the program is leaving in this operation (its check moved it elsewhere),
   * settled once its update has been sent: the service still counts it there until then.
   */
  private readonly departures = new Map<string, { left: Promise<void>; leave(): void }>();
  /** The tail of the writes queued per key. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly rule: Pick<Exclusive, "clash" | "conflict">) {}

  /**
   * From `check`: the resource `name` (with `args`) holds `key` now (undefined: none), leaving
   * `previousKey`, or the failure naming the resource of the program it clashes with.
   */
  hold(
    name: string,
    args: Plain,
    key: string | undefined,
    previousKey: string | undefined,
  ): dynamic.CheckFailure | undefined {
    const before = this.heldBy.get(name);
    if (before !== undefined) this.holders.get(before)?.delete(name);
    this.heldBy.delete(name);
    if (key !== undefined) {
      const holding = this.holders.get(key) ?? new Map<string, Plain>();
      for (const [holder, held] of holding) {
        if (holder !== name && (this.rule.clash?.(held, args) ?? true)) return this.rule.conflict(name, holder);
      }
      holding.set(name, args);
      this.holders.set(key, holding);
      this.heldBy.set(name, key);
    }
    if (previousKey !== undefined && previousKey !== key) this.depart(previousKey);
    return undefined;
  }

  /** From `update`: the write that moves a resource off `previousKey` has been sent (or failed). */
  left(previousKey: string | undefined, key: string | undefined): void {
    if (previousKey !== undefined && previousKey !== key) this.departures.get(previousKey)?.leave();
  }

  /**
   * Runs a write that takes `key` after every other write of this process taking it, and after the
   * resource of the program leaving it has moved; once again when that resource began leaving
   * only while the write ran (the engine runs both steps at once).
   */
  exclusively<T>(key: string | undefined, work: () => Promise<T>): Promise<T> {
    if (key === undefined) return work();
    return this.oneAtATime(key, async () => {
      await this.departed(key);
      try {
        return await work();
      } catch (e) {
        if (!this.departures.has(key)) throw e;
        await this.departed(key);
        return work();
      }
    });
  }

  private depart(key: string): void {
    if (this.departures.has(key)) return;
    let leave = () => {};
    const left = new Promise<void>((resolve) => (leave = resolve));
    this.departures.set(key, {
      left,
      leave: () => {
        this.departures.delete(key);
        leave();
      },
    });
  }

  /** Waits (a bounded time: the update may not be part of this run) for a resource leaving `key`. */
  private async departed(key: string): Promise<void> {
    const departure = this.departures.get(key);
    if (departure) await Promise.race([departure.left, sleep(DEPARTURE_WAIT_MS, undefined, { ref: false })]);
  }

  /** Runs `work` after every earlier `work` of the same key has settled. */
  private async oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const run = (this.queues.get(key) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    }
  }
}

/**
 * The `exclusive` rule of a name or slug the service keeps unique in a scope (an environment's
 * slug in its project, a secret's key in its folder): `field`, unique among the objects with the
 * same `scope` args. Two resources of the program declaring one are refused at preview, naming
 * both, before any write. An arg not known yet at preview (a folder's `secretPath` made by the same
 * `up`) stands in the key as the Output it comes from (`origins`): two resources given the same
 * Output (`secretPath: folder.secretPath` in both) hold the same value whatever it turns out to be,
 * so they are refused at preview too. Two different Outputs may still resolve to one value: their
 * keys differ at preview (a false refusal would be worse than none), and `up` checks again with
 * the values known, refusing the second resource there.
 */
export function uniqueIn(type: ResourceType, field: string, scope: readonly string[], where: string): Exclusive {
  return {
    key(args, _options, origins = {}) {
      const parts = [...scope, field].map((k) => {
        const origin = origins[k];
        return args[k] === UNKNOWN && origin !== undefined ? { output: origin } : args[k];
      });
      return parts.some((v) => v === undefined || containsUnknown(v)) ? undefined : JSON.stringify([type, ...parts]);
    },
    conflict: (resource, holder) => ({
      property: "",
      reason: formatIssue({
        path: field,
        message: `${type} "${resource}" and ${type} "${holder}" of this program both declare this ${field} ${where}, which holds one; give one of them another ${field}`,
      }),
    }),
  };
}
