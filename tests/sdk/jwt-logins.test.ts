import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as util from "node:util";
import { SecretOpsClient, SecretOpsValidationError, githubActionsIdToken, jwtFromFile } from "../../sdk";
import { appConnection, ids, loginToken } from "./helpers/fixtures";
import { type Recorded, type StubServer, errorBody, startStub } from "./helpers/stub-server";

/**
 * OIDC and Kubernetes logins (`POST /api/v1/auth/{oidc-auth,kubernetes-auth}/login`, body
 * `{ identityId, jwt }`): the JWT read from its source at each login, the session's renewal,
 * and the JWT kept out of every error and of the client. The login route is the stub's (a
 * loopback fake), as is GitHub Actions' id-token endpoint.
 */

const OIDC_LOGIN = "/api/v1/auth/oidc-auth/login";
const K8S_LOGIN = "/api/v1/auth/kubernetes-auth/login";
const GITHUB_TOKEN_PATH = "/_apis/pipelines/workflows/run/idtoken";
const IDENTITY = "7a3c1f0e-2b4d-4e8a-9c6f-1d2e3f4a5b6c";
const CANARY_JWT = "eyJhbGciOiJSUzI1NiJ9.canary-jwt-payload-6f1e2d.sig";
const CANARY_REQUEST_TOKEN = "canary-actions-request-token-9b7c";
const conn = { status: 200, body: { appConnection: appConnection() } };
const bearer = (r: Recorded) => r.headers.authorization;
const get = (c: SecretOpsClient) => c.appConnections.get("postgres", ids.connection);

let stub: StubServer;
let dir: string;
beforeEach(async () => {
  stub = await startStub();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "jwt-logins-"));
});
afterEach(async () => {
  await stub.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const options = { rateLimit: false as const, retry: { baseDelayMs: 1, maxDelayMs: 5 } };
const logins = (p: string) => stub.requests.filter((r) => r.path === p);
const jwtsSent = (p: string) => logins(p).map((r) => (JSON.parse(r.body) as { jwt: string }).jwt);

test("OIDC: one login with the identity and the function's JWT (no bearer), shared by concurrent calls", async () => {
  let reads = 0;
  const c = new SecretOpsClient(
    { baseUrl: stub.url, oidcAuth: { identityId: IDENTITY, jwt: async () => (++reads, CANARY_JWT) } },
    options,
  );
  stub.fallback((r) => (r.path === OIDC_LOGIN ? { status: 200, body: loginToken("oidc-access-1") } : conn));
  await Promise.all([1, 2, 3].map(() => get(c)));
  await get(c);
  expect(logins(OIDC_LOGIN)).toHaveLength(1);
  expect(reads).toBe(1);
  expect(JSON.parse(logins(OIDC_LOGIN)[0]!.body)).toEqual({ identityId: IDENTITY, jwt: CANARY_JWT });
  expect(bearer(logins(OIDC_LOGIN)[0]!)).toBeUndefined();
  expect(stub.requests.filter((r) => r.path !== OIDC_LOGIN).map(bearer)).toEqual(Array(4).fill("Bearer oidc-access-1"));
});

test("client.login() works for OIDC and returns the lifetime, never the token or the JWT", async () => {
  const c = new SecretOpsClient(
    { baseUrl: stub.url, oidcAuth: { identityId: IDENTITY, jwt: () => CANARY_JWT } },
    options,
  );
  stub.queue({ status: 200, body: loginToken("oidc-access-secret", 100) });
  const info = await c.login();
  expect(info).toMatchObject({ expiresIn: 100, accessTokenMaxTTL: 7200, tokenType: "Bearer" });
  expect(JSON.stringify(info)).not.toMatch(/oidc-access-secret|canary-jwt/);
});

test("Kubernetes: the token file is read again at each renewal (the kubelet rotates it)", async () => {
  const file = path.join(dir, "token");
  fs.writeFileSync(file, "k8s-jwt-1\n");
  // Renew as soon as possible: a tiny fraction of a one-second token.
  const c = new SecretOpsClient(
    { baseUrl: stub.url, kubernetesAuth: { identityId: IDENTITY, jwt: jwtFromFile(file) } },
    { ...options, tokenRenewAtFraction: 0.001 },
  );
  let n = 0;
  stub.fallback((r) => (r.path === K8S_LOGIN ? { status: 200, body: loginToken(`k8s-access-${++n}`, 1) } : conn));
  await get(c);
  fs.writeFileSync(file, "k8s-jwt-2");
  await new Promise((r) => setTimeout(r, 20));
  await get(c);
  expect(jwtsSent(K8S_LOGIN)).toEqual(["k8s-jwt-1", "k8s-jwt-2"]);
  expect(stub.requests.filter((r) => r.path !== K8S_LOGIN).map(bearer)).toEqual([
    "Bearer k8s-access-1",
    "Bearer k8s-access-2",
  ]);
});

test("after a 401 the JWT is read again and the request repeated once", async () => {
  const jwts = ["jwt-a", "jwt-b"];
  const c = new SecretOpsClient(
    { baseUrl: stub.url, kubernetesAuth: { identityId: IDENTITY, jwt: () => jwts.shift()! } },
    options,
  );
  let n = 0;
  let rejected = false;
  stub.fallback((r) => {
    if (r.path === K8S_LOGIN) return { status: 200, body: loginToken(`k-${++n}`) };
    if (!rejected) {
      rejected = true;
      return { status: 401, body: errorBody(401, "UnauthorizedError", "Token expired") };
    }
    return conn;
  });
  await get(c);
  expect(jwtsSent(K8S_LOGIN)).toEqual(["jwt-a", "jwt-b"]);
  expect(stub.requests.filter((r) => r.path !== K8S_LOGIN).map(bearer)).toEqual(["Bearer k-1", "Bearer k-2"]);
});

describe("GitHub Actions' id token", () => {
  const env = () => ({
    ACTIONS_ID_TOKEN_REQUEST_URL: `${stub.url}${GITHUB_TOKEN_PATH}?api-version=2.0`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: CANARY_REQUEST_TOKEN,
  });

  test("asked for at each login with the audience and the request token; its value is the login's JWT", async () => {
    let n = 0;
    const c = new SecretOpsClient(
      {
        baseUrl: stub.url,
        oidcAuth: {
          identityId: IDENTITY,
          jwt: githubActionsIdToken({ audience: "https://secrets.example.com", env: env() }),
        },
      },
      options,
    );
    stub.fallback((r) => {
      if (r.path === GITHUB_TOKEN_PATH) return { status: 200, body: { value: `gh-jwt-${++n}` } };
      if (r.path === OIDC_LOGIN) return { status: 200, body: loginToken(`gh-access-${n}`) };
      return conn;
    });
    await c.login();
    await c.login(); // a renewal asks GitHub again
    const asks = stub.requests.filter((r) => r.path === GITHUB_TOKEN_PATH);
    expect(asks).toHaveLength(2);
    for (const ask of asks) {
      expect(ask.method).toBe("GET");
      expect(bearer(ask)).toBe(`Bearer ${CANARY_REQUEST_TOKEN}`);
      const query = new URL(ask.url, stub.url).searchParams;
      expect(query.get("audience")).toBe("https://secrets.example.com");
      expect(query.get("api-version")).toBe("2.0");
    }
    expect(jwtsSent(OIDC_LOGIN)).toEqual(["gh-jwt-1", "gh-jwt-2"]);
    // GitHub's request token goes to GitHub only.
    expect(logins(OIDC_LOGIN).map((r) => JSON.stringify(r))).not.toEqual(
      expect.arrayContaining([expect.stringContaining(CANARY_REQUEST_TOKEN)]),
    );
  });

  test("without an audience the query has none (GitHub's default audience)", async () => {
    stub.queue({ status: 200, body: { value: CANARY_JWT } });
    await expect(githubActionsIdToken({ env: env() })()).resolves.toBe(CANARY_JWT);
    expect(new URL(stub.requests[0]!.url, stub.url).searchParams.has("audience")).toBe(false);
  });

  test("a job without `id-token: write` or a refusal is an error naming the variables or the status, never the token", async () => {
    const c = new SecretOpsClient(
      { baseUrl: stub.url, oidcAuth: { identityId: IDENTITY, jwt: githubActionsIdToken({ env: {} }) } },
      options,
    );
    await expect(c.login()).rejects.toThrow(
      "oidcAuth.jwt: no GitHub Actions id token: ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN are not set (the job needs `permissions: id-token: write`)",
    );
    stub.queue({ status: 403, body: { message: `bad token ${CANARY_REQUEST_TOKEN}` } });
    const refused = await Promise.resolve(githubActionsIdToken({ env: env() })()).catch((e: Error) => e);
    expect(String(refused)).toMatch(/GitHub Actions' id-token endpoint \(127\.0\.0\.1:\d+\) answered 403/);
    expect(util.inspect(refused)).not.toContain(CANARY_REQUEST_TOKEN);
    expect(stub.requests.filter((r) => r.path === OIDC_LOGIN)).toHaveLength(0);
  });
});

describe("the JWT is never shown", () => {
  test("not in a failed login's error, nor in the client (inspect, JSON) before or after a login", async () => {
    const c = new SecretOpsClient(
      { baseUrl: stub.url, oidcAuth: { identityId: IDENTITY, jwt: () => CANARY_JWT } },
      options,
    );
    const shown = () => [util.inspect(c, { depth: 20, showHidden: true }), JSON.stringify(c)].join("\n");
    expect(shown()).not.toContain("canary-jwt");
    stub.queue({ status: 401, body: errorBody(401, "UnauthorizedError", "OIDC token verification failed") });
    const err = await c.login().catch((e: Error) => e);
    expect(err).toMatchObject({ status: 401, method: "POST", path: OIDC_LOGIN });
    expect(`${util.inspect(err, { depth: 20, showHidden: true })} ${JSON.stringify(err)}`).not.toContain("canary-jwt");
    stub.queue({ status: 200, body: loginToken("access") });
    await c.login();
    expect(shown()).not.toContain("canary-jwt");
  });

  test("a JWT given as a string instead of a source is refused without echoing it", () => {
    const err = (() => {
      try {
        new SecretOpsClient({ baseUrl: stub.url, oidcAuth: { identityId: " ", jwt: CANARY_JWT as never } });
      } catch (e) {
        return e as SecretOpsValidationError;
      }
      throw new Error("accepted");
    })();
    expect(err).toBeInstanceOf(SecretOpsValidationError);
    expect(err.issues).toEqual([
      { path: "oidcAuth.identityId", message: "must not be empty" },
      {
        path: "oidcAuth.jwt",
        message:
          "must be a function that returns the JWT (sdk/jwt-sources.ts has a file's, GitHub Actions' and a pod's)",
      },
    ]);
    expect(util.inspect(err, { depth: 20, showHidden: true })).not.toContain("canary-jwt");
  });

  test("an empty JWT or an unreadable file is refused before anything is sent, naming the setting", async () => {
    const empty = new SecretOpsClient(
      { baseUrl: stub.url, oidcAuth: { identityId: IDENTITY, jwt: () => "  " } },
      options,
    );
    await expect(empty.login()).rejects.toThrow("oidcAuth.jwt: must not be empty");
    fs.writeFileSync(path.join(dir, "blank"), "\n");
    const blank = new SecretOpsClient(
      { baseUrl: stub.url, kubernetesAuth: { identityId: IDENTITY, jwt: jwtFromFile(path.join(dir, "blank")) } },
      options,
    );
    await expect(blank.login()).rejects.toThrow(`kubernetesAuth.jwt: the JWT file ${path.join(dir, "blank")} is empty`);
    const missing = path.join(dir, "no-such-token");
    const absent = new SecretOpsClient(
      { baseUrl: stub.url, kubernetesAuth: { identityId: IDENTITY, jwt: jwtFromFile(missing) } },
      options,
    );
    await expect(absent.login()).rejects.toThrow(`kubernetesAuth.jwt: cannot read the JWT file ${missing} (ENOENT)`);
    expect(stub.requests).toHaveLength(0);
  });
});
