import type { SecretOpsClient } from "../sdk";
import type { JwtSource } from "../sdk/auth";
import { isPlainObject } from "./values";
import { settingSources } from "./setting-sources";

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
  /** OIDC and Kubernetes logins (see jwtLoginFrom). */
  identityId?: string;
  authMethod?: string;
  oidcToken?: string;
  oidcTokenFile?: string;
  oidcAudience?: string;
  kubernetesTokenPath?: string;
  readsPerMinute?: number;
  writesPerMinute?: number;
  secretsPerMinute?: number;
  timeoutMs?: number;
}

export { settingSources };

/** Stack config by full key (`secretops:apiUrl`). */
export type ConfigReader = { get(key: string): string | undefined };

let configured: ConfigReader | undefined;
/** The settings `configured` gives, as one string: what decides whether the clients still hold. */
let configuredSettings: string | undefined;
let client: SecretOpsClient | undefined;

/**
 * Called from the dynamic provider's `configure` with the engine's stack config, once per
 * serialized provider (one per resource type of the program); from the native provider's with
 * its config, and `refusal`, what is wrong with the config beyond the endpoint (every `check`
 * reports it). The clients, and what they share
 * (provider/shared-reads.ts), are kept while the settings stay the same.
 */
export function configure(config: ConfigReader, refusal?: string): void {
  configured = config;
  const sources = Object.values(settingSources);
  const settings = JSON.stringify([
    ...sources.map((src) => sourced(config, src) ?? null),
    config.get(ENDPOINTS_KEY) ?? null,
  ]);
  if (settings !== configuredSettings) {
    configuredSettings = settings;
    client = undefined;
    namedClients.clear();
  }
  const apiUrl = setting(config, "apiUrl");
  try {
    if (apiUrl) checkApiUrl(apiUrl, defaultSource(config));
    problem = refusal;
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
  return sourced(config, settingSources[name]);
}

/** A setting from its stack config key, else its first environment variable set. */
function sourced(config: ConfigReader | undefined, src: { key: string; env: readonly string[] }): string | undefined {
  const fromConfig = config?.get(src.key);
  if (fromConfig) return fromConfig;
  for (const env of src.env) if (process.env[env]) return process.env[env];
  return undefined;
}

/** The config key of the named endpoints: `secretops:endpoints.<name>.<setting>` (set with `--path`). */
export const ENDPOINTS_KEY = "secretops:endpoints";

type SettingName = keyof typeof settingSources;
/** Where one endpoint's settings come from: the stack's own (`secretops:*`, env), or a named one's. */
type SettingsSource = { name?: string; get(setting: SettingName): string | undefined };

function defaultSource(config: ConfigReader | undefined): SettingsSource {
  return { get: (name) => setting(config, name) };
}

/**
 * A named endpoint (`endpoint: "<name>"` on a resource): its settings from the stack config's
 * `secretops:endpoints.<name>` object, the same names as the stack's own (`apiUrl`, `token`, …).
 * Its token is stack config (a secret there): it never enters a resource's inputs or state, so a
 * rotated token is used by the next refresh and destroy too.
 */
function namedSource(config: ConfigReader | undefined, name: string): SettingsSource {
  const raw = config?.get(ENDPOINTS_KEY);
  let all: unknown;
  try {
    all = raw ? JSON.parse(raw) : undefined;
  } catch {
    throw new Error(
      `${ENDPOINTS_KEY} must be an object of endpoints by name (set it with \`pulumi config set --path\`)`,
    );
  }
  const entry = isPlainObject(all) && Object.hasOwn(all, name) ? all[name] : undefined;
  if (!isPlainObject(entry)) {
    const known = isPlainObject(all) ? Object.keys(all) : [];
    throw new Error(
      `no endpoint "${name}" in the stack config${known.length ? ` (it has ${known.join(", ")})` : ""}: ` +
        `set \`pulumi config set --path '${ENDPOINTS_KEY}.${name}.apiUrl' <url>\` and ` +
        `\`pulumi config set --secret --path '${ENDPOINTS_KEY}.${name}.token' <token>\``,
    );
  }
  const fields = entry;
  return {
    name,
    get: (setting) => {
      const v = fields[setting];
      return v === undefined || v === null || v === "" ? undefined : String(v);
    },
  };
}

/** The settings of the stack's endpoint, or of the named one. */
function sourceOf(config: ConfigReader | undefined, endpoint: string | undefined): SettingsSource {
  return endpoint === undefined ? defaultSource(config) : namedSource(config, endpoint);
}

/** How a setting is named to the user: its config key (and, for the stack's own, its variables). */
function keyOf(source: SettingsSource, name: SettingName): string {
  return source.name === undefined ? settingSources[name].key : `${ENDPOINTS_KEY}.${source.name}.${name}`;
}

function numberSetting(source: SettingsSource, name: SettingName): number | undefined {
  const raw = source.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${keyOf(source, name)} must be a positive number`);
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
function checkApiUrl(apiUrl: string, source: SettingsSource): void {
  const key = keyOf(source, "apiUrl");
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new Error(`${key} must be an https URL (for example https://app.infisical.com)`);
  }
  if (url.protocol === "https:") return;
  if (url.protocol !== "http:") throw new Error(`${key} must be an https URL, not ${url.protocol}`);
  if (isLoopback(url.hostname) || source.get("allowInsecureHttp") === "true") return;
  const optIn = settingSources.allowInsecureHttp;
  const how =
    source.name === undefined
      ? `\`pulumi config set ${optIn.key} true\` (or ${optIn.env.join(" / ")}=true)`
      : `\`pulumi config set --path '${keyOf(source, "allowInsecureHttp")}' true\``;
  throw new Error(
    `${key} uses plain http for ${url.hostname}, which would send the token unencrypted across the network: ` +
      `use https, or, on a network you trust, set ${how}. ` +
      `Plain http is accepted without it only for loopback hosts (the emulator).`,
  );
}

/** The settings of the stack's endpoint, or of the endpoint named `endpoint` in `secretops:endpoints`. */
export function providerSettings(config: ConfigReader | undefined, endpoint?: string): ProviderSettings {
  const source = sourceOf(config, endpoint);
  const apiUrl = source.get("apiUrl");
  if (!apiUrl) {
    throw new Error(
      source.name === undefined
        ? "no API endpoint configured: set `pulumi config set secretops:apiUrl <url>` " +
            "(or SECRETOPS_API_URL / INFISICAL_HOST in the environment)"
        : `no API endpoint configured for endpoint "${source.name}": set \`pulumi config set --path '${keyOf(source, "apiUrl")}' <url>\``,
    );
  }
  checkApiUrl(apiUrl, source);
  return {
    apiUrl,
    token: source.get("token"),
    clientId: source.get("clientId"),
    clientSecret: source.get("clientSecret"),
    identityId: source.get("identityId"),
    authMethod: source.get("authMethod"),
    oidcToken: source.get("oidcToken"),
    oidcTokenFile: source.get("oidcTokenFile"),
    oidcAudience: source.get("oidcAudience"),
    kubernetesTokenPath: source.get("kubernetesTokenPath"),
    readsPerMinute: numberSetting(source, "readsPerMinute"),
    writesPerMinute: numberSetting(source, "writesPerMinute"),
    secretsPerMinute: numberSetting(source, "secretsPerMinute"),
    timeoutMs: numberSetting(source, "timeoutMs"),
  };
}

/**
 * What is wrong with a resource's named endpoint, if anything (`check` reports it, so a preview
 * fails on it without sending anything).
 */
export function endpointProblem(endpoint: string): string | undefined {
  try {
    const source = namedSource(configured, endpoint);
    const apiUrl = source.get("apiUrl");
    if (!apiUrl)
      return `no API endpoint configured for endpoint "${endpoint}": set \`pulumi config set --path '${keyOf(source, "apiUrl")}' <url>\``;
    checkApiUrl(apiUrl, source);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const namedClients = new Map<string, SecretOpsClient>();

/**
 * One SDK client per endpoint per provider process, built on first use (check and diff never need
 * one): the stack's, or a named endpoint's (each with its own rate-limit budget).
 */
export function apiClient(endpoint?: string): SecretOpsClient {
  if (endpoint === undefined) {
    client ??= clientFrom(configured);
    return client;
  }
  let named = namedClients.get(endpoint);
  if (!named) {
    named = clientFrom(configured, endpoint);
    namedClients.set(endpoint, named);
  }
  return named;
}

/** A client for the given stack config (and the environment), for its endpoint or a named one. */
export function clientFrom(config: ConfigReader | undefined, endpoint?: string): SecretOpsClient {
  // Loaded here, not at the top, so that check/diff in the provider process stay cheap.
  const { SecretOpsClient }: typeof import("../sdk/client") = require("../sdk/client");
  const s = providerSettings(config, endpoint);
  const options = {
    timeoutMs: s.timeoutMs,
    userAgent: "secretops-pulumi",
    // Caps only when set: otherwise the budget the service advertises (sdk/throttle.ts).
    rateLimit: {
      readsPerMinute: s.readsPerMinute,
      writesPerMinute: s.writesPerMinute,
      secretsPerMinute: s.secretsPerMinute,
    },
  };
  if (s.token) return new SecretOpsClient({ baseUrl: s.apiUrl, token: s.token }, options);
  if (s.clientId && s.clientSecret) {
    return new SecretOpsClient(
      { baseUrl: s.apiUrl, universalAuth: { clientId: s.clientId, clientSecret: s.clientSecret } },
      options,
    );
  }
  const jwt = jwtLoginFrom(s, endpoint);
  if (jwt) {
    const credentials = { identityId: jwt.identityId, jwt: jwt.jwt };
    return new SecretOpsClient(
      jwt.method === "oidc-auth"
        ? { baseUrl: s.apiUrl, oidcAuth: credentials }
        : { baseUrl: s.apiUrl, kubernetesAuth: credentials },
      options,
    );
  }
  if (endpoint !== undefined) {
    const at = `${ENDPOINTS_KEY}.${endpoint}`;
    throw new Error(
      `no credentials configured for endpoint "${endpoint}": set \`pulumi config set --secret --path '${at}.token' <token>\`, ` +
        `or '${at}.clientId' and (with --secret) '${at}.clientSecret' for universal auth, ` +
        `or '${at}.identityId' for an OIDC or Kubernetes login`,
    );
  }
  throw new Error(
    "no credentials configured: set `pulumi config set --secret secretops:token <token>`, or " +
      "secretops:clientId and `--secret secretops:clientSecret` for universal auth " +
      "(or SECRETOPS_TOKEN / INFISICAL_TOKEN, INFISICAL_UNIVERSAL_AUTH_CLIENT_ID / _SECRET), " +
      "or secretops:identityId (or SECRETOPS_IDENTITY_ID / INFISICAL_MACHINE_IDENTITY_ID) for an OIDC or Kubernetes login",
  );
}

/** The login methods a JWT login may name (`authMethod`), and the Terraform provider's names for them. */
const authMethods: Record<string, "oidc-auth" | "kubernetes-auth"> = {
  "oidc-auth": "oidc-auth",
  "kubernetes-auth": "kubernetes-auth",
  // INFISICAL_AUTH_METHOD's values (terraform-provider-infisical, internal/provider/provider.go).
  oidc: "oidc-auth",
  kubernetes: "kubernetes-auth",
};

/** An OIDC or Kubernetes login, as clientFrom hands it to the SDK; `from` says where its JWT is read. */
export interface JwtLogin {
  method: "oidc-auth" | "kubernetes-auth";
  identityId: string;
  jwt: JwtSource;
  from: string;
}

/**
 * The OIDC or Kubernetes login the settings give, if any; undefined when none of its settings is
 * set. clientFrom asks for it only without a token or universal-auth credentials (which come first).
 *
 * The method is `authMethod` when set. Otherwise it is inferred: an OIDC JWT set (`oidcToken`,
 * `oidcTokenFile`) means OIDC, `kubernetesTokenPath` Kubernetes (both: ambiguous, refused); with
 * neither, a GitHub Actions job that may ask for an id token (ACTIONS_ID_TOKEN_REQUEST_URL and
 * _TOKEN) means OIDC, else a pod (KUBERNETES_SERVICE_HOST) Kubernetes with the mounted token.
 * An OIDC JWT is `oidcToken`, else read from `oidcTokenFile`, else asked from GitHub Actions
 * (with `oidcAudience`), at each login. Errors name the settings, never a value but `authMethod`'s.
 */
export function jwtLoginFrom(
  s: ProviderSettings,
  endpoint?: string,
  env: Record<string, string | undefined> = process.env,
): JwtLogin | undefined {
  const { GITHUB_ID_TOKEN_ENV, KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH, githubActionsIdToken, jwtFromFile } =
    require("../sdk/jwt-sources") as typeof import("../sdk/jwt-sources");
  const key = (name: SettingName) =>
    endpoint === undefined ? settingSources[name].key : `${ENDPOINTS_KEY}.${endpoint}.${name}`;
  /** How to set a setting: the command, and for the stack's own its variables. */
  const how = (name: SettingName, value: string, secret = false) => {
    const flags = `${secret ? "--secret " : ""}${endpoint === undefined ? "" : "--path "}`;
    const k = endpoint === undefined ? key(name) : `'${key(name)}'`;
    const vars = endpoint === undefined ? ` (or ${settingSources[name].env.join(" / ")})` : "";
    return `\`pulumi config set ${flags}${k} ${value}\`${vars}`;
  };
  const jwtSources =
    `${how("oidcToken", "<jwt>", true)}, ${how("oidcTokenFile", "<path>")}, or run in a GitHub Actions job ` +
    `with \`permissions: id-token: write\` (${GITHUB_ID_TOKEN_ENV.url} and ${GITHUB_ID_TOKEN_ENV.token})`;

  const oidcSet = s.oidcToken !== undefined || s.oidcTokenFile !== undefined;
  const kubernetesSet = s.kubernetesTokenPath !== undefined;
  if (s.identityId === undefined && s.authMethod === undefined && !oidcSet && !kubernetesSet) return undefined;

  let method: "oidc-auth" | "kubernetes-auth";
  if (s.authMethod !== undefined) {
    const named = Object.hasOwn(authMethods, s.authMethod) ? authMethods[s.authMethod] : undefined;
    if (!named) {
      throw new Error(
        `${key("authMethod")} must be oidc-auth or kubernetes-auth (or oidc, kubernetes), not "${s.authMethod}": ` +
          "a token and universal auth are chosen by their own settings",
      );
    }
    method = named;
  } else if (oidcSet && kubernetesSet) {
    throw new Error(
      `both an OIDC JWT (${s.oidcToken !== undefined ? key("oidcToken") : key("oidcTokenFile")}) and ` +
        `${key("kubernetesTokenPath")} are set: say which login to use with ${how("authMethod", "oidc-auth")} or kubernetes-auth`,
    );
  } else if (oidcSet) method = "oidc-auth";
  else if (kubernetesSet) method = "kubernetes-auth";
  else if (env[GITHUB_ID_TOKEN_ENV.url] && env[GITHUB_ID_TOKEN_ENV.token]) method = "oidc-auth";
  else if (env.KUBERNETES_SERVICE_HOST) method = "kubernetes-auth";
  else {
    throw new Error(
      `${key("identityId")} is set but no login can be chosen for it: set ${how("authMethod", "oidc-auth")} or ` +
        `kubernetes-auth, or give an OIDC JWT: ${jwtSources}; or ${how("kubernetesTokenPath", "<path>")} for a Kubernetes login`,
    );
  }

  if (s.identityId === undefined) {
    throw new Error(
      `${key("identityId")} is not set: the ${method} login needs the machine identity's id: ${how("identityId", "<identity id>")}`,
    );
  }
  if (method === "kubernetes-auth") {
    const file = s.kubernetesTokenPath ?? KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH;
    return { method, identityId: s.identityId, jwt: jwtFromFile(file), from: file };
  }
  if (s.oidcToken !== undefined) {
    const token = s.oidcToken;
    return { method, identityId: s.identityId, jwt: () => token, from: key("oidcToken") };
  }
  if (s.oidcTokenFile !== undefined) {
    return { method, identityId: s.identityId, jwt: jwtFromFile(s.oidcTokenFile), from: s.oidcTokenFile };
  }
  if (env[GITHUB_ID_TOKEN_ENV.url] && env[GITHUB_ID_TOKEN_ENV.token]) {
    return {
      method,
      identityId: s.identityId,
      jwt: githubActionsIdToken({ audience: s.oidcAudience, env }),
      from: "GitHub Actions",
    };
  }
  throw new Error(`${key("authMethod")} is oidc-auth but no JWT is configured: set ${jwtSources}`);
}
