import type { SecretOpsClient } from "../sdk";

/**
 * Where the provider finds its endpoint and credentials, inside the provider process: stack
 * config (`secretops:*`, handed over by the engine's `configure`), else environment variables,
 * including the service's own names so existing users' environments work as they are.
 * Nothing here is ever captured into the serialized provider.
 */

export interface ProviderSettings {
  apiUrl: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  readsPerMinute?: number;
  writesPerMinute?: number;
  timeoutMs?: number;
}

/** Config key → environment variables consulted in order when the key is not set. */
export const settingSources = {
  apiUrl: { key: "secretops:apiUrl", env: ["SECRETOPS_API_URL", "INFISICAL_HOST"] },
  token: { key: "secretops:token", env: ["SECRETOPS_TOKEN", "INFISICAL_TOKEN"] },
  clientId: { key: "secretops:clientId", env: ["SECRETOPS_CLIENT_ID", "INFISICAL_UNIVERSAL_AUTH_CLIENT_ID"] },
  clientSecret: {
    key: "secretops:clientSecret",
    env: ["SECRETOPS_CLIENT_SECRET", "INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET"],
  },
  readsPerMinute: { key: "secretops:readsPerMinute", env: ["SECRETOPS_READS_PER_MINUTE"] },
  writesPerMinute: { key: "secretops:writesPerMinute", env: ["SECRETOPS_WRITES_PER_MINUTE"] },
  timeoutMs: { key: "secretops:timeoutMs", env: ["SECRETOPS_TIMEOUT_MS"] },
  allowInsecureHttp: { key: "secretops:allowInsecureHttp", env: ["SECRETOPS_ALLOW_INSECURE_HTTP"] },
} as const;

/** Stack config by full key (`secretops:apiUrl`). */
export type ConfigReader = { get(key: string): string | undefined };

let configured: ConfigReader | undefined;
let client: SecretOpsClient | undefined;

/** Called from the dynamic provider's `configure` with the engine's stack config. */
export function configure(config: ConfigReader): void {
  configured = config;
  client = undefined;
  const apiUrl = setting(config, "apiUrl");
  try {
    if (apiUrl) checkApiUrl(apiUrl, config);
    problem = undefined;
  } catch (e) {
    problem = e instanceof Error ? e.message : String(e);
  }
}

let problem: string | undefined;
/**
 * What is wrong with the endpoint the engine configured, if anything: every `check` reports it, so
 * a preview (which sends nothing) fails on it too, in a check's words rather than a stack trace.
 */
export function configurationProblem(): string | undefined {
  return problem;
}

function setting(config: ConfigReader | undefined, name: keyof typeof settingSources): string | undefined {
  const src = settingSources[name];
  const fromConfig = config?.get(src.key);
  if (fromConfig) return fromConfig;
  for (const env of src.env) if (process.env[env]) return process.env[env];
  return undefined;
}

function numberSetting(config: ConfigReader | undefined, name: keyof typeof settingSources): number | undefined {
  const raw = setting(config, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${settingSources[name].key} must be a positive number`);
  return n;
}

/** Loopback hosts: the emulator, or a tunnel on this machine; nothing crosses the network. */
function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The endpoint must be an https URL, or http on a loopback host: plain http elsewhere sends the
 * token unencrypted across the network, and one typo (`http://` for `https://`) is enough. A
 * network the user trusts is opted into explicitly. The message names the host, never the URL
 * (which may hold credentials).
 */
function checkApiUrl(apiUrl: string, config: ConfigReader | undefined): void {
  const { key } = settingSources.apiUrl;
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new Error(`${key} must be an https URL (for example https://app.infisical.com)`);
  }
  if (url.protocol === "https:") return;
  if (url.protocol !== "http:") throw new Error(`${key} must be an https URL, not ${url.protocol}`);
  if (isLoopback(url.hostname) || setting(config, "allowInsecureHttp") === "true") return;
  const optIn = settingSources.allowInsecureHttp;
  throw new Error(
    `${key} uses plain http for ${url.hostname}, which would send the token unencrypted across the network: ` +
      `use https, or, on a network you trust, set \`pulumi config set ${optIn.key} true\` ` +
      `(or ${optIn.env.join(" / ")}=true). Plain http is accepted without it only for loopback hosts (the emulator).`,
  );
}

export function providerSettings(config: ConfigReader | undefined): ProviderSettings {
  const apiUrl = setting(config, "apiUrl");
  if (!apiUrl) {
    throw new Error(
      "no API endpoint configured: set `pulumi config set secretops:apiUrl <url>` " +
        "(or SECRETOPS_API_URL / INFISICAL_HOST in the environment)",
    );
  }
  checkApiUrl(apiUrl, config);
  return {
    apiUrl,
    token: setting(config, "token"),
    clientId: setting(config, "clientId"),
    clientSecret: setting(config, "clientSecret"),
    readsPerMinute: numberSetting(config, "readsPerMinute"),
    writesPerMinute: numberSetting(config, "writesPerMinute"),
    timeoutMs: numberSetting(config, "timeoutMs"),
  };
}

/** One SDK client per provider process, built on first use (check and diff never need one). */
export function apiClient(): SecretOpsClient {
  client ??= clientFrom(configured);
  return client;
}

/** A client for the given stack config (and the environment). */
export function clientFrom(config: ConfigReader | undefined): SecretOpsClient {
  // Loaded here, not at the top, so that check/diff in the provider process stay cheap.
  const { SecretOpsClient } = require("../sdk") as typeof import("../sdk");
  const s = providerSettings(config);
  const options = {
    timeoutMs: s.timeoutMs,
    userAgent: "secretops-pulumi",
    // Caps only when set: otherwise the budget the service advertises (sdk/throttle.ts).
    rateLimit: { readsPerMinute: s.readsPerMinute, writesPerMinute: s.writesPerMinute },
  };
  if (s.token) return new SecretOpsClient({ baseUrl: s.apiUrl, token: s.token }, options);
  if (s.clientId && s.clientSecret) {
    return new SecretOpsClient(
      { baseUrl: s.apiUrl, universalAuth: { clientId: s.clientId, clientSecret: s.clientSecret } },
      options,
    );
  }
  throw new Error(
    "no credentials configured: set `pulumi config set --secret secretops:token <token>`, or " +
      "secretops:clientId and `--secret secretops:clientSecret` for universal auth " +
      "(or SECRETOPS_TOKEN / INFISICAL_TOKEN, INFISICAL_UNIVERSAL_AUTH_CLIENT_ID / _SECRET)",
  );
}
