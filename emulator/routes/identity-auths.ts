import { randomBytes, randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import {
  clientSecretOperations,
  type EventType,
  identityAuthMethods,
  identityAuthOperations,
  identityAuthRules,
  type IdentityAuthMethodRow,
  ipAllowlistingRefusal,
  isAnywhere,
  tokenAuthOperations,
} from "../../sdk/schemas";
import { actorOf, recordEvent, requireProject, subjects, type EmulatorContext } from "../context";
import { badRequest, notFound, validationIssue } from "../errors";
import { authView, clientSecretView, newClientSecret, storedFields, tokenDataView } from "../identity-records";
import { routeOperations, type OperationRequest, type ScopedHandlers } from "../route-registration";
import { authKey } from "../store";
import { revokeIdentityAuth } from "../cascades";
import type { Actor, Identity, StoredIdentityAuth } from "../types";
import { findOrgIdentity } from "./identities";

/**
 * An identity's login methods (docs/service-api.md §18), one row of `identityAuthMethods` each:
 * attach, read, update and revoke at `/api/v1/auth/<method>/identities/:identityId`
 * (identity-<method>-router.ts and its service), universal auth's client secrets, and token
 * auth's tokens.
 */
export function registerIdentityAuthRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  for (const row of Object.values(identityAuthMethods) as IdentityAuthMethodRow[])
    routeOperations(app, identityAuthOperations(row), methodHandlers(row), ctx);
  routeOperations(app, clientSecretOperations, clientSecretHandlers, ctx);
  routeOperations(app, tokenAuthOperations, tokenHandlers, ctx);
}

/**
 * The identity, in the caller's organization; a project's identity only to those its project allows
 * the action on it: `edit` to attach or update a method, `revoke-auth` to revoke one, `get-token`,
 * `create-token`, `delete-token` for its client secrets and tokens (`subject(Identity, { identityId })`
 * in each method's service, e.g. identity-ua-service.ts and identity-kubernetes-auth-service.ts).
 */
function identityFor(ctx: EmulatorContext, actor: Actor, id: string, action: string): Identity {
  const i = findOrgIdentity(ctx, actor, id);
  if (i.projectId !== null) requireProject(ctx, actor, i.projectId, action, subjects.identities, { identityId: i.id });
  return i;
}

function attached(ctx: EmulatorContext, row: IdentityAuthMethodRow, identityId: string): StoredIdentityAuth {
  const a = ctx.store.identityAuth(identityId, row.method);
  if (!a) throw row.notAttachedStatus === 404 ? notFound(row.notAttachedMessage) : badRequest(row.notAttachedMessage);
  return a;
}

/**
 * The service's checks of an attach or update body after its schema: the plan's IP allowlisting
 * (only anywhere without it; universal auth says "service token"), each IP valid, and the
 * method's own attach rules (its router's superRefine: a 422).
 */
function checkBody(ctx: EmulatorContext, row: IdentityAuthMethodRow, body: Record<string, unknown>, attach: boolean) {
  if (!ctx.plan.ipAllowlisting) {
    for (const field of row.trustedIpFields) {
      const ips = body[field] as { ipAddress: string }[] | undefined;
      if (ips?.some((e) => !isAnywhere(e.ipAddress))) throw badRequest(ipAllowlistingRefusal(row));
    }
  }
  const issues = identityAuthRules(row, attach)(body);
  const ipIssue = issues.find((i) => i.message === "The IP is not a valid IPv4, IPv6, or CIDR block");
  if (ipIssue) throw badRequest(ipIssue.message);
  const [issue] = issues;
  if (issue) throw validationIssue(issue.path.split("."), issue.message);
}

/** `Access token TTL cannot be greater than max TTL`, on the values the auth would have. */
function checkTtl(ttl: unknown, max: unknown): void {
  if (typeof ttl === "number" && typeof max === "number" && max > 0 && ttl > max)
    throw badRequest("Access token TTL cannot be greater than max TTL");
}

const eventOf = (verb: string, row: IdentityAuthMethodRow) => `${verb}-identity-${row.method}` as EventType;

type MethodOps = ReturnType<typeof identityAuthOperations>;

function methodHandlers(row: IdentityAuthMethodRow) {
  type Req<K extends keyof MethodOps> = OperationRequest<MethodOps[K]>;
  // Only the GET answers the secrets of a method whose other answers leave them out.
  const answer = (a: StoredIdentityAuth, omitSecrets = row.secretsOnlyOnGet ?? false) => ({
    [row.responseKey]: authView(a, omitSecrets),
  });
  const meta = (a: StoredIdentityAuth) => ({ identityId: a.identityId, identityAuthId: a.id });
  const handlers: ScopedHandlers<EmulatorContext, MethodOps> = {
    async attach(ctx, req: Req<"attach">) {
      const actor = actorOf(req);
      const i = identityFor(ctx, actor, req.params.identityId, "edit");
      const body = req.body as Record<string, unknown>;
      if (ctx.store.identityAuth(i.id, row.method)) throw badRequest(row.alreadyAttachedMessage);
      checkTtl(body.accessTokenTTL, body.accessTokenMaxTTL);
      checkBody(ctx, row, body, true);
      const now = new Date().toISOString();
      const a: StoredIdentityAuth = {
        id: randomUUID(),
        identityId: i.id,
        method: row.method,
        // Universal auth's client id: a random UUID made on attach (identity-ua-service.ts).
        fields: { ...(row.method === "universal-auth" && { clientId: randomUUID() }), ...storedFields(row, body) },
        createdAt: now,
        updatedAt: now,
      };
      ctx.store.identityAuths.set(authKey(i.id, row.method), a);
      recordEvent(ctx, req, actor, eventOf("add", row), meta(a), i.projectId);
      return answer(a);
    },
    async get(ctx, req: Req<"get">) {
      const actor = actorOf(req);
      const i = identityFor(ctx, actor, req.params.identityId, "read");
      const a = attached(ctx, row, i.id);
      recordEvent(ctx, req, actor, eventOf("get", row), meta(a), i.projectId);
      return answer(a, false);
    },
    async update(ctx, req: Req<"update">) {
      const actor = actorOf(req);
      const i = identityFor(ctx, actor, req.params.identityId, "edit");
      const a = attached(ctx, row, i.id);
      const body = req.body as Record<string, unknown>;
      checkTtl(body.accessTokenTTL ?? a.fields.accessTokenTTL, body.accessTokenMaxTTL ?? a.fields.accessTokenMaxTTL);
      checkBody(ctx, row, body, false);
      Object.assign(a.fields, storedFields(row, body));
      a.updatedAt = ctx.store.writeTime(a);
      recordEvent(ctx, req, actor, eventOf("update", row), meta(a), i.projectId);
      return answer(a);
    },
    /** Revoking a method takes its client secrets, its lockouts, and the access tokens it issued. */
    async revoke(ctx, req: Req<"revoke">) {
      const actor = actorOf(req);
      const i = identityFor(ctx, actor, req.params.identityId, "revoke-auth");
      const a = attached(ctx, row, i.id);
      revokeIdentityAuth(ctx.store, a);
      recordEvent(ctx, req, actor, eventOf("revoke", row), meta(a), i.projectId);
      return answer(a, (row.revokeOmitsSecrets ?? false) || (row.secretsOnlyOnGet ?? false));
    },
  };
  return handlers;
}

const ua = identityAuthMethods["universal-auth"];
type SecretReq<K extends keyof typeof clientSecretOperations> = OperationRequest<(typeof clientSecretOperations)[K]>;

function findSecret(ctx: EmulatorContext, uaId: string, id: string) {
  const c = ctx.store.clientSecrets.get(id);
  // [UNCONFIRMED] the service's words for an unknown client secret.
  if (!c || c.identityUAId !== uaId) throw notFound(`Failed to find client secret with id ${id}`);
  return c;
}

const clientSecretHandlers: ScopedHandlers<EmulatorContext, typeof clientSecretOperations> = {
  /** The secret: 32 random bytes as hex (identity-ua-service.ts), answered once, kept as a hash. */
  async create(ctx, req: SecretReq<"create">) {
    const actor = actorOf(req);
    const i = identityFor(ctx, actor, req.params.identityId, "create-token");
    const a = attached(ctx, ua, i.id);
    const secret = randomBytes(32).toString("hex");
    const c = newClientSecret(a, secret, req.body, new Date().toISOString());
    ctx.store.clientSecrets.set(c.id, c);
    recordEvent(
      ctx,
      req,
      actor,
      "create-identity-universal-auth-client-secret",
      { identityId: i.id, clientSecretId: c.id },
      i.projectId,
    );
    return { clientSecret: secret, clientSecretData: clientSecretView(c) };
  },
  /** The secrets not revoked [UNCONFIRMED: the service's list filters `isClientSecretRevoked: false`]. */
  async list(ctx, req: SecretReq<"list">) {
    const actor = actorOf(req);
    const i = identityFor(ctx, actor, req.params.identityId, "get-token");
    const a = attached(ctx, ua, i.id);
    const all = [...ctx.store.clientSecrets.values()].filter(
      (c) => c.identityUAId === a.id && !c.isClientSecretRevoked,
    );
    recordEvent(
      ctx,
      req,
      actor,
      "get-identity-universal-auth-client-secret",
      { identityId: i.id, clientSecretIds: all.map((c) => c.id) },
      i.projectId,
    );
    return { clientSecretData: all.map(clientSecretView) };
  },
  async get(ctx, req: SecretReq<"get">) {
    const actor = actorOf(req);
    const i = identityFor(ctx, actor, req.params.identityId, "get-token");
    const c = findSecret(ctx, attached(ctx, ua, i.id).id, req.params.clientSecretId);
    recordEvent(
      ctx,
      req,
      actor,
      "get-identity-universal-auth-client-secret-by-id",
      { identityId: i.id, clientSecretId: c.id },
      i.projectId,
    );
    return { clientSecretData: clientSecretView(c) };
  },
  async revoke(ctx, req: SecretReq<"revoke">) {
    const actor = actorOf(req);
    const i = identityFor(ctx, actor, req.params.identityId, "delete-token");
    const c = findSecret(ctx, attached(ctx, ua, i.id).id, req.params.clientSecretId);
    c.isClientSecretRevoked = true;
    c.updatedAt = ctx.store.writeTime(c);
    recordEvent(
      ctx,
      req,
      actor,
      "revoke-identity-universal-auth-client-secret",
      { identityId: i.id, clientSecretId: c.id },
      i.projectId,
    );
    return { clientSecretData: clientSecretView(c) };
  },
};

const tokenAuth = identityAuthMethods["token-auth"];

const tokenHandlers: ScopedHandlers<EmulatorContext, typeof tokenAuthOperations> = {
  /** An access token with token auth's TTLs, usable as a bearer token at once. */
  async createToken(ctx, req: OperationRequest<typeof tokenAuthOperations.createToken>) {
    const actor = actorOf(req);
    const i = identityFor(ctx, actor, req.params.identityId, "create-token");
    const a = attached(ctx, tokenAuth, i.id);
    const ttl = a.fields.accessTokenTTL as number;
    const maxTtl = a.fields.accessTokenMaxTTL as number;
    const t = ctx.store.issueAccessToken(i.id, ttl, {
      id: randomUUID(),
      authMethod: tokenAuth.method,
      name: req.body.name ?? null,
      accessTokenTTL: ttl,
      accessTokenMaxTTL: maxTtl,
      accessTokenNumUsesLimit: a.fields.accessTokenNumUsesLimit as number,
      createdAt: new Date().toISOString(),
    });
    recordEvent(
      ctx,
      req,
      actor,
      "create-token-identity-token-auth",
      { identityId: i.id, identityAccessTokenId: t.id },
      i.projectId,
    );
    return {
      accessToken: t.token,
      expiresIn: ttl,
      accessTokenMaxTTL: maxTtl,
      tokenType: "Bearer" as const,
      tokenData: tokenDataView(t),
    };
  },
};
