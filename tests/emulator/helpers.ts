import { ErrorBodySchema } from "../../sdk/schemas";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { defaultFixtures as fixtures } from "../../emulator/fixtures";

/** Ids of the default fixtures (emulator/fixtures.ts). */
export const FX = {
  orgId: fixtures.organizations[0]!.id,
  otherOrgId: fixtures.organizations[1]!.id,
  projectId: fixtures.projects[0]!.id,
  /** same org, the default identity is not a member */
  restrictedProjectId: fixtures.projects[1]!.id,
  /** another org */
  otherOrgProjectId: fixtures.projects[2]!.id,
  /** a cert-manager project, the default identity a member: the CAs, policies and profiles' */
  pkiProjectId: fixtures.projects[3]!.id,
  /** a cert-manager project of the same org, the default identity not a member: the restricted CA and policy's */
  restrictedPkiProjectId: fixtures.projects[4]!.id,
  identityId: fixtures.identities[0]!.id,
  identityName: fixtures.identities[0]!.name,
  token: fixtures.identities[0]!.tokens[0]!,
  otherOrgToken: fixtures.identities[1]!.tokens[0]!,
  clientId: fixtures.identities[0]!.universalAuth!.clientId,
  clientSecret: fixtures.identities[0]!.universalAuth!.clientSecret,
  gatewayId: fixtures.gateways[0]!.id,
  otherOrgGatewayId: fixtures.gateways[1]!.id,
  connection: (app: string) =>
    fixtures.appConnections.find((c) => c.app === app && c.orgId === fixtures.organizations[0]!.id)!,
  otherOrgConnectionId: fixtures.appConnections.find((c) => c.orgId === fixtures.organizations[1]!.id)!.id,
  internalCaId: fixtures.certificateAuthorities[0]!.id,
  externalCaId: fixtures.certificateAuthorities[1]!.id,
  restrictedCaId: fixtures.certificateAuthorities[2]!.id,
  policyId: fixtures.certificatePolicies[0]!.id,
  restrictedPolicyId: fixtures.certificatePolicies[1]!.id,
  existingSecret: { environment: "dev", secretPath: "/app", key: fixtures.secrets[0]!.key },
};
export { fixtures };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Res {
  status: number;
  body: Json;
  headers: Headers;
  ms: number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | string[]>;
  /** null = no Authorization header */
  token?: string | null;
  headers?: Record<string, string>;
}

/** A tiny fetch-based client for tests: real HTTP on loopback, JSON in and out. */
export class Api {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  async request(method: string, path: string, opts: RequestOptions = {}): Promise<Res> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined) continue;
      for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
    }
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const t0 = performance.now();
    const r = await fetch(`${this.url}${path}${qs.size ? `?${qs}` : ""}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body),
    });
    const text = await r.text();
    const ms = performance.now() - t0;
    let body: Json = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: r.status, body, headers: r.headers, ms };
  }

  get = (path: string, opts?: RequestOptions) => this.request("GET", path, opts);
  post = (path: string, body?: unknown, opts?: RequestOptions) => this.request("POST", path, { ...opts, body });
  patch = (path: string, body?: unknown, opts?: RequestOptions) => this.request("PATCH", path, { ...opts, body });
  put = (path: string, body?: unknown, opts?: RequestOptions) => this.request("PUT", path, { ...opts, body });
  delete = (path: string, opts?: RequestOptions) => this.request("DELETE", path, opts);
}

export async function start(
  options: Parameters<typeof startEmulator>[0] = {},
): Promise<{ emu: RunningEmulator; api: Api }> {
  const emu = await startEmulator({
    port: 0,
    admin: true,
    rateLimits: false,
    syncJobDelayMs: 30,
    checkResponses: true,
    ...options,
  });
  return { emu, api: new Api(emu.url, emu.token) };
}

/** Asserts an error response: status, `error` name and message, and the service's body shape. */
export function expectError(res: Res, status: number, error: string, message?: string | RegExp): void {
  const shown = `${res.status} ${JSON.stringify(res.body)}`;
  expect(`${res.status}`).toBe(`${status}`);
  if (res.status !== status) throw new Error(shown);
  const body = ErrorBodySchema.parse(res.body);
  expect(body.statusCode).toBe(status);
  expect(body.error).toBe(error);
  expect(body.reqId).toMatch(/^req-[A-Za-z0-9]{14}$/);
  if (typeof message === "string") expect(body.message).toBe(message);
  else if (message) expect(String(body.message)).toMatch(message);
}

/** Asserts a 422 whose zod issues include one at `path` (and, if given, with that message). */
export function expect422(res: Res, path: (string | number)[], message?: string | RegExp): void {
  expectError(res, 422, "ValidationFailure");
  const issues = res.body.message as { path: (string | number)[]; message: string }[];
  expect(Array.isArray(issues)).toBe(true);
  const hit = issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path));
  if (!hit) throw new Error(`no issue at ${JSON.stringify(path)} in ${JSON.stringify(issues)}`);
  if (typeof message === "string") expect(hit.message).toBe(message);
  else if (message) expect(hit.message).toMatch(message);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` with the wall clock stopped: only `Date` is faked (timers and I/O run as usual), so
 * every write inside lands in the same millisecond, the case a busy machine hits by chance.
 */
export async function withClockStopped<T>(fn: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    now: Date.now(),
    doNotFake: [
      "hrtime",
      "nextTick",
      "performance",
      "queueMicrotask",
      "requestAnimationFrame",
      "cancelAnimationFrame",
      "requestIdleCallback",
      "cancelIdleCallback",
      "setImmediate",
      "clearImmediate",
      "setInterval",
      "clearInterval",
      "setTimeout",
      "clearTimeout",
    ],
  });
  try {
    return await fn();
  } finally {
    jest.useRealTimers();
  }
}

/** Asserts that each ISO timestamp is strictly later than the one before. */
export function expectIncreasing(times: readonly string[]): void {
  for (let i = 1; i < times.length; i++) expect(Date.parse(times[i]!)).toBeGreaterThan(Date.parse(times[i - 1]!));
}

/** Polls `fn` until `done` holds (or fails after `timeoutMs`). */
export async function waitFor<T>(fn: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (done(v)) return v;
    if (Date.now() > until)
      throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await sleep(15);
  }
}

let n = 0;
/** A unique slug-friendly name. */
export const uniq = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(n++).toString(36)}`;

/**
 * The service's refusals before any rule (`getProjectPermission`, docs/service-api.md §20): a
 * `ForbiddenRequestError` whose words are its `error` and whose message is the class's default.
 */
export const NOT_MEMBER = "You are not member of this project";
export const OTHER_ORG_PROJECT = "This project does not belong to your selected organization.";
export const FORBIDDEN_DEFAULT = "You are not allowed to access this resource";

/** A 403 for a project the caller is not a member of. */
export function expectNotMember(res: Res): void {
  expectError(res, 403, NOT_MEMBER, FORBIDDEN_DEFAULT);
  expect(res.body.details).toBeUndefined();
}

/** A 403 for another organization's project. */
export function expectOtherOrg(res: Res): void {
  expectError(res, 403, OTHER_ORG_PROJECT, FORBIDDEN_DEFAULT);
}
