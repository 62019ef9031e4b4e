import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { RateLimitBucket as Bucket } from "../sdk/schemas/operations/operation";
import { rateLimited } from "./errors";

/** Options of `startEmulator({ rateLimits })`. */
export type RateLimitOptions = false | { read?: number; write?: number; secrets?: number; timeFactor?: number };

/** PUT /__admin/rate-limits body. */
export const RateLimitSettingsSchema = z.union([
  z.object({ enabled: z.literal(false) }).strict(),
  z
    .object({
      enabled: z.literal(true).optional(),
      read: z.number().int().min(1).optional(),
      write: z.number().int().min(1).optional(),
      secrets: z.number().int().min(1).optional(),
      timeFactor: z.number().positive().optional(),
    })
    .strict(),
]);

export interface RateLimitSettings {
  enabled: boolean;
  read: number;
  write: number;
  /** The secrets routes (secrets, and folder writes): `secretsLimit`. */
  secrets: number;
  /** scales the 60 s window: 0.01 → 600 ms */
  timeFactor: number;
}

/**
 * The service's per-minute limits for an organization's requests on the unlicensed plan: its
 * `rateLimits` of 60 reads, 200 writes and 40 secrets calls (docs/service-api.md §8).
 */
const DEFAULTS = { read: 60, write: 200, secrets: 40, timeFactor: 1 };
const WINDOW_MS = 60_000;

type Limiter = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** A route's `config.bucket` overrides the method's bucket (the duplicate-destination check is a POST read). */
export interface RouteBucket {
  bucket?: Bucket;
  /** Whether `bucket` applies to this request: a kind route's unknown slug counts as an unregistered path (route-registration.ts). */
  appliesTo?: (req: FastifyRequest) => boolean;
}

/** The rate-limit bucket a request counts in (also recorded in the request log). */
export function bucketOf(req: FastifyRequest): Bucket {
  const config = req.routeOptions.config as RouteBucket | undefined;
  const configured = config?.appliesTo?.(req) === false ? undefined : config?.bucket;
  return configured ?? (req.method === "GET" || req.method === "HEAD" ? "read" : "write");
}

/**
 * Three @fastify/rate-limit buckets keyed by IP: GET (and HEAD) requests use `read`, POST, PATCH
 * and DELETE use `write`, unless the route says otherwise (`secrets` for the secrets routes), over a 60 s window scaled by `timeFactor`. The plugin sets the
 * `x-ratelimit-*` headers and, on 429, `retry-after`. Reconfiguring starts fresh counters.
 */
export class RateLimits {
  settings: RateLimitSettings;
  private limiters: Partial<Record<Bucket, Limiter>> = {};

  constructor(
    private readonly app: FastifyInstance,
    initial: RateLimitOptions | undefined,
  ) {
    this.settings = initial === false ? { enabled: false, ...DEFAULTS } : { enabled: true, ...DEFAULTS, ...initial };
    this.rebuild();
  }

  configure(input: z.infer<typeof RateLimitSettingsSchema>): RateLimitSettings {
    this.settings =
      input.enabled === false ? { ...this.settings, enabled: false } : { ...this.settings, ...input, enabled: true };
    this.rebuild();
    return this.settings;
  }

  async apply(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!this.settings.enabled) return;
    await this.limiters[bucketOf(req)]?.(req, reply);
  }

  private rebuild(): void {
    if (!this.settings.enabled) {
      this.limiters = {};
      return;
    }
    const timeWindow = Math.max(1, Math.round(WINDOW_MS * this.settings.timeFactor));
    const make = (max: number) =>
      this.app.rateLimit({
        max,
        timeWindow,
        errorResponseBuilder: (_req, c) => rateLimited(Math.ceil(c.ttl / 1000)),
      }) as unknown as Limiter;
    this.limiters = {
      read: make(this.settings.read),
      write: make(this.settings.write),
      secrets: make(this.settings.secrets),
    };
  }
}
