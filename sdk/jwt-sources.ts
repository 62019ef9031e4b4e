import { readFile } from "node:fs/promises";
import type { JwtSource } from "./auth";
import { SecretOpsError } from "./errors";

/**
 * Where the JWT of an OIDC or Kubernetes login comes from (`oidcAuth.jwt`, `kubernetesAuth.jwt`).
 * Each source is read at each login, never once at start: CI systems and the kubelet rotate the
 * token they give, and a long `pulumi up` renews its login. No error here holds a JWT or the
 * bearer token of GitHub's endpoint: only file paths, variable names and HTTP statuses.
 */

/** Where the kubelet mounts a pod's service-account token (projected, rotated in place). */
export const KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH = "/var/run/secrets/kubernetes.io/serviceaccount/token";

/** The JWT in a file (trimmed), read at each login. */
export function jwtFromFile(path: string): JwtSource {
  return async () => {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new SecretOpsError(`cannot read the JWT file ${path}${code ? ` (${code})` : ""}`);
    }
    const jwt = text.trim();
    if (!jwt) throw new SecretOpsError(`the JWT file ${path} is empty`);
    return jwt;
  };
}

/** A pod's service-account token (default: where the kubelet mounts it), read at each login. */
export function kubernetesServiceAccountToken(path: string = KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH): JwtSource {
  return jwtFromFile(path);
}

/** The variables a GitHub Actions job has when its workflow grants `permissions: id-token: write`. */
export const GITHUB_ID_TOKEN_ENV = {
  url: "ACTIONS_ID_TOKEN_REQUEST_URL",
  token: "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
} as const;

/** Whether this process runs in a GitHub Actions job that may ask for an id token. */
export function hasGithubActionsIdToken(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env[GITHUB_ID_TOKEN_ENV.url] && env[GITHUB_ID_TOKEN_ENV.token]);
}

/**
 * GitHub Actions' OIDC id token for this job, asked for at each login: `GET
 * $ACTIONS_ID_TOKEN_REQUEST_URL&audience=<audience>` with `Authorization: Bearer
 * $ACTIONS_ID_TOKEN_REQUEST_TOKEN`, answered `{ "value": "<jwt>" }` (GitHub's "Configuring OpenID
 * Connect in cloud providers"; @actions/core's `getIDToken` does the same). Without `audience`
 * GitHub uses its default (the URL of the repository's owner); the identity's OIDC auth must
 * list the audience it is given. The variables are read at each call, so a source made before
 * they are set works once they are.
 */
export function githubActionsIdToken(
  options: { audience?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): JwtSource {
  return async () => {
    const env = options.env ?? process.env;
    const requestUrl = env[GITHUB_ID_TOKEN_ENV.url];
    const requestToken = env[GITHUB_ID_TOKEN_ENV.token];
    if (!requestUrl || !requestToken) {
      throw new SecretOpsError(
        `no GitHub Actions id token: ${GITHUB_ID_TOKEN_ENV.url} and ${GITHUB_ID_TOKEN_ENV.token} are not set ` +
          "(the job needs `permissions: id-token: write`)",
      );
    }
    let url: URL;
    try {
      url = new URL(requestUrl);
    } catch {
      throw new SecretOpsError(`${GITHUB_ID_TOKEN_ENV.url} is not a URL`);
    }
    if (options.audience) url.searchParams.set("audience", options.audience);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: `Bearer ${requestToken}`, Accept: "application/json" },
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (e) {
      // The cause's message names the host at most; never the request token.
      const cause = e instanceof Error ? (e.name === "TimeoutError" ? "timed out" : e.message) : String(e);
      throw new SecretOpsError(`GitHub Actions' id-token endpoint (${url.host}) could not be reached: ${cause}`);
    }
    if (!response.ok) {
      throw new SecretOpsError(`GitHub Actions' id-token endpoint (${url.host}) answered ${response.status}`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    const value = (body as { value?: unknown } | undefined)?.value;
    if (typeof value !== "string" || !value) {
      throw new SecretOpsError(`GitHub Actions' id-token endpoint (${url.host}) answered without a token ("value")`);
    }
    return value;
  };
}
