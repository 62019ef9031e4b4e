import type { AddressInfo } from "node:net";
import { AuditLog } from "./audit";
import type { EmulatorContext } from "./context";
import { seedFromFixtures, summarize, type Fixtures, type FixtureSummary } from "./fixtures";
import { SyncJobs } from "./jobs";
import { Persister, loadSnapshot } from "./persistence";
import { resolvePlan, type PlanSetting } from "./plan";
import { upgradeSnapshot } from "./records";
import type { RateLimitOptions } from "./rate-limit";
import { buildServer, type ServerOptions } from "./server";
import { Store } from "./store";

export type { Fixtures, FixtureSummary } from "./fixtures";
export type { RateLimitOptions } from "./rate-limit";
export type { PlanFeatures, PlanSetting } from "./plan";
export {
  EmulatorAdmin,
  type AdminAuditEntry,
  type FaultRule,
  type JobFault,
  type JobHold,
  type RequestLogEntry,
  type SyncPush,
} from "./admin-client";

export interface EmulatorOptions {
  /** 0 = any free port (default); always binds 127.0.0.1 */
  port?: number;
  /** fixtures object or path to a JSON file; default: emulator/fixtures/default.json */
  fixtures?: Fixtures | string;
  /** persist state to this file: loaded on start (fixtures are then not used); a write is on disk before its response is sent; saved in full after changes and on stop */
  data?: string;
  /** enable the /__admin routes (default false) */
  admin?: boolean;
  /** default: the service's limits, 60 reads and 200 writes per 60 s per IP */
  rateLimits?: RateLimitOptions;
  /** how long each sync job phase (pending → running → done) takes, ms (default 200) */
  syncJobDelayMs?: number;
  /** Fastify's logger: `true` logs to stdout; `{ level, stream }` sends its JSON lines elsewhere (default off). */
  logger?: ServerOptions["logger"];
  /** check every 200 body against its operation's response schema; a mismatch is a 500 naming the route (default false; on in tests) */
  checkResponses?: boolean;
  /**
   * The license plan: `unlicensed` (the default: the service's `getDefaultOnPremFeatures`, no IP
   * allowlisting, no custom roles), `licensed`, or feature overrides. Wins over the fixtures' `plan`.
   */
  plan?: PlanSetting;
}

export interface RunningEmulator {
  url: string;
  /** the default identity's static token */
  token: string;
  summary: FixtureSummary;
  stop(): Promise<void>;
}

/** Starts the emulator on 127.0.0.1 (docs/ARCHITECTURE.md, "Emulator interface"). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const snapshot = options.data ? loadSnapshot(options.data) : undefined;
  // A data file of an older emulator lacks fields added since: its records get them (records.ts).
  const store = new Store(snapshot ? upgradeSnapshot(snapshot) : seedFromFixtures(options.fixtures));
  const audit = new AuditLog(snapshot?.auditLogs ?? []);
  // With --data: the journal of every acknowledged write and the debounced saves (persistence.ts).
  const persister = options.data
    ? new Persister(options.data, () => store.snapshot(), audit, snapshot?.journalSeq)
    : undefined;
  const changed = () => persister?.markDirty();
  const jobs = new SyncJobs(store, options.syncJobDelayMs ?? 200, changed);
  let url = "";
  const plan = resolvePlan(options.plan ?? store.plan);
  const ctx: EmulatorContext = { store, audit, jobs, changed, baseUrl: () => url, plan };

  const app = await buildServer(ctx, {
    admin: options.admin ?? false,
    rateLimits: options.rateLimits,
    logger: options.logger ?? false,
    checkResponses: options.checkResponses ?? false,
    ...(persister && { commit: () => persister.commit() }),
  });
  // A new data file gets the seed; an existing one gets its replayed journal folded in.
  await persister?.saveNow();
  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  jobs.resume();

  let stopped: Promise<void> | undefined;
  return {
    url,
    token: store.defaultToken,
    summary: summarize(store, url),
    stop: () =>
      (stopped ??= (async () => {
        jobs.stop();
        await app.close();
        await persister?.close();
      })()),
  };
}
