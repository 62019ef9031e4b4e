import { generateKeyPairSync, sign as signData, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SecretOpsClient } from "../../sdk";
import { SecretOpsApiError } from "../../sdk/errors";
import { apiPaths, identityAuthMethods, ipAllowlistingRefusal, type IdentityAuthMethodRow } from "../../sdk/schemas";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Fixtures, RunningEmulator } from "../../emulator";
import { runCli } from "../../emulator/cli";
import { seedFromFixtures } from "../../emulator/fixtures";
import { FX, expectError, fixtures, sleep, start, uniq, type Api, type Json } from "./helpers";

/**
 * Machine identities (docs/service-api.md §18) through the SDK over real HTTP: both scopes' CRUD,
 * delete protection and the PATCH quirk, the cascade of a delete, every login method of
 * `identityAuthMethods` attached from its row's example, the plan gates, client secrets and
 * every universal-auth login failure, and the OIDC, JWT and Kubernetes logins against loopback
 * servers the test runs.
 */

let emu: RunningEmulator;
let api: Api;
let licensed: RunningEmulator;
let client: SecretOpsClient;
let licensedClient: SecretOpsClient;

beforeAll(async () => {
  ({ emu, api } = await start());
  licensed = await startLicensed();
  client = new SecretOpsClient({ baseUrl: emu.url, token: emu.token }, { retry: false });
  licensedClient = new SecretOpsClient({ baseUrl: licensed.url, token: licensed.token }, { retry: false });
});
afterAll(async () => {
  await emu.stop();
  await licensed.stop();
});

async function startLicensed() {
  return (await start({ plan: "licensed" })).emu;
}

const rows = Object.values(identityAuthMethods) as IdentityAuthMethodRow[];
const row = (m: keyof typeof identityAuthMethods) => identityAuthMethods[m] as IdentityAuthMethodRow;

/** The SDK's error of a call that must fail. */
async function failure(p: Promise<unknown>): Promise<SecretOpsApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SecretOpsApiError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}
async function expectFailure(p: Promise<unknown>, status: number, message: string) {
  const e = await failure(p);
  expect(`${e.status} ${e.message}`).toBe(`${status} ${message}`);
}

const newIdentity = (c = client, extra: Record<string, unknown> = {}) =>
  c.identities.create({ name: uniq("mi"), organizationId: FX.orgId, ...extra });

const login = (clientId: string, clientSecret: string, on: Api = api) =>
  on.post(apiPaths.universalAuthLogin, { clientId, clientSecret }, { token: null });

describe("organization identities", () => {
  test("create, read, list, update and delete answer as the service", async () => {
    const created = await newIdentity(client, { metadata: [{ key: "team", value: "infra" }] });
    expect(created).toMatchObject({ orgId: FX.orgId, projectId: null, hasDeleteProtection: false, authMethods: [] });
    expect(created.metadata).toEqual([{ id: expect.any(String), key: "team", value: "infra" }]);

    const raw = (await api.get(`${apiPaths.identities}/${created.id}`)).body.identity;
    expect(raw).toMatchObject({ role: "no-access", orgId: FX.orgId, identity: { id: created.id, authMethods: [] } });
    expect(raw.identity.activeLockoutAuthMethods).toEqual([]);
    expect((await client.identities.list(FX.orgId)).map((i) => i.id)).toContain(created.id);

    const updated = await client.identities.update(created.id, {
      name: "renamed",
      role: "member",
      metadata: [{ key: "env", value: "prod" }],
    });
    expect(updated).toMatchObject({ name: "renamed", metadata: [{ key: "env", value: "prod" }] });
    expect(await client.identities.get(created.id)).toMatchObject({ name: "renamed", role: "member" });

    expect((await client.identities.delete(created.id)).id).toBe(created.id);
    await expectFailure(client.identities.get(created.id), 404, `Failed to find identity with id ${created.id}`);
  });

  test("delete protection refuses the delete; hasDeleteProtection:false alone changes nothing (the service's quirk)", async () => {
    const i = await newIdentity(client, { hasDeleteProtection: true });
    await expectFailure(client.identities.delete(i.id), 400, "Identity has delete protection");
    expect((await client.identities.update(i.id, { hasDeleteProtection: false })).hasDeleteProtection).toBe(true);
    await expectFailure(client.identities.delete(i.id), 400, "Identity has delete protection");
    const r = await client.identities.update(i.id, { name: i.name, hasDeleteProtection: false });
    expect(r.hasDeleteProtection).toBe(false);
    await client.identities.delete(i.id);
  });

  test("a custom role needs the RBAC feature: refused unlicensed, answered as role custom when licensed", async () => {
    const rbac =
      "Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.";
    await expectFailure(newIdentity(client, { role: "auditor" }), 400, rbac);
    const plain = await newIdentity(client);
    await expectFailure(client.identities.update(plain.id, { role: "auditor" }), 400, rbac);

    const i = await newIdentity(licensedClient, { role: "auditor" });
    const raw = (await fetchJson(licensed, `${apiPaths.identities}/${i.id}`)).identity;
    expect(raw).toMatchObject({ role: "custom", customRole: { slug: "auditor" } });
    expect((await licensedClient.identities.get(i.id)).role).toBe("auditor");
  });
});

async function fetchPost(on: RunningEmulator, path: string, body: unknown) {
  const r = await fetch(`${on.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Json, headers: r.headers, ms: 0 };
}

async function fetchJson(on: RunningEmulator, path: string): Promise<Json> {
  const r = await fetch(`${on.url}${path}`, { headers: { authorization: `Bearer ${on.token}` } });
  return r.json();
}

describe("project identities", () => {
  test("CRUD under the project; the organization routes refuse them; members only", async () => {
    const p = FX.projectId;
    const i = await client.identities.createInProject(p, { name: uniq("pmi") });
    expect(i).toMatchObject({ projectId: p, orgId: FX.orgId, authMethods: [], hasDeleteProtection: false });
    expect((await client.identities.getInProject(p, i.id)).name).toBe(i.name);
    const listed = await client.identities.listInProject(p, { search: i.name });
    expect(listed.identities.map((x) => x.id)).toEqual([i.id]);
    expect(listed.totalCount).toBe(1);
    expect((await client.identities.updateInProject(p, i.id, { name: "p-renamed" })).name).toBe("p-renamed");

    await expectFailure(client.identities.update(i.id, { name: "x" }), 400, "Identity is managed by project");
    await expectFailure(client.identities.delete(i.id), 400, "Identity is managed by project");
    expect((await client.identities.list(FX.orgId)).map((x) => x.id)).not.toContain(i.id);

    const e = await failure(client.identities.createInProject(FX.restrictedProjectId, { name: uniq("pmi") }));
    expect(e.status).toBe(403);
    expect((await client.identities.deleteInProject(p, i.id)).id).toBe(i.id);
    expect((await failure(client.identities.getInProject(p, i.id))).status).toBe(404);
  });
});

describe("login methods", () => {
  test.each(rows.map((r) => [r.method, r] as const))(
    "%s: attached from its row's example, refused twice, read, updated, revoked",
    async (_m, r) => {
      const i = await newIdentity();
      const auth = await client.identityAuths.attach(r.method, i.id, r.example);
      expect(auth).toMatchObject({
        identityId: i.id,
        accessTokenTTL: 2592000,
        accessTokenMaxTTL: 2592000,
        accessTokenNumUsesLimit: 0,
        accessTokenTrustedIps: [
          { ipAddress: "0.0.0.0", type: "ipv4", prefix: 0 },
          { ipAddress: "::", type: "ipv6", prefix: 0 },
        ],
      });
      const answersSecrets = !r.secretsOnlyOnGet;
      for (const f of r.returnedSecretFields ?? [])
        if (f in r.example) expect(auth[f]).toEqual(answersSecrets ? r.example[f] : undefined);
      if (r.method === "universal-auth") expect(auth.clientId).toMatch(/^[0-9a-f-]{36}$/);

      await expectFailure(client.identityAuths.attach(r.method, i.id, r.example), 400, r.alreadyAttachedMessage);
      expect((await client.identities.get(i.id)).authMethods).toEqual([r.method]);
      const read = await client.identityAuths.get(r.method, i.id);
      expect(read.id).toBe(auth.id);
      for (const f of r.returnedSecretFields ?? []) if (f in r.example) expect(read[f]).toEqual(r.example[f]);
      // The fields the PATCH requires go with every PATCH.
      const required = Object.fromEntries((r.alwaysInPatch ?? []).map((k) => [k, read[k]]));
      expect(
        (await client.identityAuths.update(r.method, i.id, { ...required, accessTokenTTL: 60 })).accessTokenTTL,
      ).toBe(60);
      await expectFailure(
        client.identityAuths.update(r.method, i.id, { ...required, accessTokenTTL: 2592001 }),
        400,
        "Access token TTL cannot be greater than max TTL",
      );
      const revoked = await client.identityAuths.revoke(r.method, i.id);
      expect(revoked.id).toBe(auth.id);
      if (r.revokeOmitsSecrets) for (const f of r.secretFields) expect(revoked).not.toHaveProperty(f);
      await expectFailure(client.identityAuths.get(r.method, i.id), r.notAttachedStatus ?? 400, r.notAttachedMessage);
    },
  );

  test("IP allowlisting: only anywhere on the unlicensed plan; stored as extractIPDetails gives it when licensed", async () => {
    const ips = { accessTokenTrustedIps: [{ ipAddress: "10.0.0.0/8" }, { ipAddress: "1.2.3.4" }] };
    for (const r of rows) {
      const i = await newIdentity();
      await expectFailure(
        client.identityAuths.attach(r.method, i.id, { ...r.example, ...ips }),
        400,
        ipAllowlistingRefusal(r),
      );
      const made = await client.identityAuths.attach(r.method, i.id, r.example);
      const required = Object.fromEntries((r.alwaysInPatch ?? []).map((k) => [k, made[k]]));
      await expectFailure(
        client.identityAuths.update(r.method, i.id, { ...required, ...ips }),
        400,
        ipAllowlistingRefusal(r),
      );
    }
    expect(ipAllowlistingRefusal(row("universal-auth"))).toContain("to service token");
    const ua = await newIdentity();
    await expectFailure(
      client.identityAuths.attach("universal-auth", ua.id, { clientSecretTrustedIps: [{ ipAddress: "10.1.0.0/16" }] }),
      400,
      ipAllowlistingRefusal(row("universal-auth")),
    );

    const li = await newIdentity(licensedClient);
    const auth = await licensedClient.identityAuths.attach("token-auth", li.id, ips);
    expect(auth.accessTokenTrustedIps).toEqual([
      { ipAddress: "10.0.0.0", type: "ipv4", prefix: 8 },
      { ipAddress: "1.2.3.4", type: "ipv4" },
    ]);
  });
});

describe("client secrets and universal-auth logins", () => {
  async function uaIdentity(body: Record<string, unknown> = {}) {
    const i = await newIdentity();
    const auth = await client.identityAuths.attach("universal-auth", i.id, body);
    return { i, clientId: auth.clientId! };
  }

  test("created once with the secret, listed and read without it, revoked; each login counts a use", async () => {
    const { i, clientId } = await uaIdentity({ accessTokenTTL: 120 });
    const { clientSecret, clientSecretData } = await client.identityAuths.createClientSecret(i.id, {
      description: "ci",
    });
    expect(clientSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(clientSecretData).toMatchObject({ clientSecretPrefix: clientSecret.slice(0, 4), clientSecretNumUses: 0 });
    const listed = await client.identityAuths.listClientSecrets(i.id);
    expect(JSON.stringify(listed)).not.toContain(clientSecret);
    expect(listed.map((c) => c.id)).toEqual([clientSecretData.id]);

    const ok = await login(clientId, clientSecret);
    expect(ok.body).toMatchObject({ expiresIn: 120, accessTokenMaxTTL: 2592000, tokenType: "Bearer" });
    const read = await client.identityAuths.getClientSecret(i.id, clientSecretData.id);
    expect(read.clientSecretNumUses).toBe(1);
    expect(JSON.stringify(read)).not.toContain(clientSecret);

    expect((await client.identityAuths.revokeClientSecret(i.id, clientSecretData.id)).isClientSecretRevoked).toBe(true);
    expectError(await login(clientId, clientSecret), 401, "UnauthorizedError", "Invalid credentials");
    expect(await client.identityAuths.listClientSecrets(i.id)).toEqual([]);
  });

  test("the fixture client secret still logs in", async () => {
    const res = await login(FX.clientId, FX.clientSecret);
    expect(res.status).toBe(200);
    expect(res.body.expiresIn).toBe(fixtures.identities[0]!.universalAuth!.accessTokenTTL);
  });

  test("lockout: the attempt reaching the threshold is still invalid, later ones locked; a success resets the count", async () => {
    const { i, clientId } = await uaIdentity({ lockoutThreshold: 3 });
    const { clientSecret } = await client.identityAuths.createClientSecret(i.id);
    // Two failures, a success (the count starts again), two failures: not locked.
    for (const s of ["bad1", "bad2", clientSecret, "bad3", "bad4"])
      expect((await login(clientId, s)).status).toBe(s === clientSecret ? 200 : 401);
    expect((await login(clientId, clientSecret)).status).toBe(200);

    await client.identityAuths.update("universal-auth", i.id, { lockoutThreshold: 2 });
    expectError(await login(clientId, "bad"), 401, "UnauthorizedError", "Invalid credentials");
    expectError(await login(clientId, "bad"), 401, "UnauthorizedError", "Invalid credentials");
    const locked = "This identity auth method is temporarily locked, please try again later";
    expectError(await login(clientId, clientSecret), 401, "UnauthorizedError", locked);
    const raw = (await api.get(`${apiPaths.identities}/${i.id}`)).body.identity;
    expect(raw.identity.activeLockoutAuthMethods).toEqual(["universal-auth"]);
  });

  test("an expired secret is refused and revoked; a secret at its use limit likewise", async () => {
    const { i, clientId } = await uaIdentity({ lockoutEnabled: false });
    const short = await client.identityAuths.createClientSecret(i.id, { ttl: 1 });
    const once = await client.identityAuths.createClientSecret(i.id, { numUsesLimit: 1 });
    expect((await login(clientId, once.clientSecret)).status).toBe(200);
    const limit = "Access denied due to client secret usage limit reached";
    expectError(await login(clientId, once.clientSecret), 401, "UnauthorizedError", limit);
    expect((await client.identityAuths.getClientSecret(i.id, once.clientSecretData.id)).isClientSecretRevoked).toBe(
      true,
    );
    await sleep(1100);
    const expired = "Access denied due to expired client secret";
    expectError(await login(clientId, short.clientSecret), 401, "UnauthorizedError", expired);
    expectError(await login(clientId, short.clientSecret), 401, "UnauthorizedError", "Invalid credentials");
  });

  test("trusted IPs (licensed): a login and a token refused from an address outside them", async () => {
    const lc = licensedClient;
    const lapi = { post: (p: string, b: unknown) => fetchPost(licensed, p, b) };
    const i = await newIdentity(lc);
    const away = [{ ipAddress: "10.0.0.0/8" }];
    const { clientId } = await lc.identityAuths.attach("universal-auth", i.id, { clientSecretTrustedIps: away });
    const { clientSecret } = await lc.identityAuths.createClientSecret(i.id);
    const untrusted = "You are not allowed to access this resource from the current IP address";
    expectError(
      await lapi.post(apiPaths.universalAuthLogin, { clientId, clientSecret }),
      403,
      "ForbiddenError",
      untrusted,
    );
    await lc.identityAuths.update("universal-auth", i.id, {
      clientSecretTrustedIps: [{ ipAddress: "127.0.0.1" }],
      accessTokenTrustedIps: away,
    });
    const ok = await lapi.post(apiPaths.universalAuthLogin, { clientId, clientSecret });
    expect(ok.status).toBe(200);
    const asIdentity = new SecretOpsClient({ baseUrl: licensed.url, token: ok.body.accessToken }, { retry: false });
    await expectFailure(asIdentity.identities.get(i.id), 403, untrusted);
    await lc.identityAuths.update("universal-auth", i.id, { accessTokenTrustedIps: [{ ipAddress: "127.0.0.0/8" }] });
    expect((await asIdentity.identities.get(i.id)).id).toBe(i.id);
  });

  test("an access token with a use limit is refused after its last use", async () => {
    const i = await newIdentity();
    await client.identityAuths.attach("token-auth", i.id, { accessTokenNumUsesLimit: 2 });
    const { accessToken: token } = await client.identityAuths.createToken(i.id);
    for (let n = 0; n < 2; n++) expect((await api.get(`${apiPaths.identities}/${i.id}`, { token })).status).toBe(200);
    const limit = "Unable to renew because access token number of uses limit reached";
    expectError(await api.get(`${apiPaths.identities}/${i.id}`, { token }), 401, "UnauthorizedError", limit);
    expectError(await api.get(`${apiPaths.identities}/${i.id}`, { token }), 403, "TokenError");
  });

  test("deleting an identity takes its auths, client secrets and tokens", async () => {
    const { i, clientId } = await uaIdentity();
    const { clientSecret } = await client.identityAuths.createClientSecret(i.id);
    await client.identityAuths.attach("token-auth", i.id, {});
    const made = await client.identityAuths.createToken(i.id, "deploy");
    expect(made).toMatchObject({ tokenType: "Bearer", expiresIn: 2592000, tokenData: { name: "deploy" } });
    const loggedIn = (await login(clientId, clientSecret)).body.accessToken as string;
    for (const token of [made.accessToken, loggedIn])
      expect((await api.get(`${apiPaths.identities}/${i.id}`, { token })).status).toBe(200);

    await client.identities.delete(i.id);
    for (const token of [made.accessToken, loggedIn])
      expectError(await api.get(apiPaths.projects, { token }), 403, "TokenError");
    expectError(await login(clientId, clientSecret), 401, "UnauthorizedError", "Invalid credentials");
    await expectFailure(client.identityAuths.get("token-auth", i.id), 404, `Failed to find identity with id ${i.id}`);
  });
});

// ---- JWT logins --------------------------------------------------------------------------------

function b64(o: unknown) {
  return Buffer.from(JSON.stringify(o)).toString("base64url");
}
function signJwt(payload: Record<string, unknown>, key: KeyObject, header: Record<string, unknown>) {
  const input = `${b64({ typ: "JWT", ...header })}.${b64(payload)}`;
  const sig = signData("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" });
  return `${input}.${sig.toString("base64url")}`;
}

/** A loopback HTTP server answering `handler`; stopped by the test. */
async function serve(handler: (req: IncomingMessage, body: string) => { status?: number; json: unknown }) {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const r = handler(req, body);
      res.writeHead(r.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(r.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const jwtLogin = (method: string, identityId: string, jwt: string) =>
  api.post(apiPaths.identityLogin(method), { identityId, jwt }, { token: null });

describe("OIDC and JWT auth logins", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  let idp: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    idp = await serve((req) =>
      req.url === "/.well-known/openid-configuration"
        ? { json: { issuer: idp.url, jwks_uri: `${idp.url}/jwks` } }
        : { json: { keys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: "k1", use: "sig", alg: "RS256" }] } },
    );
  });
  afterAll(() => idp.close());

  const now = () => Math.floor(Date.now() / 1000);
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: idp.url,
    sub: "repo:acme/infra:ref:main",
    aud: "sts.acme",
    repository: "acme/infra",
    exp: now() + 600,
    ...extra,
  });

  test("OIDC: discovery, JWKS, signature, expiry, issuer, then subject, audience and claims with the service's words", async () => {
    const i = await newIdentity();
    await client.identityAuths.attach("oidc-auth", i.id, {
      oidcDiscoveryUrl: idp.url,
      boundIssuer: idp.url,
      boundAudiences: "sts.acme, other",
      boundClaims: { repository: "acme/*" },
      boundSubject: "repo:acme/*",
      accessTokenTTL: 300,
    });
    const rs = (c: Record<string, unknown>, key = rsa.privateKey, kid: string | undefined = "k1") =>
      signJwt(c, key, { alg: "RS256", ...(kid && { kid }) });

    const ok = await jwtLogin("oidc-auth", i.id, rs(claims()));
    expect(ok.body).toMatchObject({ expiresIn: 300, tokenType: "Bearer" });
    expect((await api.get(`${apiPaths.identities}/${i.id}`, { token: ok.body.accessToken })).status).toBe(200);
    expect((await jwtLogin("oidc-auth", i.id, rs(claims(), rsa.privateKey, undefined))).status).toBe(200);

    const fails: [string, number, string][] = [
      ["not-a-jwt", 401, "Invalid JWT"],
      [rs(claims(), other.privateKey), 401, "Access denied: invalid signature"],
      [rs(claims({ exp: now() - 5 })), 401, "Access denied: jwt expired"],
      [rs(claims({ iss: "https://evil" })), 401, `Access denied: jwt issuer invalid. expected: ${idp.url}`],
      [rs(claims({ sub: "repo:evil/infra" })), 403, "Access denied: OIDC subject not allowed."],
      [rs(claims({ aud: "nope" })), 401, "Access denied: OIDC audience not allowed."],
      [rs(claims({ repository: undefined })), 401, "Access denied: token has no repository field"],
      [rs(claims({ repository: "evil/infra" })), 401, "Access denied: OIDC claim not allowed."],
      [
        rs(claims(), rsa.privateKey, "k2"),
        401,
        "Access denied: Unable to verify JWT signature. The signing key 'k2' was not found in the OIDC provider's JWKS endpoint. This may indicate an invalid token or misconfigured OIDC provider.",
      ],
    ];
    for (const [jwt, status, message] of fails) {
      const res = await jwtLogin("oidc-auth", i.id, jwt);
      expect(`${res.status} ${res.body.message}`).toBe(`${status} ${message}`);
    }
    const none = await newIdentity();
    expectError(
      await jwtLogin("oidc-auth", none.id, rs(claims())),
      404,
      "NotFound",
      "OIDC auth method not found for identity, did you configure OIDC auth?",
    );
  });

  test("JWT auth with static keys (RS256 and ES256): verified, then issuer, subject, audience and claims", async () => {
    const i = await newIdentity();
    const pem = (k: KeyObject) => k.export({ format: "pem", type: "spki" }).toString();
    await client.identityAuths.attach("jwt-auth", i.id, {
      configurationType: "static",
      jwksUrl: "",
      jwksCaCert: "",
      publicKeys: [pem(rsa.publicKey), pem(ec.publicKey)],
      boundIssuer: "https://issuer.acme",
      boundAudiences: "api",
      boundClaims: { team: "infra" },
      boundSubject: "svc-*",
    });
    const c = (extra: Record<string, unknown> = {}) => ({
      iss: "https://issuer.acme",
      sub: "svc-deploy",
      aud: "api",
      team: "infra",
      exp: now() + 60,
      ...extra,
    });
    expect((await jwtLogin("jwt-auth", i.id, signJwt(c(), rsa.privateKey, { alg: "RS256" }))).status).toBe(200);
    expect((await jwtLogin("jwt-auth", i.id, signJwt(c(), ec.privateKey, { alg: "ES256" }))).status).toBe(200);
    const fails: [string, number, string][] = [
      [
        signJwt(c(), other.privateKey, { alg: "RS256" }),
        401,
        "Access denied: JWT verification failed with all keys. Errors - invalid signature; invalid algorithm",
      ],
      [signJwt(c({ iss: "x" }), rsa.privateKey, { alg: "RS256" }), 403, "Access denied: issuer mismatch"],
      [signJwt(c({ sub: "user-1" }), rsa.privateKey, { alg: "RS256" }), 403, "Access denied: subject not allowed"],
      [signJwt(c({ aud: "web" }), rsa.privateKey, { alg: "RS256" }), 401, "Access denied: token audience not allowed"],
      [
        signJwt(c({ team: "web" }), rsa.privateKey, { alg: "RS256" }),
        401,
        "Access denied: claim mismatch for field team",
      ],
    ];
    for (const [jwt, status, message] of fails) {
      const res = await jwtLogin("jwt-auth", i.id, jwt);
      expect(`${res.status} ${res.body.message}`).toBe(`${status} ${message}`);
    }
  });

  test("JWT auth with a JWKS URL: the key of the token's kid", async () => {
    const i = await newIdentity();
    await client.identityAuths.attach("jwt-auth", i.id, {
      configurationType: "jwks",
      jwksUrl: `${idp.url}/jwks`,
      jwksCaCert: "",
      publicKeys: [],
      boundIssuer: idp.url,
      boundClaims: {},
    });
    const rs = (key: KeyObject) => signJwt(claims(), key, { alg: "RS256", kid: "k1" });
    expect((await jwtLogin("jwt-auth", i.id, rs(rsa.privateKey))).status).toBe(200);
    expectError(
      await jwtLogin("jwt-auth", i.id, rs(other.privateKey)),
      401,
      "UnauthorizedError",
      "Access denied: invalid signature",
    );
  });
});

describe("Kubernetes login", () => {
  const reviews: { authorization?: string; body: Json }[] = [];
  let k8s: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    k8s = await serve((req, raw) => {
      const body = JSON.parse(raw) as Json;
      reviews.push({ authorization: req.headers.authorization, body });
      if (req.url !== "/apis/authentication.k8s.io/v1/tokenreviews") return { status: 404, json: {} };
      const [, ns, name] = String(body.spec.token).split(".");
      if (ns === "error") return { json: { status: { error: "token is revoked" } } };
      if (ns === "anon") return { json: { status: { authenticated: false } } };
      return {
        json: {
          status: {
            authenticated: true,
            user: { username: `system:serviceaccount:${ns}:${name}` },
            audiences: body.spec.audiences ?? ["https://kubernetes.default.svc"],
          },
        },
      };
    });
  });
  afterAll(() => k8s.close());

  test("a TokenReview with the reviewer JWT, then namespace, name and audience with the service's words", async () => {
    const i = await newIdentity();
    await client.identityAuths.attach("kubernetes-auth", i.id, {
      kubernetesHost: k8s.url,
      tokenReviewerJwt: "reviewer-jwt",
      allowedNamespaces: "ci, tools",
      allowedNames: "runner",
      allowedAudience: "vault",
      accessTokenTTL: 90,
    });
    const ok = await jwtLogin("kubernetes-auth", i.id, "sa.ci.runner");
    expect(ok.body).toMatchObject({ expiresIn: 90, tokenType: "Bearer" });
    expect(reviews.at(-1)).toEqual({
      authorization: "Bearer reviewer-jwt",
      body: {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenReview",
        spec: { token: "sa.ci.runner", audiences: ["vault"] },
      },
    });
    const fails: [string, string][] = [
      ["sa.prod.runner", "Access denied: K8s namespace not allowed."],
      ["sa.tools.deployer", "Access denied: K8s name not allowed."],
      ["sa.anon.x", "Kubernetes token not authenticated"],
      ["sa.error.x", "token is revoked"],
    ];
    for (const [jwt, message] of fails)
      expectError(await jwtLogin("kubernetes-auth", i.id, jwt), 401, "UnauthorizedError", message);

    // No reviewer JWT: the login's own JWT reviews itself; an audience the review lacks is refused.
    await client.identityAuths.update("kubernetes-auth", i.id, { tokenReviewerJwt: null, allowedAudience: "" });
    expect((await jwtLogin("kubernetes-auth", i.id, "sa.tools.runner")).status).toBe(200);
    expect(reviews.at(-1)!.authorization).toBe("Bearer sa.tools.runner");
  });
});

describe("plan settings and persistence", () => {
  const customRole = async (on: RunningEmulator) =>
    (
      await newIdentity(new SecretOpsClient({ baseUrl: on.url, token: on.token }, { retry: false }), {
        role: "auditor",
      })
    ).role;

  test("the fixtures' plan field and the CLI's --plan turn the licensed plan on", async () => {
    const fromFixtures = (await start({ fixtures: { ...fixtures, plan: "licensed" } as Fixtures })).emu;
    try {
      expect(await customRole(fromFixtures)).toBe("auditor");
    } finally {
      await fromFixtures.stop();
    }
    const fromCli = await runCli(["--port", "0", "--plan", "licensed", "--no-rate-limit"], () => undefined);
    try {
      expect(await customRole(fromCli)).toBe("auditor");
    } finally {
      await fromCli.stop();
    }
  });

  test("identities, their auths and client secrets survive a restart with --data", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-identities-"));
    const data = join(dir, "state.json");
    try {
      let e = (await start({ data })).emu;
      const c = new SecretOpsClient({ baseUrl: e.url, token: e.token }, { retry: false });
      const i = await newIdentity(c, { hasDeleteProtection: true });
      const { clientId } = await c.identityAuths.attach("universal-auth", i.id, {});
      const { clientSecret } = await c.identityAuths.createClientSecret(i.id);
      await e.stop();
      e = (await start({ data })).emu;
      try {
        const again = new SecretOpsClient({ baseUrl: e.url, token: e.token }, { retry: false });
        expect(await again.identities.get(i.id)).toMatchObject({
          hasDeleteProtection: true,
          authMethods: ["universal-auth"],
        });
        const res = await fetch(`${e.url}${apiPaths.universalAuthLogin}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ clientId, clientSecret }),
        });
        expect(res.status).toBe(200);
        expect(JSON.stringify(await readState(data))).not.toContain(clientSecret);
      } finally {
        await e.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("a data file of an older emulator (universal auth on the identity) loads, its client secret logging in", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emu-identities-old-"));
  const data = join(dir, "state.json");
  try {
    const seeded = seedFromFixtures(undefined);
    const { identityAuths: _a, clientSecrets: _c, ...rest } = seeded;
    const old = {
      ...rest,
      identities: fixtures.identities.map((i) => ({
        id: i.id,
        orgId: i.orgId,
        name: i.name,
        projectIds: i.projectIds,
        ...("universalAuth" in i && { universalAuth: i.universalAuth }),
      })),
      auditLogs: [],
    };
    writeFileSync(data, JSON.stringify(old));
    const e = (await start({ data })).emu;
    try {
      const res = await fetch(`${e.url}${apiPaths.universalAuthLogin}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientId: FX.clientId, clientSecret: FX.clientSecret }),
      });
      expect(res.status).toBe(200);
      const c = new SecretOpsClient({ baseUrl: e.url, token: e.token }, { retry: false });
      expect(await c.identities.get(FX.identityId)).toMatchObject({ role: "admin", authMethods: ["universal-auth"] });
    } finally {
      await e.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

async function readState(file: string): Promise<unknown> {
  const { readFile } = await import("node:fs/promises");
  return JSON.parse(await readFile(file, "utf8"));
}

describe("audit", () => {
  // Runs last: the tests above did each of these at least once on the default emulator.
  test.each([
    "create-identity",
    "update-identity",
    "delete-identity",
    "add-identity-universal-auth",
    "update-identity-universal-auth",
    "revoke-identity-oidc-auth",
    "create-identity-universal-auth-client-secret",
    "revoke-identity-universal-auth-client-secret",
    "create-token-identity-token-auth",
    "login-identity-universal-auth",
    "login-identity-universal-auth-failed",
    "login-identity-oidc-auth",
    "login-identity-oidc-auth-failed",
    "login-identity-jwt-auth",
    "login-identity-kubernetes-auth",
    "login-identity-kubernetes-auth-failed",
  ])("%s is recorded", async (eventType) => {
    const res = await api.get(apiPaths.auditLogs, { query: { eventType, limit: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.auditLogs.map((e: Json) => e.event.type)).toEqual([eventType]);
  });
});
