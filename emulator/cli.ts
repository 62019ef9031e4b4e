#!/usr/bin/env node
/**
 * node dist/emulator/cli.js --port N [--json] [--data file] [--fixtures file] [--admin] [--no-rate-limit] [--plan licensed]
 *
 * Starts the emulator on 127.0.0.1 and prints its URL and token. With --json, stdout gets exactly
 * one line: the summary object (docs/ARCHITECTURE.md) and the server's `pid`. Stops cleanly on
 * SIGINT / SIGTERM, and when the process that started it goes away (`untilStopped`).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { planNames } from "./plan";
import { startEmulator, type RunningEmulator } from "./index";

export const DEFAULT_PORT = 8787;

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError("must be a port number (0-65535)");
  return n;
}

export interface EmulatorCliOptions {
  port: number;
  json?: boolean;
  data?: string;
  fixtures?: string;
  admin?: boolean;
  rateLimit: boolean;
  plan?: "unlicensed" | "licensed";
}

/** The emulator's options, on `cmd`: shared by this script and `secretops emulator` (cli/emulator.ts). */
export function addEmulatorOptions(cmd: Command): Command {
  return cmd
    .option("--port <n>", "port to listen on (0 = any free port)", parsePort, DEFAULT_PORT)
    .option("--json", "print one JSON line (the summary) and nothing else")
    .option("--data <file>", "persist state to this file (loaded on start, saved after changes)")
    .option("--fixtures <file>", "fixtures JSON file (default: the built-in default fixtures)")
    .option("--admin", "enable the /__admin routes")
    .option("--no-rate-limit", "disable rate limiting")
    .addOption(
      new Option(
        "--plan <plan>",
        "license plan: unlicensed (self-hosted default: no IP allowlisting, no custom roles) or licensed",
      ).choices(planNames),
    );
}

/** Starts the emulator with parsed options and writes the start-up lines to `out`. */
export async function startFromOptions(o: EmulatorCliOptions, out: (line: string) => void): Promise<RunningEmulator> {
  const emulator = await startEmulator({
    port: o.port,
    ...(o.data && { data: o.data }),
    ...(o.fixtures && { fixtures: o.fixtures }),
    admin: o.admin ?? false,
    ...(!o.rateLimit && { rateLimits: false as const }),
    ...(o.plan && { plan: o.plan }),
  });
  if (o.json) {
    // The server's own pid: `npx secretops emulator` runs it in a child of `npm exec`.
    out(JSON.stringify({ ...emulator.summary, pid: process.pid }));
  } else {
    const s = emulator.summary;
    out(`SecretOps emulator listening on ${s.url} (pid ${process.pid})`);
    out(`Token: ${s.token}`);
    out(`Organization: ${s.orgId}`);
    for (const p of s.projects) out(`Project ${p.slug}: ${p.id} (environments: ${p.environments.join(", ")})`);
    out(
      `Rate limits: ${o.rateLimit ? "on" : "off"}; admin routes: ${o.admin ? "on" : "off"}${o.data ? `; data: ${o.data}` : ""}`,
    );
  }
  return emulator;
}

/** How often the server looks whether the process that started it is still there. */
const PARENT_CHECK_MS = 500;

/**
 * Runs until SIGINT or SIGTERM, or until the process that started the server goes away, then
 * stops it. `npx secretops emulator … &` runs the server in a child of `npm exec` (through `sh
 * -c`): a script's `kill $!` ends `npm exec`, which does not pass the signal on, and the server,
 * orphaned, would keep listening. An orphan is adopted by another process (its parent pid
 * changes), which the server sees within `PARENT_CHECK_MS` and stops.
 */
export function untilStopped(emulator: RunningEmulator): Promise<void> {
  const parent = process.ppid;
  return new Promise<void>((resolve) => {
    const stop = () => {
      clearInterval(watch);
      void emulator.stop().then(resolve);
    };
    const watch = setInterval(() => process.ppid !== parent && stop(), PARENT_CHECK_MS);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/** Parses `argv` (without node and script), starts the emulator and writes the start-up lines to `out`. */
export async function runCli(argv: readonly string[], out: (line: string) => void): Promise<RunningEmulator> {
  const program = addEmulatorOptions(
    new Command()
      .name("secretops-emulator")
      .description("Local emulator of the secrets and certificate management service API"),
  ).exitOverride();
  program.parse(argv, { from: "user" });
  return startFromOptions(program.opts<EmulatorCliOptions>(), out);
}

if (require.main === module) {
  runCli(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`)).then(
    (emulator) => untilStopped(emulator).then(() => process.exit(0)),
    (err: Error & { code?: string; exitCode?: number }) => {
      if (err.code?.startsWith("commander.")) process.exit(err.exitCode ?? 1);
      process.stderr.write(`emulator: ${err.message}\n`);
      process.exit(1);
    },
  );
}
