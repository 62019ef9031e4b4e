import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from "fastify";
import {
  ApiError,
  ValidationError,
  badRequest,
  errorNameForStatus,
  forbidden,
  messageForStatus,
  rateLimited,
  tokenError,
  unauthorized,
} from "./errors";
import { setActor, type EmulatorContext } from "./context";
import { isTrustedIp, UNTRUSTED_IP } from "./identity-records";
import type { StoredTrustedIp } from "./types";
import { Faults } from "./faults";
import { checkKindResponses, responseSerializerCompiler, zodValidatorCompiler } from "./route-registration";
import { bucketOf, RateLimits, type RateLimitOptions } from "./rate-limit";
import { ADMIN_PREFIX, RequestLog, registerAdminRoutes } from "./routes/admin";
import { registerAppConnectionRoutes } from "./routes/app-connections";
import { registerAuditLogRoutes } from "./routes/audit-logs";
import { registerAuthRoutes } from "./routes/auth";
import { registerIdentityRoutes } from "./routes/identities";
import { registerProjectMembershipRoutes } from "./routes/project-memberships";
import { registerProjectRoleRoutes } from "./routes/project-roles";
import { registerIdentityAuthRoutes } from "./routes/identity-auths";
import { registerCertificateAuthorityRoutes } from "./routes/certificate-authorities";
import { registerCertificatePolicyRoutes } from "./routes/certificate-policies";
import { registerCertificateProfileRoutes } from "./routes/certificate-profiles";
import { registerOptionsRoutes } from "./routes/options";
import { registerProjectEnvironmentRoutes } from "./routes/project-environments";
import { registerProjectRoutes } from "./routes/projects";
import { registerSecretFolderRoutes } from "./routes/secret-folders";
import { registerWorkspaceV1Routes } from "./routes/workspace-v1";
import { registerFolderV1Routes } from "./routes/folders-v1";
import { registerSecretRotationRoutes } from "./routes/secret-rotations";
import { registerSecretSyncRoutes } from "./routes/secret-syncs";
import { registerSecretRoutes } from "./routes/secrets";
import { registerSecretV3Routes } from "./routes/secrets-v3";
import { ATTEMPT_HEADER, apiPaths, identityAuthMethods, type IdentityAuthMethodRow } from "../sdk/schemas";

export interface ServerOptions {
  admin: boolean;
  rateLimits: RateLimitOptions | undefined;
  logger: FastifyServerOptions["logger"];
  /** Check every 200 body against its operation's response schema (a mismatch is a 500). */
  checkResponses: boolean;
  /** With `--data`: resolves once the state is on disk; a write's response waits for it (persistence.ts). */
  commit?: () => Promise<void>;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ID_LEN = 14;
let pool = Buffer.alloc(0);
let poolAt = 0;
/** Request ids look like the service's (`req-` + 14 alphanumerics), drawn from a pooled random buffer. */
function requestId(): string {
  if (poolAt + ID_LEN > pool.length) {
    pool = randomBytes(ID_LEN * 1024);
    poolAt = 0;
  }
  let id = "req-";
  for (let i = 0; i < ID_LEN; i++) id += ALNUM[pool[poolAt++]! % ALNUM.length];
  return id;
}

const pathOf = (url: string) => {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
};

/** The error body of every failure: `{reqId, statusCode, message, error}` (+ `details` on some 403s). */
function sendError(
  reply: FastifyReply,
  req: FastifyRequest,
  status: number,
  error: string,
  message: unknown,
  details?: unknown,
) {
  return reply
    .status(status)
    .send({ reqId: req.id, statusCode: status, message, error, ...(details !== undefined && { details }) });
}

/**
 * The path of the first `__proto__` key, or `constructor` key holding a `prototype`, in a JSON
 * text (the keys Fastify's parser refuses), e.g. `destinationConfig.__proto__`; undefined if none.
 * Walks iteratively, so a deeply nested body cannot overflow the stack.
 */
function forbiddenKey(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (!v || typeof v !== "object") continue;
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      const at = path ? `${path}.${key}` : key;
      if (key === "__proto__") return at;
      if (key === "constructor" && child && typeof child === "object" && Object.hasOwn(child, "prototype"))
        return `${at}.prototype`;
      stack.push([child, at]);
    }
  }
  return undefined;
}

/**
 * The Fastify app: the API routes under /api, the admin routes under /__admin (when enabled),
 * and one onRequest hook doing, in order, fault injection, rate limiting and bearer auth.
 */
export async function buildServer(ctx: EmulatorContext, opts: ServerOptions): Promise<FastifyInstance> {
  const app = await newApp(opts);
  acceptJsonBodies(app);
  const traffic = new Traffic();
  const rateLimits = new RateLimits(app, opts.rateLimits);

  app.addHook("onRequest", async (req, reply) => {
    if (req.url.startsWith(ADMIN_PREFIX)) return;
    if (!traffic.faults.empty && (await injectFaults(traffic, req, reply))) return;
    await rateLimits.apply(req, reply);
    authenticate(ctx, req);
  });

  // A write is acknowledged only once it is on disk, so it survives a kill right after the
  // response. Registered before the `after` faults: a handled write is kept even if the client
  // loses its response. Reads are saved later (debounced): their audit entries acknowledge nothing.
  const commit = opts.commit;
  if (commit) {
    app.addHook("onSend", async (req, reply, payload) => {
      if (req.method !== "GET" && req.method !== "HEAD" && reply.statusCode < 400 && !req.url.startsWith(ADMIN_PREFIX))
        await commit();
      return payload;
    });
  }

  app.addHook("onSend", async (req, reply, payload) => faultAfterResponse(traffic, req, reply, payload));

  app.addHook("onResponse", async (req, reply) => {
    if (req.url.startsWith(ADMIN_PREFIX) || traffic.wasReset(req)) return;
    traffic.log(req, reply, reply.statusCode);
    // Reads are audited too, so every served API request changes the state.
    if (reply.statusCode < 400) ctx.changed();
  });

  app.setErrorHandler(answerError);
  app.setNotFoundHandler((req, reply) =>
    sendError(reply, req, 404, "NotFound", `Route ${req.method}:${pathOf(req.url)} not found`),
  );

  registerAuthRoutes(app, ctx);
  registerAppConnectionRoutes(app, ctx);
  registerSecretSyncRoutes(app, ctx);
  registerSecretRotationRoutes(app, ctx);
  registerCertificateProfileRoutes(app, ctx);
  registerProjectRoutes(app, ctx);
  registerProjectEnvironmentRoutes(app, ctx);
  registerSecretFolderRoutes(app, ctx);
  registerFolderV1Routes(app, ctx);
  registerWorkspaceV1Routes(app, ctx);
  registerSecretRoutes(app, ctx);
  registerSecretV3Routes(app, ctx);
  registerCertificateAuthorityRoutes(app, ctx);
  registerCertificatePolicyRoutes(app, ctx);
  registerAuditLogRoutes(app, ctx);
  registerIdentityRoutes(app, ctx);
  registerProjectRoleRoutes(app, ctx);
  registerProjectMembershipRoutes(app, ctx);
  registerIdentityAuthRoutes(app, ctx);
  registerOptionsRoutes(app);
  if (opts.admin) registerAdminRoutes(app, ctx, { faults: traffic.faults, rateLimits, requests: traffic.requests });

  return app;
}

/** The Fastify instance, with the rate-limit plugin and the operations' schema compilers. */
async function newApp(opts: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger,
    genReqId: requestId,
    forceCloseConnections: true,
    // A URL the router cannot decode (`%zz`) or a path parameter over maxParamLength: the error
    // body every other failure has, instead of Fastify's own.
    frameworkErrors: (err, req, reply) =>
      sendError(reply, req, err.statusCode ?? 400, errorNameForStatus(err.statusCode ?? 400), err.message),
    // Names and slugs are path params of the by-name reads, up to 256 characters (docs/api-spec.md
    // §4.2, §8); Fastify's default maxParamLength (100) would answer them with 414.
    routerOptions: { maxParamLength: 1024 },
  });
  await app.register(fastifyRateLimit, { global: false });
  // The API routes' schemas are the operations' zod schemas (sdk/schemas/operations/).
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(opts.checkResponses));
  checkKindResponses(app, opts.checkResponses);
  return app;
}

/**
 * Bodies are JSON (docs/api-spec.md §1). A JSON content type with an empty body counts as no
 * body (trigger routes take none); everything else goes to Fastify's own JSON parser, which
 * refuses `__proto__` and `constructor.prototype` keys; that refusal names the key instead of
 * calling the body invalid JSON. Any other content type, text/plain included (which Fastify
 * would pass on as a string, to fail as "expected object"), is a 415 naming it. An empty body of
 * any type counts as no body, as for JSON.
 */
function acceptJsonBodies(app: FastifyInstance): void {
  const jsonParser = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (body === "") return done(null, undefined);
    jsonParser(req, body as string, (err, value) => {
      const key = err && forbiddenKey(body as string);
      done(
        key ? badRequest(`${key}: the key is not allowed in a request body (it could change prototypes)`) : err,
        value,
      );
    });
  });
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "string" }, (req, body, done) => {
    if (body === "") return done(null, undefined);
    const type = req.headers["content-type"];
    done(
      new ApiError(
        415,
        errorNameForStatus(415),
        `${type ? `Content-Type "${type}" is not supported` : "Content-Type is missing"}: request bodies must be sent as application/json`,
      ),
      undefined,
    );
  });
}

/** What the hooks share about the requests they see: the faults to inject, and the request log. */
class Traffic {
  readonly faults = new Faults();
  readonly requests = new RequestLog();
  /** Requests whose connection a fault reset. */
  private readonly reset = new WeakSet<FastifyRequest>();
  /** The fault rules applied to a request, for the request log. */
  private readonly injected = new WeakMap<FastifyRequest, string[]>();

  noteFault(req: FastifyRequest, kind: string): void {
    this.injected.set(req, [...(this.injected.get(req) ?? []), kind]);
  }

  wasReset(req: FastifyRequest): boolean {
    return this.reset.has(req);
  }

  /** Logs a request with its status (0: the connection was reset). */
  log(req: FastifyRequest, reply: FastifyReply, status: number): void {
    this.requests.push({
      method: req.method,
      path: pathOf(req.url),
      url: req.url,
      status,
      bucket: bucketOf(req),
      durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
      at: new Date().toISOString(),
      ...(this.injected.has(req) && { faults: this.injected.get(req) }),
      ...(typeof req.headers[ATTEMPT_HEADER] === "string" && { attempt: Number(req.headers[ATTEMPT_HEADER]) }),
    });
  }

  /** Fault `reset`: the client sees the connection drop; the request log says status 0. */
  resetConnection(req: FastifyRequest, reply: FastifyReply): void {
    this.reset.add(req);
    this.log(req, reply, 0);
    reply.raw.socket?.destroy();
  }
}

/**
 * The faults injected before a request is handled, in order. True when the connection was reset
 * (the reply is hijacked: nothing more is to be done).
 */
async function injectFaults(traffic: Traffic, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  for (const rule of traffic.faults.take(req.method, pathOf(req.url))) {
    traffic.noteFault(req, rule.kind);
    if (rule.kind === "latency") {
      // A client that gives up first never gets a response, so onResponse never runs: log it
      // here, as a dropped connection (status 0), though the request is still handled.
      reply.raw.once("close", () => {
        if (!reply.raw.writableFinished && !traffic.wasReset(req)) traffic.log(req, reply, 0);
      });
      await sleep(rule.latencyMs ?? 0);
    } else if (rule.kind === "reset") {
      traffic.resetConnection(req, reply);
      reply.hijack();
      return true;
    } else if (rule.kind === "rate-limit") {
      const after = rule.retryAfterSeconds ?? 1;
      reply
        .header("retry-after", after)
        .header("x-ratelimit-limit", 0)
        .header("x-ratelimit-remaining", 0)
        .header("x-ratelimit-reset", after);
      throw rateLimited(after);
    } else {
      const status = rule.status ?? 500;
      throw new ApiError(status, errorNameForStatus(status), messageForStatus(status));
    }
  }
  return false;
}

/** The API paths that take no bearer token. */
const PUBLIC_PATHS = new Set<string>([
  apiPaths.universalAuthLogin,
  ...(Object.values(identityAuthMethods) as IdentityAuthMethodRow[])
    .filter((row) => row.login === "identity-jwt")
    .map((row) => apiPaths.identityLogin(row.method)),
]);

/** Bearer auth of an API request: the token's identity becomes the request's actor. */
function authenticate(ctx: EmulatorContext, req: FastifyRequest): void {
  const path = pathOf(req.url);
  if (!path.startsWith("/api/") || PUBLIC_PATHS.has(path)) return;
  const header = req.headers.authorization;
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!m) throw unauthorized("Token missing");
  const token = ctx.store.tokens.get(m[1]!);
  if (!token) {
    throw tokenError(
      "The provided access token is malformed. Please use a valid token or generate a new one and try again.",
    );
  }
  if (token.expiresAt !== null && token.expiresAt <= Date.now()) {
    ctx.store.tokens.delete(token.token);
    throw tokenError("Your token has expired. Please re-authenticate.");
  }
  // The use limit, as the service's `validateAccessTokenExp` (identity-access-token-fns.ts) checks it:
  // the request after the last allowed one deletes the token.
  const limit = token.accessTokenNumUsesLimit ?? 0;
  if (limit > 0) {
    const uses = token.accessTokenNumUses ?? 0;
    if (uses > 0 && uses >= limit) {
      ctx.store.tokens.delete(token.token);
      throw unauthorized("Unable to renew because access token number of uses limit reached");
    }
    token.accessTokenNumUses = uses + 1;
  }
  // An issued token may be used only from its method's access-token trusted IPs (the service's
  // fnValidateIdentityAccessToken); fixture tokens have no method.
  const auth = token.authMethod && ctx.store.identityAuth(token.identityId, token.authMethod);
  if (auth && !isTrustedIp(req.ip, auth.fields.accessTokenTrustedIps as StoredTrustedIp[]))
    throw forbidden(UNTRUSTED_IP);
  const identity = ctx.store.identities.get(token.identityId);
  if (!identity) throw tokenError("The identity of this token no longer exists.");
  setActor(req, { identity, orgId: identity.orgId });
}

/** Faults with `after: true`: the request was handled, and the client loses the response. */
async function faultAfterResponse(traffic: Traffic, req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (traffic.faults.empty || req.url.startsWith(ADMIN_PREFIX) || traffic.wasReset(req)) return payload;
  const [rule] = traffic.faults.take(req.method, pathOf(req.url), "after");
  if (!rule) return payload;
  traffic.noteFault(req, `${rule.kind} after`);
  if (rule.kind === "reset") {
    traffic.resetConnection(req, reply);
    return payload;
  }
  const status = rule.status ?? 500;
  reply.code(status);
  return JSON.stringify({
    reqId: req.id,
    statusCode: status,
    message: messageForStatus(status),
    error: errorNameForStatus(status),
  });
}

/** Every failure as the service's error body. */
function answerError(
  err: FastifyError | ApiError | ValidationError | Error,
  req: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (err instanceof ApiError) return sendError(reply, req, err.statusCode, err.errorName, err.message, err.details);
  if (err instanceof ValidationError) return sendError(reply, req, 422, "ValidationFailure", err.issues);
  const status = (err as FastifyError).statusCode;
  // Fastify's own client errors (bad JSON, body too large, wrong content type) keep their status.
  if (status !== undefined && status >= 400 && status < 500)
    return sendError(reply, req, status, errorNameForStatus(status), err.message);
  req.log.error(err);
  return sendError(reply, req, 500, "InternalServerError", "Something went wrong");
}
