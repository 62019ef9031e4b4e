/**
 * Where each setting is read from: a module of its own, with nothing to import, because the
 * package's entry exports it to programs, whose type-check should load no more than they use.
 */

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
  secretsPerMinute: { key: "secretops:secretsPerMinute", env: ["SECRETOPS_SECRETS_PER_MINUTE"] },
  timeoutMs: { key: "secretops:timeoutMs", env: ["SECRETOPS_TIMEOUT_MS"] },
  allowInsecureHttp: { key: "secretops:allowInsecureHttp", env: ["SECRETOPS_ALLOW_INSECURE_HTTP"] },
} as const;
