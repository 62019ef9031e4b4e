import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Command } from "commander";
import { type ConfigReader, clientFrom, settingSources } from "../provider/config";
import type { SecretOpsClient } from "../sdk";

/** Exit codes a pipeline can branch on. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Bad usage: a flag's value, a filter, a missing file. Exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** A failure the command found (invalid resources, missing events, an API error). Exits 1. */
export class Failure extends Error {
  override name = "Failure";
}

export interface ConnectionOptions {
  apiUrl?: string;
  tokenEnv?: string;
  allowInsecureHttp?: boolean;
}

/** `--api-url` and `--token-env`, on the commands that talk to the service. */
export function addConnectionOptions(cmd: Command): Command {
  const envs = (name: keyof typeof settingSources) => settingSources[name].env.join(" / ");
  return cmd
    .option("--api-url <url>", `base URL of the service (default: ${envs("apiUrl")})`)
    .option(
      "--token-env <var>",
      `read the token from this environment variable (default: ${envs("token")}; universal auth: ${envs("clientId")} and ${envs("clientSecret")})`,
    )
    .option(
      "--allow-insecure-http",
      `accept a plain http --api-url for a host other than loopback, which sends the token unencrypted (default: ${envs("allowInsecureHttp")})`,
    );
}

/**
 * A client from the same settings as the resources (provider/config.ts): the environment, with
 * `--api-url` in place of the endpoint's config key. The token is only ever read from the
 * environment, so it never appears on a command line or in the output.
 */
export function clientFromOptions(o: ConnectionOptions, stack: StackConfig = {}): SecretOpsClient {
  if (o.tokenEnv !== undefined && !process.env[o.tokenEnv]) {
    throw new UsageError(`--token-env: the environment variable ${o.tokenEnv} is not set`);
  }
  // Flags first, then the stack's config, then (in clientFrom) the environment: the resources'
  // order, with the command line on top.
  const config: ConfigReader = {
    get: (key) => {
      if (key === settingSources.apiUrl.key && o.apiUrl) return o.apiUrl;
      if (key === settingSources.token.key && o.tokenEnv) return process.env[o.tokenEnv];
      if (key === settingSources.allowInsecureHttp.key && o.allowInsecureHttp) return "true";
      return stack[key];
    },
  };
  try {
    const client = clientFrom(config);
    return client;
  } catch (e) {
    // providerSettings/clientFrom speak of stack config; from the command line the flags apply too.
    throw new UsageError(
      `${(e as Error).message}; from the command line: --api-url, --token-env, --allow-insecure-http`,
    );
  }
}

/** A stack's `secretops:*` config values, by full key. */
export type StackConfig = Record<string, string | undefined>;

export interface StackOptions {
  stack?: string;
  cwd?: string;
  pulumi?: string;
}

/** `-C`, resolved; a directory that does not exist is bad usage, not a missing `pulumi`. */
export function projectDir(o: StackOptions): string {
  const dir = o.cwd ? path.resolve(o.cwd) : process.cwd();
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`-C, --cwd: the directory ${dir} does not exist`);
  }
  return dir;
}

/**
 * The stack's `secretops:*` config, as the resources read it (`pulumi config --json --show-secrets`
 * in the project's directory), held in memory only. Without a Pulumi project there, or when the
 * CLI cannot decrypt (no passphrase), it is what can be read: plain values, or nothing.
 */
export async function stackConfig(o: StackOptions): Promise<StackConfig> {
  const cwd = projectDir(o);
  if (!["Pulumi.yaml", "Pulumi.yml"].some((f) => fs.existsSync(path.join(cwd, f)))) return {};
  const read = async (showSecrets: boolean) => {
    const args = [
      "config",
      "--json",
      ...(showSecrets ? ["--show-secrets"] : []),
      ...(o.stack ? ["--stack", o.stack] : []),
    ];
    const { stdout } = await promisify(execFile)(o.pulumi ?? "pulumi", args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout) as Record<string, { value?: unknown; secret?: boolean }>;
  };
  const values = await read(true).catch(() => read(false).catch(() => ({})));
  const config: StackConfig = {};
  for (const [key, entry] of Object.entries(values)) {
    const value = entry?.value;
    if (key.startsWith("secretops:") && typeof value === "string" && !(entry.secret && value === "[secret]")) {
      config[key] = value;
    }
  }
  return config;
}

/** `30s`, `30m`, `1h`, `7d`, `2w` back from `now`, or an ISO 8601 date-time. */
export function parseTime(flag: string, value: string, now = Date.now()): string {
  const m = /^(\d+)\s*(s|m|h|d|w)$/.exec(value.trim());
  if (m) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as "s"];
    return new Date(now - Number(m[1]) * unit).toISOString();
  }
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
  if (iso.test(value.trim()) && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  throw new UsageError(
    `${flag}: must be a duration back from now (30m, 1h, 7d) or an ISO 8601 date-time, got "${value}"`,
  );
}

/** A count and its noun: `1 problem`, `2 problems`. */
export const counted = (n: number, singular: string, plural = `${singular}s`) => `${n} ${n === 1 ? singular : plural}`;

/** Writes a line to stderr. */
export const warn = (line: string) => process.stderr.write(`${line}\n`);
