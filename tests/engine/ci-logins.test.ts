import { generateKeyPairSync, sign as signData, type KeyObject } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient, githubActionsIdToken } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, storedState, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * The provider logs in the way CI and clusters do, through the engine, with no token configured,
 * against the emulator's logins (emulator/identity-login.ts), each identity made and its login
 * method attached through the API:
 *  - OIDC with a JWT the test signs (RS256), its issuer a loopback discovery/JWKS server the
 *    identity's OIDC auth trusts: the JWT from secret stack config, then GitHub Actions' id token
 *    (a loopback stand-in for the runner's id-token endpoint, checked for the audience and bearer);
 *  - Kubernetes with a service-account token file, reviewed by a loopback fake TokenReview server.
 * Each runs `up` and `destroy` of a project; the JWT canaries are nowhere in state, `stack export`
 * or the engine's output.
 */
jest.setTimeout(10 * 60_000);

const AUDIENCE = "https://secretops-logins.example.com";
const SUBJECT = "repo:acme/infra:ref:refs/heads/main";
const CANARY_REQUEST_TOKEN = "canary-actions-request-token-8b2e";
const CANARY_SA_JWT = "canary-service-account-jwt-4f9d";
const REVIEWER_JWT = "canary-token-reviewer-jwt-2a6c";

function b64(o: unknown) {
  return Buffer.from(JSON.stringify(o)).toString("base64url");
}
/** An RS256 JWT; `nonce` makes each one, and so each canary, unique. */
function signJwt(claims: Record<string, unknown>, key: KeyObject) {
  const input = `${b64({ typ: "JWT", alg: "RS256", kid: "k1" })}.${b64(claims)}`;
  return `${input}.${signData("sha256", Buffer.from(input), key).toString("base64url")}`;
}

/** A loopback HTTP server answering `handler`; stopped by the test. */
async function serve(
  handler: (req: http.IncomingMessage, url: URL, body: string) => { status?: number; json: unknown },
) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const r = handler(req, new URL(req.url ?? "/", "http://loopback"), body);
      res.writeHead(r.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(r.json));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("the provider logs in by OIDC and by Kubernetes, with no token configured", () => {
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  let emulator: Emulator;
  let admin: SecretOpsClient;
  let idp: Awaited<ReturnType<typeof serve>>;
  let k8s: Awaited<ReturnType<typeof serve>>;
  let dir: string;
  let oidcIdentity: string;
  let k8sIdentity: string;
  const idTokenAsks: { audience: string | null; authorization: string | undefined }[] = [];
  const reviews: { authorization: string | undefined; token: unknown }[] = [];
  /** The JWTs the tests hand out: none may show anywhere. */
  const canaries: string[] = [CANARY_REQUEST_TOKEN, CANARY_SA_JWT, REVIEWER_JWT];
  const oidcJwt = (aud = AUDIENCE) => {
    const jwt = signJwt(
      { iss: idp.url, sub: SUBJECT, aud, exp: Math.floor(Date.now() / 1000) + 600, nonce: canaries.length },
      rsa.privateKey,
    );
    canaries.push(jwt);
    return jwt;
  };
  const saFile = () => path.join(dir, "token");

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
    admin = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-ci-logins-"));
    fs.writeFileSync(saFile(), `${CANARY_SA_JWT}\n`);
    // The OIDC issuer (discovery and JWKS), and GitHub Actions' id-token endpoint on the same server.
    idp = await serve((req, url) => {
      if (url.pathname === "/.well-known/openid-configuration")
        return { json: { issuer: idp.url, jwks_uri: `${idp.url}/jwks` } };
      if (url.pathname === "/jwks")
        return {
          json: { keys: [{ ...rsa.publicKey.export({ format: "jwk" }), kid: "k1", use: "sig", alg: "RS256" }] },
        };
      if (url.pathname === "/github/idtoken") {
        idTokenAsks.push({ audience: url.searchParams.get("audience"), authorization: req.headers.authorization });
        if (req.headers.authorization !== `Bearer ${CANARY_REQUEST_TOKEN}`) return { status: 401, json: {} };
        return { json: { value: oidcJwt(url.searchParams.get("audience") ?? "https://github.com/acme") } };
      }
      return { status: 404, json: {} };
    });
    // The cluster's TokenReview: the service account's token is ci's deployer.
    k8s = await serve((req, url, raw) => {
      const token = (JSON.parse(raw) as { spec?: { token?: unknown } }).spec?.token;
      reviews.push({ authorization: req.headers.authorization, token });
      if (url.pathname !== "/apis/authentication.k8s.io/v1/tokenreviews") return { status: 404, json: {} };
      if (token !== CANARY_SA_JWT) return { json: { status: { authenticated: false } } };
      return { json: { status: { authenticated: true, user: { username: "system:serviceaccount:ci:deployer" } } } };
    });
    const orgId = emulator.summary.orgId;
    const oidc = await admin.identities.create({ name: "ci-oidc", organizationId: orgId, role: "admin" });
    await admin.identityAuths.attach("oidc-auth", oidc.id, {
      oidcDiscoveryUrl: idp.url,
      boundIssuer: idp.url,
      boundAudiences: AUDIENCE,
      boundSubject: "repo:acme/infra:ref:refs/heads/*",
      boundClaims: {},
    });
    const kube = await admin.identities.create({ name: "ci-k8s", organizationId: orgId, role: "admin" });
    await admin.identityAuths.attach("kubernetes-auth", kube.id, {
      kubernetesHost: k8s.url,
      tokenReviewerJwt: REVIEWER_JWT,
      allowedNamespaces: "ci",
      allowedNames: "deployer",
      allowedAudience: "",
    });
    [oidcIdentity, k8sIdentity] = [oidc.id, kube.id];
  });
  afterAll(async () => {
    await idp?.close();
    await k8s?.close();
    await emulator?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The login routes the provider called since `since` (the emulator's request log), and their statuses. */
  const loginsSince = async (since: number) =>
    (await new EmulatorAdmin(emulator.url).requests())
      .slice(since)
      .filter((r) => r.path.startsWith("/api/v1/auth/"))
      .map((r) => `${r.method} ${r.path} ${r.status}`);
  const requestCount = async () => (await new EmulatorAdmin(emulator.url).requests()).length;

  /** The SDK logged in as the identity the stack logs in as: the project is that identity's. */
  const as = (identityId: string, method: "oidcAuth" | "kubernetesAuth") =>
    new SecretOpsClient(
      method === "oidcAuth"
        ? { baseUrl: emulator.url, oidcAuth: { identityId, jwt: () => oidcJwt() } }
        : { baseUrl: emulator.url, kubernetesAuth: { identityId, jwt: () => CANARY_SA_JWT } },
      { rateLimit: false },
    );

  /** `up` then `destroy` of one project, logged in as the settings say; what the engine showed. */
  async function upAndDestroy(
    slug: string,
    reader: SecretOpsClient,
    config: Record<string, { value: string; secret?: boolean }>,
    env: Record<string, string> = {},
  ): Promise<string> {
    const output: string[] = [];
    const onOutput = (s: string) => output.push(s);
    const t: TestStack = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "resources:resources": {
          value: JSON.stringify([{ kind: "Project", name: "app", args: { projectName: `Logins ${slug}`, slug } }]),
        },
        ...config,
      },
      env,
    });
    try {
      const up = await t.stack.up({ onOutput });
      expect(changeCounts(up.summary.resourceChanges).create).toBe(2);
      expect(await reader.projects.getBySlug(slug)).toMatchObject({ slug });
      const shown = [storedState(t), await cliStackExport(t)];
      const destroy = await t.stack.destroy({ onOutput });
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(2);
      await expect(reader.projects.getBySlug(slug)).rejects.toMatchObject({ status: 404 });
      return [...shown, output.join("")].join("\n");
    } finally {
      await t.dispose({ destroy: false });
    }
  }
  const expectNoCanary = (shown: string) => {
    for (const canary of canaries) {
      expect(shown).not.toContain(canary);
      expect(shown).not.toContain(Buffer.from(canary).toString("base64"));
    }
  };

  it("OIDC with a signed JWT in secret stack config (secretops:identityId, secretops:oidcToken)", async () => {
    const since = await requestCount();
    const shown = await upAndDestroy("logins-oidc", as(oidcIdentity, "oidcAuth"), {
      "secretops:identityId": { value: oidcIdentity },
      "secretops:oidcToken": { value: oidcJwt(), secret: true },
    });
    const logins = await loginsSince(since);
    expect(logins.length).toBeGreaterThan(0);
    expect(new Set(logins)).toEqual(new Set(["POST /api/v1/auth/oidc-auth/login 200"]));
    expectNoCanary(shown);
  });

  it("OIDC in a GitHub Actions job: the id token asked for with oidcAudience and the job's request token", async () => {
    const since = await requestCount();
    idTokenAsks.length = 0;
    const job = {
      ACTIONS_ID_TOKEN_REQUEST_URL: `${idp.url}/github/idtoken?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: CANARY_REQUEST_TOKEN,
    };
    // The test's own reads log in the same way (the SDK's githubActionsIdToken).
    const reader = new SecretOpsClient(
      {
        baseUrl: emulator.url,
        oidcAuth: { identityId: oidcIdentity, jwt: githubActionsIdToken({ audience: AUDIENCE, env: job }) },
      },
      { rateLimit: false },
    );
    const shown = await upAndDestroy(
      "logins-github",
      reader,
      { "secretops:oidcAudience": { value: AUDIENCE } },
      { SECRETOPS_IDENTITY_ID: oidcIdentity, ...job },
    );
    const logins = await loginsSince(since);
    expect(idTokenAsks.length).toBe(logins.length);
    expect(idTokenAsks.every((a) => a.audience === AUDIENCE)).toBe(true);
    expect(idTokenAsks.every((a) => a.authorization === `Bearer ${CANARY_REQUEST_TOKEN}`)).toBe(true);
    expect(new Set(logins)).toEqual(new Set(["POST /api/v1/auth/oidc-auth/login 200"]));
    expectNoCanary(shown);
  });

  it("Kubernetes with the service-account token file (secretops:kubernetesTokenPath), reviewed by the cluster", async () => {
    const since = await requestCount();
    reviews.length = 0;
    const shown = await upAndDestroy("logins-k8s", as(k8sIdentity, "kubernetesAuth"), {
      "secretops:identityId": { value: k8sIdentity },
      "secretops:kubernetesTokenPath": { value: saFile() },
    });
    const logins = await loginsSince(since);
    expect(logins.length).toBeGreaterThan(0);
    expect(new Set(logins)).toEqual(new Set(["POST /api/v1/auth/kubernetes-auth/login 200"]));
    expect(reviews.length).toBe(logins.length);
    expect(reviews.every((r) => r.token === CANARY_SA_JWT && r.authorization === `Bearer ${REVIEWER_JWT}`)).toBe(true);
    expectNoCanary(shown);
  });

  it("a JWT the identity does not trust fails the up with the service's words, never the JWT", async () => {
    const output: string[] = [];
    const wrongAudience = oidcJwt("https://elsewhere.example.com");
    const t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:identityId": { value: oidcIdentity },
        "secretops:oidcToken": { value: wrongAudience, secret: true },
        "resources:resources": {
          value: JSON.stringify([
            { kind: "Project", name: "app", args: { projectName: "Refused", slug: "logins-refused" } },
          ]),
        },
      },
    });
    try {
      const err = await t.stack.up({ onOutput: (s) => output.push(s) }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect(output.join("")).toContain("Access denied: OIDC audience not allowed.");
      expectNoCanary(`${String(err)}\n${output.join("")}\n${storedState(t)}`);
    } finally {
      await t.dispose({ destroy: false });
    }
  });

  it("an oidcToken set as plain stack config stops the program, naming the key and not the value", async () => {
    const jwt = oidcJwt();
    const t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:identityId": { value: oidcIdentity },
        "secretops:oidcToken": { value: jwt },
        "resources:resources": {
          value: JSON.stringify([
            { kind: "Project", name: "app", args: { projectName: "Plain", slug: "logins-plain" } },
          ]),
        },
      },
    });
    try {
      const err = await t.stack.preview().catch((e: Error) => e);
      expect(String(err)).toContain("secretops:oidcToken is set as plain stack config");
      expect(String(err)).not.toContain(jwt);
    } finally {
      await t.dispose({ destroy: false });
    }
  });
});
