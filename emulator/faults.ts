import { randomUUID } from "node:crypto";
import { z } from "zod";

/** POST /__admin/faults body (docs/ARCHITECTURE.md): the emulator's own admin API. */
export const FaultRuleSchema = z
  .object({
    method: z.string().min(1).optional(),
    path: z
      .string()
      .min(1)
      .refine(
        (s) => {
          try {
            new RegExp(s);
            return true;
          } catch {
            return false;
          }
        },
        { error: "must be a valid regular expression" },
      )
      .optional(),
    probability: z.number().min(0).max(1).optional(),
    /** Apply to every n-th request the rule sees (n, 2n, …): a fault rate with a count that does not vary by luck. */
    every: z.number().int().min(1).optional(),
    count: z.number().int().min(1).optional(),
    kind: z.enum(["latency", "status", "rate-limit", "reset"]),
    status: z.number().int().min(400).max(599).optional(),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    retryAfterSeconds: z.number().int().min(0).optional(),
    /**
     * Apply after the request was handled: its effects are kept, but the client gets the fault
     * instead of the response (a lost response: the ambiguous case a client must not retry blindly).
     */
    after: z.boolean().optional(),
  })
  .refine((r) => !r.after || r.kind === "reset" || r.kind === "status", {
    error: "after applies only to the reset and status kinds",
    path: ["after"],
  })
  .refine((r) => r.every === undefined || r.probability === undefined, {
    error: "every and probability cannot both be given",
    path: ["every"],
  })
  .refine((r) => r.kind !== "status" || r.status !== undefined, {
    error: "status is required for kind status",
    path: ["status"],
  })
  .refine((r) => r.kind !== "latency" || r.latencyMs !== undefined, {
    error: "latencyMs is required for kind latency",
    path: ["latencyMs"],
  });
export type FaultRuleInput = z.infer<typeof FaultRuleSchema>;

export interface FaultRule extends Omit<FaultRuleInput, "path" | "count"> {
  id: string;
  path?: RegExp;
  /** applications left; undefined = unlimited */
  remaining?: number;
  /** requests this rule has seen (for `every`) */
  seen: number;
}

/**
 * Fault rules for the public API: each matches by method, path regex (on the path without query
 * string), and probability or every n-th request, for `count` requests or forever. Latency rules delay the request and
 * let later rules apply; the first status / rate-limit / reset rule ends it.
 */
export class Faults {
  private rules: FaultRule[] = [];

  add(input: FaultRuleInput): string {
    const id = randomUUID();
    const { path, count, ...rest } = input;
    this.rules.push({
      ...rest,
      id,
      seen: 0,
      ...(path !== undefined && { path: new RegExp(path) }),
      ...(count !== undefined && { remaining: count }),
    });
    return id;
  }

  clear(): void {
    this.rules = [];
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /** The rules that apply to this request in this phase, in order, counted as applied. */
  take(method: string, path: string, phase: "before" | "after" = "before"): FaultRule[] {
    const out: FaultRule[] = [];
    for (const r of this.rules) {
      if (Boolean(r.after) !== (phase === "after")) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (r.path && !r.path.test(path)) continue;
      if (r.probability !== undefined && Math.random() >= r.probability) continue;
      if (r.every !== undefined && ++r.seen % r.every !== 0) continue;
      if (r.remaining !== undefined) r.remaining -= 1;
      out.push(r);
      if (r.kind !== "latency") break;
    }
    this.rules = this.rules.filter((r) => r.remaining === undefined || r.remaining > 0);
    return out;
  }
}
