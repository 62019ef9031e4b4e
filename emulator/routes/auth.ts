import { randomUUID, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  authOperations,
  type EventType,
  identityAuthMethods,
  identityJwtLogin,
  type IdentityAuthMethodRow,
  type UniversalAuthToken,
} from "../../sdk/schemas";
import { recordEvent, type EmulatorContext } from "../context";
import { ApiError, forbidden, unauthorized } from "../errors";
import { sha256Hex } from "../hashing";
import { jwtLogins, notConfigured } from "../identity-login";
import { isTrustedIp, UNTRUSTED_IP } from "../identity-records";
import { route } from "../route-registration";
import type { Identity, StoredIdentityAuth, StoredTrustedIp } from "../types";

const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const LOCKED = "This identity auth method is temporarily locked, please try again later";

/**
 * The logins (docs/service-api.md §7, §18): universal auth's client id and secret
 * (identity-ua-service.ts `login`), and each method whose row logs in with a JWT.
 */
export function registerAuthRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, authOperations.universalAuthLogin, async (req) => universalAuthLogin(ctx, req, req.body));
  for (const row of Object.values(identityAuthMethods) as IdentityAuthMethodRow[]) {
    if (row.login !== "identity-jwt") continue;
    const login = jwtLogins[row.method];
    if (!login) throw new Error(`no login verifier for identity auth method ${row.method}`);
    route(app, identityJwtLogin(row), async (req) => {
      const auth = ctx.store.identityAuth(req.body.identityId, row.method);
      if (!auth) throw notConfigured(row.method);
      const identity = ctx.store.identities.get(auth.identityId)!;
      const actor = { identity, orgId: identity.orgId };
      const meta = { identityId: identity.id, identityAuthId: auth.id };
      let details: Record<string, unknown>;
      try {
        details = await login.verify(auth, req.body.jwt);
      } catch (e) {
        if (e instanceof ApiError && e.statusCode === 401)
          recordEvent(ctx, req, actor, `login-identity-${row.method}-failed` as EventType, meta);
        throw e;
      }
      recordEvent(ctx, req, actor, `login-identity-${row.method}` as EventType, {
        ...meta,
        ...(row.method === "kubernetes-auth" && details),
      });
      return issue(ctx, identity, auth, row.method);
    });
  }
}

/** An access token of the auth's TTLs; the login is the identity's last. */
function issue(
  ctx: EmulatorContext,
  identity: Identity,
  auth: StoredIdentityAuth,
  method: string,
  clientSecretId?: string,
) {
  const f = auth.fields as {
    accessTokenTTL: number;
    accessTokenMaxTTL: number;
    accessTokenNumUsesLimit: number;
    accessTokenPeriod?: number;
  };
  // A periodic token (universal auth's accessTokenPeriod): its period is its TTL, renewed without a max.
  const period = f.accessTokenPeriod ?? 0;
  const ttl = period > 0 ? period : f.accessTokenTTL;
  const now = new Date().toISOString();
  const token = ctx.store.issueAccessToken(identity.id, ttl, {
    id: randomUUID(),
    authMethod: method,
    clientSecretId: clientSecretId ?? null,
    accessTokenTTL: ttl,
    accessTokenMaxTTL: f.accessTokenMaxTTL,
    accessTokenNumUsesLimit: f.accessTokenNumUsesLimit,
    createdAt: now,
  });
  identity.lastLoginAuthMethod = method;
  identity.lastLoginTime = now;
  return {
    accessToken: token.token,
    expiresIn: ttl,
    accessTokenMaxTTL: period > 0 ? 1000000000 : f.accessTokenMaxTTL,
    tokenType: "Bearer" as const,
  };
}

/**
 * Universal auth's login, in the service's order: the client id, the lockout, the secret among
 * those not revoked with its prefix (a failure counts toward the lockout), then its TTL and its
 * use limit (either revokes it), then one more use and a token.
 */
async function universalAuthLogin(
  ctx: EmulatorContext,
  req: FastifyRequest,
  body: { clientId: string; clientSecret: string },
): Promise<UniversalAuthToken> {
  const { store } = ctx;
  const auth = [...store.identityAuths.values()].find(
    (a) => a.method === "universal-auth" && a.fields.clientId === body.clientId,
  );
  if (!auth) throw unauthorized("Invalid credentials");
  const identity = store.identities.get(auth.identityId)!;
  const actor = { identity, orgId: identity.orgId };
  const meta = { identityId: identity.id, clientId: body.clientId };
  if (!isTrustedIp(req.ip, auth.fields.clientSecretTrustedIps as StoredTrustedIp[])) throw forbidden(UNTRUSTED_IP);
  const fail = (message: string) => {
    recordEvent(ctx, req, actor, "login-identity-universal-auth-failed", meta);
    return unauthorized(message);
  };
  const f = auth.fields as {
    lockoutEnabled: boolean;
    lockoutThreshold: number;
    lockoutDurationSeconds: number;
    lockoutCounterResetSeconds: number;
  };
  const key = `lockout:identity:${identity.id}:universal-auth:${body.clientId}`;
  let lockout = store.lockouts.get(key);
  if (lockout && lockout.expiresAt <= Date.now()) {
    store.lockouts.delete(key);
    lockout = undefined;
  }
  if (lockout?.lockedOut) throw fail(LOCKED);

  const hash = sha256Hex(body.clientSecret);
  const secret = [...store.clientSecrets.values()].find(
    (c) =>
      c.identityUAId === auth.id &&
      !c.isClientSecretRevoked &&
      c.clientSecretPrefix === body.clientSecret.slice(0, 4) &&
      sameHash(c.clientSecretHash, hash),
  );
  if (!secret) {
    if (f.lockoutEnabled) {
      const failedAttempts = (lockout?.failedAttempts ?? 0) + 1;
      const lockedOut = failedAttempts >= f.lockoutThreshold;
      const seconds = lockedOut ? f.lockoutDurationSeconds : f.lockoutCounterResetSeconds;
      store.lockouts.set(key, { failedAttempts, lockedOut, expiresAt: Date.now() + seconds * 1000 });
    }
    throw fail("Invalid credentials");
  }
  if (lockout) store.lockouts.delete(key);

  const now = Date.now();
  if (secret.clientSecretTTL > 0 && now > Date.parse(secret.createdAt) + secret.clientSecretTTL * 1000) {
    secret.isClientSecretRevoked = true;
    ctx.changed();
    throw fail("Access denied due to expired client secret");
  }
  if (secret.clientSecretNumUsesLimit > 0 && secret.clientSecretNumUses >= secret.clientSecretNumUsesLimit) {
    secret.isClientSecretRevoked = true;
    ctx.changed();
    throw fail("Access denied due to client secret usage limit reached");
  }
  secret.clientSecretNumUses += 1;
  const answer = issue(ctx, identity, auth, "universal-auth", secret.id);
  recordEvent(ctx, req, actor, "login-identity-universal-auth", { ...meta, clientSecretId: secret.id });
  return answer;
}
