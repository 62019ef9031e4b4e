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
  // OIDC and Kubernetes logins (provider/config.ts, jwtLoginFrom). The INFISICAL_* names are those
  // of the service's Terraform provider (internal/client/constants.go) and CLI.
  identityId: { key: "secretops:identityId", env: ["SECRETOPS_IDENTITY_ID", "INFISICAL_MACHINE_IDENTITY_ID"] },
  authMethod: { key: "secretops:authMethod", env: ["SECRETOPS_AUTH_METHOD", "INFISICAL_AUTH_METHOD"] },
  oidcToken: { key: "secretops:oidcToken", env: ["SECRETOPS_OIDC_TOKEN", "INFISICAL_AUTH_JWT"] },
  oidcTokenFile: { key: "secretops:oidcTokenFile", env: ["SECRETOPS_OIDC_TOKEN_FILE"] },
  oidcAudience: { key: "secretops:oidcAudience", env: ["SECRETOPS_OIDC_AUDIENCE"] },
  kubernetesTokenPath: {
    key: "secretops:kubernetesTokenPath",
    env: ["SECRETOPS_KUBERNETES_TOKEN_PATH", "INFISICAL_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH"],
  },
  readsPerMinute: { key: "secretops:readsPerMinute", env: ["SECRETOPS_READS_PER_MINUTE"] },
  writesPerMinute: { key: "secretops:writesPerMinute", env: ["SECRETOPS_WRITES_PER_MINUTE"] },
  secretsPerMinute: { key: "secretops:secretsPerMinute", env: ["SECRETOPS_SECRETS_PER_MINUTE"] },
  timeoutMs: { key: "secretops:timeoutMs", env: ["SECRETOPS_TIMEOUT_MS"] },
  allowInsecureHttp: { key: "secretops:allowInsecureHttp", env: ["SECRETOPS_ALLOW_INSECURE_HTTP"] },
} as const;

/** The settings that hold a credential: secret in stack config, never plain (provider/program-side.ts). */
export const secretSettingNames = ["token", "clientSecret", "oidcToken"] as const;
