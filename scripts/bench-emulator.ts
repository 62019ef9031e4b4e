/**
 * Emulator benchmark on loopback, rate limits off.
 *
 * Run from the repository root (compiles this script and what it imports, then runs it):
 *
 *   npx tsc scripts/bench-emulator.ts --outDir node_modules/.cache/bench-emulator --rootDir . --module commonjs \
 *     --target es2022 --esModuleInterop --resolveJsonModule --skipLibCheck --strict --types node \
 *   && node node_modules/.cache/bench-emulator/scripts/bench-emulator.js
 *
 * The output goes under node_modules/.cache (ignored by git, eslint and packaging), so modules
 * resolve from the repository's node_modules.
 * BENCH_DURATION=<seconds> changes the autocannon runs (default 10), BENCH_CONNECTIONS the
 * connection count (default 50).
 *
 * Measures, each phase against a fresh emulator in its own child process (so autocannon and the
 * server do not share an event loop):
 *   1. GET requests/second: autocannon on GET /api/v1/app-connections/postgres/{id};
 *   2. PATCH requests/second: autocannon on PATCH of that connection's description;
 *   3. audit-log query latency: 100,000 entries bulk-inserted through /__admin/audit-logs, then
 *      50 queries of a 1000-entry page filtered by event type; median and p95 (client side).
 * Targets (2-core machine): >= 5,000 GET/s; filtered page < 50 ms.
 */
import { fork, type ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { EmulatorAdmin, startEmulator, type FixtureSummary } from "../emulator";
import type { EventType } from "../sdk/schemas";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function serve(): Promise<void> {
  const emu = await startEmulator({ port: 0, admin: true, rateLimits: false });
  process.send?.({ summary: emu.summary });
  process.on("disconnect", () => void emu.stop().then(() => process.exit(0)));
}

async function withServer<T>(fn: (s: FixtureSummary) => Promise<T>): Promise<T> {
  const child: ChildProcess = fork(__filename, ["--serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const summary = await new Promise<FixtureSummary>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { summary: FixtureSummary }).summary));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}`)));
  });
  try {
    return await fn(summary);
  } finally {
    child.disconnect();
    await new Promise((r) => child.once("exit", r));
  }
}

interface Rate {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

async function cannon(opts: autocannon.Options): Promise<Rate> {
  await autocannon({ ...opts, duration: 2 }); // warm-up, not reported
  const r = await autocannon({ ...opts, duration: DURATION, connections: CONNECTIONS });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

const connectionOf = (s: FixtureSummary) => s.connections.find((c) => c.app === "postgres")!;

async function benchGet(): Promise<Rate> {
  return withServer((s) =>
    cannon({
      url: `${s.url}/api/v1/app-connections/postgres/${connectionOf(s).id}`,
      headers: { authorization: `Bearer ${s.token}` },
    }),
  );
}

async function benchPatch(): Promise<Rate> {
  return withServer((s) =>
    cannon({
      url: `${s.url}/api/v1/app-connections/postgres/${connectionOf(s).id}`,
      method: "PATCH",
      headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
      body: JSON.stringify({ description: "benchmark" }),
    }),
  );
}

const EVENT_TYPES: EventType[] = [
  "get-secrets",
  "get-secret",
  "create-secret",
  "update-secret",
  "delete-secret",
  "get-secret-syncs",
  "get-secret-sync",
  "create-secret-sync",
  "update-secret-sync",
  "delete-secret-sync",
];

async function benchAudit(): Promise<{
  entries: number;
  insertMs: number;
  queries: number;
  medianMs: number;
  p95Ms: number;
  pageSize: number;
}> {
  return withServer(async (s) => {
    const total = 100_000;
    const chunk = 20_000;
    const now = Date.now();
    const span = 30 * 24 * 3_600_000;
    const t0 = performance.now();
    for (let start = 0; start < total; start += chunk) {
      const entries = Array.from({ length: chunk }, (_, k) => {
        const i = start + k;
        return {
          createdAt: new Date(now - span + Math.floor((i * span) / total)).toISOString(),
          event: { type: EVENT_TYPES[i % EVENT_TYPES.length], metadata: { i, secretPath: "/app", environment: "dev" } },
          projectId: s.projects[0]!.id,
        };
      });
      await new EmulatorAdmin(s.url).insertAuditLogs(entries);
    }
    const insertMs = Math.round(performance.now() - t0);
    const q = new URLSearchParams({
      eventType: "update-secret",
      startDate: new Date(now - span - 3_600_000).toISOString(),
      endDate: new Date(now + 3_600_000).toISOString(),
      limit: "1000",
    });
    const times: number[] = [];
    let pageSize = 0;
    for (let i = 0; i < 55; i++) {
      q.set("offset", String((i % 10) * 1000));
      const t = performance.now();
      const r = await fetch(`${s.url}/api/v1/organization/audit-logs?${q}`, {
        headers: { authorization: `Bearer ${s.token}` },
      });
      const body = (await r.json()) as { auditLogs: unknown[] };
      const ms = performance.now() - t;
      if (r.status !== 200) throw new Error(`query failed: ${r.status}`);
      pageSize = body.auditLogs.length;
      if (i >= 5) times.push(ms); // the first 5 warm up
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 10) / 10;
    return { entries: total, insertMs, queries: times.length, medianMs: at(0.5), p95Ms: at(0.95), pageSize };
  });
}

async function main(): Promise<void> {
  console.log(`emulator benchmark: ${DURATION} s per run, ${CONNECTIONS} connections, rate limits off, 127.0.0.1`);
  const get = await benchGet();
  console.log(
    `GET by id:   ${get.requestsPerSecond} req/s (p50 ${get.latencyP50Ms} ms, p99 ${get.latencyP99Ms} ms, ${get.total} requests, non-2xx ${get.non2xx}, errors ${get.errors})`,
  );
  const patch = await benchPatch();
  console.log(
    `PATCH:       ${patch.requestsPerSecond} req/s (p50 ${patch.latencyP50Ms} ms, p99 ${patch.latencyP99Ms} ms, ${patch.total} requests, non-2xx ${patch.non2xx}, errors ${patch.errors})`,
  );
  const audit = await benchAudit();
  console.log(
    `audit page:  ${audit.pageSize} entries filtered by event type out of ${audit.entries}: median ${audit.medianMs} ms, p95 ${audit.p95Ms} ms over ${audit.queries} queries (bulk insert ${audit.insertMs} ms)`,
  );
  const ok = get.requestsPerSecond >= 5000 && audit.medianMs < 50;
  console.log(`targets (>= 5000 GET/s, page < 50 ms): ${ok ? "met" : "NOT met"}`);
  console.log(JSON.stringify({ get, patch, audit }));
}

if (process.argv.includes("--serve")) {
  void serve();
} else {
  main().catch((err: Error) => {
    console.error(err);
    process.exit(1);
  });
}
