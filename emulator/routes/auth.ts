import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { authOperations, type UniversalAuthToken } from "../../sdk/schemas";
import { recordEvent, type EmulatorContext } from "../context";
import { unauthorized } from "../errors";
import { route } from "../route-registration";

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** POST /api/v1/auth/universal-auth/login (docs/service-api.md §7): client id and secret for an access token. */
export function registerAuthRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  route(app, authOperations.universalAuthLogin, async (req): Promise<UniversalAuthToken> => {
    const { body } = req;
    const identity = [...ctx.store.identities.values()].find((i) => i.universalAuth?.clientId === body.clientId);
    if (!identity?.universalAuth) throw unauthorized("Invalid credentials");
    const ua = identity.universalAuth;
    const actor = { identity, orgId: identity.orgId };
    const meta = { identityId: identity.id, clientId: ua.clientId };
    if (!sameSecret(body.clientSecret, ua.clientSecret)) {
      recordEvent(ctx, req, actor, "login-identity-universal-auth-failed", meta);
      throw unauthorized("Invalid credentials");
    }
    const token = ctx.store.issueAccessToken(identity.id, ua.accessTokenTTL);
    recordEvent(ctx, req, actor, "login-identity-universal-auth", meta);
    return {
      accessToken: token.token,
      expiresIn: ua.accessTokenTTL,
      accessTokenMaxTTL: ua.accessTokenMaxTTL,
      tokenType: "Bearer",
    };
  });
}
