import { createPublicKey, verify as verifySignature, type KeyObject } from "node:crypto";
import { badRequest, forbidden, notFound, unauthorized, ApiError } from "./errors";
import type { StoredIdentityAuth } from "./types";

/**
 * The logins that send a JWT (docs/service-api.md §18): OIDC, JWT auth and Kubernetes, each
 * checked as the service's `identity-<method>-service.ts` `login` checks it, with its words.
 * The emulator fetches from loopback URLs, as a self-hosted service with
 * ALLOW_INTERNAL_IP_CONNECTIONS does (its `blockLocalAndPrivateIpAddresses` lets them through
 * then). Signatures are checked with node:crypto (RS256/384/512, ES256/384/512).
 */

/** What a verified login gives: the claims (OIDC, JWT) or the service account (Kubernetes). */
export type LoginVerifier = (auth: StoredIdentityAuth, jwt: string) => Promise<Record<string, unknown>>;

const FETCH_TIMEOUT_MS = 10_000;

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const r = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!r.ok) throw new Error(`Request failed with status code ${r.status}`);
  return r.json();
}

// ---- JWT decoding and verification, as jsonwebtoken's `verify` reports them -------------------

class JwtError extends Error {}

interface DecodedJwt {
  header: { alg?: string; kid?: string };
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, "base64url").toString("utf8")) as DecodedJwt["header"];
    const payload = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    if (!header || typeof header !== "object" || !payload || typeof payload !== "object") return undefined;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2]!, "base64url") };
  } catch {
    return undefined;
  }
}

const algorithms: Record<string, { hash: string; type: "rsa" | "ec" }> = {
  RS256: { hash: "sha256", type: "rsa" },
  RS384: { hash: "sha384", type: "rsa" },
  RS512: { hash: "sha512", type: "rsa" },
  ES256: { hash: "sha256", type: "ec" },
  ES384: { hash: "sha384", type: "ec" },
  ES512: { hash: "sha512", type: "ec" },
};

/** jsonwebtoken's `verify(token, key, { issuer? })`: signature, `nbf`, `exp`, then the issuer. */
function verifyJwt(d: DecodedJwt, key: KeyObject, issuer?: string): Record<string, unknown> {
  const alg = algorithms[d.header.alg ?? ""];
  if (!alg || alg.type !== key.asymmetricKeyType) throw new JwtError("invalid algorithm");
  if (d.signature.length === 0) throw new JwtError("jwt signature is required");
  const ok = verifySignature(alg.hash, Buffer.from(d.signingInput), { key, dsaEncoding: "ieee-p1363" }, d.signature);
  if (!ok) throw new JwtError("invalid signature");
  const now = Math.floor(Date.now() / 1000);
  const { nbf, exp, iss } = d.payload;
  if (typeof nbf === "number" && nbf > now) throw new JwtError("jwt not active");
  if (typeof exp === "number" && exp <= now) throw new JwtError("jwt expired");
  if (issuer !== undefined && iss !== issuer) throw new JwtError(`jwt issuer invalid. expected: ${issuer}`);
  return d.payload;
}

function keyOf(source: object | string): KeyObject {
  return typeof source === "string"
    ? createPublicKey(source)
    : createPublicKey({ key: source as import("node:crypto").JsonWebKey, format: "jwk" });
}

async function jwksKeys(url: string): Promise<{ kid?: string; key: KeyObject }[]> {
  const doc = (await fetchJson(url)) as { keys?: ({ kid?: string; use?: string } & object)[] };
  return (doc.keys ?? [])
    .filter((k) => k.use === undefined || k.use === "sig")
    .map((k) => ({ kid: k.kid, key: keyOf(k) }));
}

// ---- glob matching of bound values -------------------------------------------------------------

/**
 * The service matches bound subjects, audiences and claims with `picomatch.isMatch(value,
 * pattern)` (services/identity-oidc-auth/identity-oidc-auth-fns.ts, identity-jwt-auth-fns.ts).
 * This is the part of picomatch those patterns use: `*` and `?` within a path segment (not `/`),
 * `**` across segments. [UNCONFIRMED] braces, brackets and picomatch's dotfile rule are not emulated.
 */
export function globMatch(value: string, pattern: string): boolean {
  if (value === pattern) return true;
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      re += ".*";
      i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`).test(value);
}

/** `doesFieldValueMatchOidcPolicy`: booleans and numbers by value, arrays by any entry, strings by glob. */
function fieldMatches(value: unknown, policy: string): boolean {
  if (typeof value === "boolean") return value === (policy === "true");
  if (typeof value === "number") return value === Number.parseInt(policy, 10);
  if (Array.isArray(value)) return value.some((v) => typeof v === "string" && globMatch(v, policy));
  return typeof value === "string" && globMatch(value, policy);
}

/** `getValueByDot`: a claim by a dotted path. */
function valueByDot(o: Record<string, unknown>, path: string): unknown {
  let v: unknown = o;
  for (const part of path.split(".")) v = v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

// ---- OIDC: identity-oidc-auth-service.ts ------------------------------------------------------

export const verifyOidcLogin: LoginVerifier = async (auth, jwt) => {
  const f = auth.fields as {
    oidcDiscoveryUrl: string;
    boundIssuer: string;
    boundSubject?: string;
    boundAudiences?: string;
    boundClaims?: Record<string, string>;
  };
  let jwksUri: string | undefined;
  try {
    const doc = (await fetchJson(`${f.oidcDiscoveryUrl}/.well-known/openid-configuration`)) as { jwks_uri?: string };
    jwksUri = doc.jwks_uri;
  } catch (e) {
    throw unauthorized(
      `Access denied: Failed to fetch OIDC discovery document from ${f.oidcDiscoveryUrl}. ${(e as Error).message}`,
    );
  }
  if (!jwksUri)
    throw unauthorized(
      "Access denied: OIDC discovery document does not contain a jwks_uri. The identity provider may be misconfigured.",
    );
  const decoded = decodeJwt(jwt);
  if (!decoded) throw unauthorized("Invalid JWT");
  const { kid } = decoded.header;
  let keys: { kid?: string; key: KeyObject }[];
  try {
    keys = await jwksKeys(jwksUri);
  } catch (e) {
    throw unauthorized(
      `Access denied: Failed to retrieve signing ${kid ? "key" : "keys"} from OIDC provider: ${(e as Error).message}`,
    );
  }
  let claims: Record<string, unknown> | undefined;
  if (kid) {
    const k = keys.find((x) => x.kid === kid);
    if (!k)
      throw unauthorized(
        `Access denied: Unable to verify JWT signature. The signing key '${kid}' was not found in the OIDC provider's JWKS endpoint. This may indicate an invalid token or misconfigured OIDC provider.`,
      );
    try {
      claims = verifyJwt(decoded, k.key, f.boundIssuer);
    } catch (e) {
      if (e instanceof JwtError) throw unauthorized(`Access denied: ${e.message}`);
      throw e;
    }
  } else {
    if (keys.length === 0)
      throw unauthorized("Access denied: No signing keys available from OIDC provider's JWKS endpoint.");
    if (keys.length > 10)
      throw unauthorized(
        `Access denied: OIDC provider has ${keys.length} signing keys. Tokens must include 'kid' header when provider has more than 10 keys.`,
      );
    let last: Error | undefined;
    for (const k of keys) {
      try {
        claims = verifyJwt(decoded, k.key, f.boundIssuer);
        break;
      } catch (e) {
        if (!(e instanceof JwtError)) throw e;
        last = e;
      }
    }
    if (!claims)
      throw unauthorized(
        `Access denied: Unable to verify JWT signature with any available signing key. ${last ? last.message : "Invalid token"}`,
      );
  }
  if (f.boundSubject && !fieldMatches(claims.sub, f.boundSubject))
    throw forbidden("Access denied: OIDC subject not allowed.");
  if (f.boundAudiences && !f.boundAudiences.split(", ").some((p) => fieldMatches(claims.aud, p)))
    throw unauthorized("Access denied: OIDC audience not allowed.");
  for (const [key, policy] of Object.entries(f.boundClaims ?? {})) {
    const value = valueByDot(claims, key);
    if (!value) throw unauthorized(`Access denied: token has no ${key} field`);
    if (!policy.split(", ").some((p) => fieldMatches(value, p)))
      throw unauthorized("Access denied: OIDC claim not allowed.");
  }
  return claims;
};

// ---- JWT auth: identity-jwt-auth-service.ts ---------------------------------------------------

export const verifyJwtAuthLogin: LoginVerifier = async (auth, jwt) => {
  const f = auth.fields as {
    configurationType: "jwks" | "static";
    jwksUrl?: string;
    publicKeys?: string[];
    boundIssuer?: string;
    boundSubject?: string;
    boundAudiences?: string;
    boundClaims?: Record<string, string>;
  };
  const decoded = decodeJwt(jwt);
  if (!decoded) throw unauthorized("Invalid JWT");
  let claims: Record<string, unknown> | undefined;
  if (f.configurationType === "jwks") {
    // The service lets a failed key fetch through unwrapped (a 500) [UNCONFIRMED: no test].
    // jwks-rsa's getSigningKey(kid): without a kid, the only key; its errors reach the error handler (a 500).
    const keys = await jwksKeys(f.jwksUrl ?? "");
    const { kid } = decoded.header;
    const k = kid ? keys.find((x) => x.kid === kid) : keys.length === 1 ? keys[0] : undefined;
    if (!k) throw new ApiError(500, "InternalServerError", "Something went wrong");
    try {
      claims = verifyJwt(decoded, k.key);
    } catch (e) {
      if (e instanceof JwtError) throw unauthorized(`Access denied: ${e.message}`);
      throw e;
    }
  } else {
    const errors: string[] = [];
    for (const pem of f.publicKeys ?? []) {
      let key: KeyObject;
      try {
        key = keyOf(pem);
      } catch {
        // [UNCONFIRMED] jsonwebtoken takes text that is no public key as a secret key, which an
        // asymmetric algorithm refuses with these words.
        errors.push(`secretOrPublicKey must be an asymmetric key when using ${decoded.header.alg}`);
        continue;
      }
      try {
        claims = verifyJwt(decoded, key);
      } catch (e) {
        if (e instanceof JwtError) errors.push(e.message);
      }
    }
    if (!claims)
      throw unauthorized(`Access denied: JWT verification failed with all keys. Errors - ${errors.join("; ")}`);
  }
  if (f.boundIssuer && claims.iss !== f.boundIssuer) throw forbidden("Access denied: issuer mismatch");
  if (f.boundSubject) {
    if (!claims.sub) throw unauthorized("Access denied: token has no subject field");
    if (!fieldMatches(claims.sub, f.boundSubject)) throw forbidden("Access denied: subject not allowed");
  }
  if (f.boundAudiences) {
    if (!claims.aud) throw unauthorized("Access denied: token has no audience field");
    if (!f.boundAudiences.split(", ").some((p) => fieldMatches(claims.aud, p)))
      throw unauthorized("Access denied: token audience not allowed");
  }
  for (const [key, policy] of Object.entries(f.boundClaims ?? {})) {
    const value = valueByDot(claims, key);
    if (!value) throw unauthorized(`Access denied: token has no ${key} field`);
    if (!policy.split(", ").some((p) => fieldMatches(value, p)))
      throw unauthorized(`Access denied: claim mismatch for field ${key}`);
  }
  return claims;
};

// ---- Kubernetes: identity-kubernetes-auth-service.ts ------------------------------------------

interface TokenReview {
  status?: { error?: string; authenticated?: boolean; user?: { username?: string }; audiences?: string[] };
}

/**
 * A TokenReview at `kubernetesHost` (mode `api`), with `tokenReviewerJwt` or the login's own JWT
 * as the bearer, then the namespace, name and audience rules. Mode `gateway` needs a gateway the
 * emulator does not run: a 400 saying so.
 */
export const verifyKubernetesLogin: LoginVerifier = async (auth, jwt) => {
  const f = auth.fields as {
    kubernetesHost?: string | null;
    tokenReviewerJwt?: string | null;
    tokenReviewMode?: string;
    allowedNamespaces?: string;
    allowedNames?: string;
    allowedAudience?: string;
  };
  if (f.tokenReviewMode === "gateway")
    throw badRequest("The emulator does not run gateways: Kubernetes auth in gateway mode cannot log in here");
  if (!f.kubernetesHost) throw badRequest("Kubernetes host is required when token review mode is set to API");
  let review: TokenReview;
  try {
    const r = await fetch(`${f.kubernetesHost.replace(/\/$/, "")}/apis/authentication.k8s.io/v1/tokenreviews`, {
      method: "POST",
      headers: { authorization: `Bearer ${f.tokenReviewerJwt || jwt}`, "content-type": "application/json" },
      body: JSON.stringify({
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: jwt, ...(f.allowedAudience && { audiences: [f.allowedAudience] }) },
      }),
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const body = (await r.json().catch(() => ({}))) as TokenReview & { message?: string };
    // [UNCONFIRMED] the words for a refused review call: the API server's own message.
    if (!r.ok) throw unauthorized(body.message ?? `Request failed with status code ${r.status}`);
    review = body;
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, "KubernetesAuthLoginError", (e as Error).message);
  }
  const status = review.status;
  if (status?.error) throw unauthorized(status.error);
  if (!status?.authenticated) throw unauthorized("Kubernetes token not authenticated");
  const [, , namespace = "", name = ""] = (status.user?.username ?? "").split(":");
  const list = (v: string | undefined) => (v ? v.split(",").map((s) => s.trim()) : []);
  if (f.allowedNamespaces && !list(f.allowedNamespaces).includes(namespace))
    throw unauthorized("Access denied: K8s namespace not allowed.");
  if (f.allowedNames && !list(f.allowedNames).includes(name))
    throw unauthorized("Access denied: K8s name not allowed.");
  if (f.allowedAudience && !(status.audiences ?? []).includes(f.allowedAudience))
    throw unauthorized("Access denied: K8s audience not allowed.");
  return { kubernetes: { namespace, name } };
};

/** The login of each method with a JWT login, and the service's 404 when the method is not attached. */
export const jwtLogins: Record<string, { verify: LoginVerifier; notConfigured: string }> = {
  "oidc-auth": {
    verify: verifyOidcLogin,
    notConfigured: "OIDC auth method not found for identity, did you configure OIDC auth?",
  },
  "jwt-auth": {
    verify: verifyJwtAuthLogin,
    notConfigured: "JWT auth method not found for identity, did you configure JWT auth?",
  },
  "kubernetes-auth": {
    verify: verifyKubernetesLogin,
    notConfigured: "Kubernetes auth method not found for identity, did you configure Kubernetes auth?",
  },
};

export const notConfigured = (method: string) => notFound(jwtLogins[method]!.notConfigured);
