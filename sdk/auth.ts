import type { UniversalAuthToken } from "./schemas";

/**
 * Where the bearer token comes from (docs/service-api.md §7: every endpoint takes `Authorization: Bearer`).
 * The token lives in a #private field: util.inspect, JSON.stringify and enumeration of a client
 * never show it.
 */

export interface UniversalAuthCredentials {
  clientId: string;
  clientSecret: string;
  /** Optional, passed through to the login (docs/service-api.md §7). */
  subOrganizationName?: string;
}

/**
 * Where a login's JWT comes from: called at each login (the first, and every renewal), so a file a
 * CI system or the kubelet rotates, or a CI system's token endpoint, gives a fresh one each time.
 * The JWT is sent only in the login body; it is never kept by the client.
 */
export type JwtSource = () => Promise<string> | string;

/** A login that sends a JWT the caller was given: OIDC (a CI system's id token) or Kubernetes. */
export interface JwtLoginCredentials {
  /** The machine identity's id. */
  identityId: string;
  /** The JWT, read at each login (sdk/jwt-sources.ts has a file's, GitHub Actions' and a pod's). */
  jwt: JwtSource;
}

export type SecretOpsAuth =
  | { baseUrl: string; token: string }
  | { baseUrl: string; universalAuth: UniversalAuthCredentials }
  | { baseUrl: string; oidcAuth: JwtLoginCredentials }
  | { baseUrl: string; kubernetesAuth: JwtLoginCredentials };

export interface TokenSource {
  /** A token that is valid now (logging in or renewing first if needed). */
  token(): Promise<string>;
  /**
   * The service rejected `token` (401, or 403 TokenError). Returns true if a fresh token can be
   * obtained, so the request is worth repeating once.
   */
  rejected(token: string): boolean;
}

/** A fixed token (user JWT or machine identity token): nothing to renew. */
export class StaticToken implements TokenSource {
  readonly #token: string;
  constructor(token: string) {
    this.#token = token;
  }
  async token(): Promise<string> {
    return this.#token;
  }
  rejected(): boolean {
    return false;
  }
}

/** What a login returns to callers of `client.login()`: everything but the token itself. */
export interface LoginInfo {
  expiresIn: number;
  accessTokenMaxTTL: number;
  tokenType: "Bearer";
  /** When the SDK will log in again (renewAtFraction of expiresIn). */
  renewAt: Date;
}

/**
 * A login session, whatever the login (universal auth, OIDC, Kubernetes): logs in on first use,
 * caches the access token and renews it once `renewAtFraction` (default 0.8) of its lifetime has
 * passed, so a long `pulumi up` never sends an expired token. Concurrent callers share one login
 * (single flight). The login function holds the credentials (or reads the JWT); the session only
 * ever holds the access token, in #private fields.
 */
export class LoginSession implements TokenSource {
  #current: { accessToken: string; renewAt: number; info: LoginInfo } | undefined;
  #inflight: Promise<{ accessToken: string; info: LoginInfo }> | undefined;
  readonly #doLogin: () => Promise<UniversalAuthToken>;
  readonly #renewAtFraction: number;
  readonly #now: () => number;

  constructor(doLogin: () => Promise<UniversalAuthToken>, renewAtFraction = 0.8, now: () => number = Date.now) {
    this.#doLogin = doLogin;
    this.#renewAtFraction = renewAtFraction;
    this.#now = now;
  }

  async token(): Promise<string> {
    const current = this.#current;
    if (current && this.#now() < current.renewAt) return current.accessToken;
    return (await this.login()).accessToken;
  }

  /** Log in now (or join a login in progress). */
  async login(): Promise<{ accessToken: string; info: LoginInfo }> {
    if (!this.#inflight) {
      this.#inflight = (async () => {
        try {
          const started = this.#now();
          const t = await this.#doLogin();
          const renewAt = started + t.expiresIn * 1000 * this.#renewAtFraction;
          const info: LoginInfo = {
            expiresIn: t.expiresIn,
            accessTokenMaxTTL: t.accessTokenMaxTTL,
            tokenType: t.tokenType,
            renewAt: new Date(renewAt),
          };
          this.#current = { accessToken: t.accessToken, renewAt, info };
          return { accessToken: t.accessToken, info };
        } finally {
          this.#inflight = undefined;
        }
      })();
    }
    return this.#inflight;
  }

  rejected(token: string): boolean {
    // Only drop the cache if it still holds the rejected token: when several requests fail with
    // the same stale token at once, the first renewal serves them all.
    if (this.#current?.accessToken === token) this.#current = undefined;
    return true;
  }
}

/** The universal-auth session: a LoginSession whose login sends the client id and secret. */
export class UniversalAuthSession extends LoginSession {}
