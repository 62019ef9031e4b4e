import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, storedState, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * The provider logs in the way CI and clusters do, through the engine, with no token configured:
 * OIDC with a JWT from secret stack config, OIDC with GitHub Actions' id token (the job's
 * variables), and Kubernetes with a service-account token file; each runs `up` and `destroy` of a
 * project, and its JWT canary is nowhere in state, `stack export` or the engine's output.
 *
 * [Stand-in until the emulator's identity logins are merged:] the login routes are a loopback
 * front (node:http) before the emulator: it answers `POST /api/v1/auth/{oidc,kubernetes}-auth/login`
 * itself, checking the identity and the JWT it expects and answering with the emulator's token,
 * serves the id-token endpoint of GitHub Actions, and passes every other request to the emulator.
 * Once the emulator verifies JWTs (a signed one, its issuer's JWKS; a TokenReview server), the
 * front goes and the JWTs become signed ones.
 */
jest.setTimeout(10 * 60_000);

const IDENTITY = "3f2e1d0c-9b8a-4765-8432-10fedcba9876";
const CANARY_JWT = "eyJhbGciOiJSUzI1NiJ9.canary-ci-login-jwt-7e3b.sig";
const CANARY_GITHUB_JWT = "eyJhbGciOiJSUzI1NiJ9.canary-github-id-token-1c5a.sig";
const CANARY_SA_JWT = "eyJhbGciOiJSUzI1NiJ9.canary-service-account-jwt-4f9d.sig";
const CANARY_REQUEST_TOKEN = "canary-actions-request-token-8b2e";
const AUDIENCE = "https://secretops-logins.example.com";
const CANARIES = [CANARY_JWT, CANARY_GITHUB_JWT, CANARY_SA_JWT, CANARY_REQUEST_TOKEN];

interface Login {
  method: string;
  identityId: string;
  jwt: string;
}

/** The loopback front: the login routes and GitHub's id-token endpoint here, the rest passed to `upstream`. */
async function startFront(upstream: string, accessToken: string, expectedJwt: Record<string, string>) {
  const logins: Login[] = [];
  const idTokenAsks: { audience: string | null; authorization: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://front");
      const login = /^\/api\/v1\/auth\/(oidc-auth|kubernetes-auth)\/login$/.exec(url.pathname);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === "/github/idtoken") {
        idTokenAsks.push({ audience: url.searchParams.get("audience"), authorization: req.headers.authorization });
        if (req.headers.authorization !== `Bearer ${CANARY_REQUEST_TOKEN}`) return json(401, { message: "bad token" });
        return json(200, { value: CANARY_GITHUB_JWT });
      }
      if (login && req.method === "POST") {
        const { identityId, jwt } = JSON.parse(body.toString("utf8")) as { identityId: string; jwt: string };
        logins.push({ method: login[1]!, identityId, jwt });
        if (identityId !== IDENTITY || jwt !== expectedJwt[login[1]!]) {
          return json(401, { reqId: "r", statusCode: 401, error: "UnauthorizedError", message: "Invalid JWT" });
        }
        return json(200, { accessToken, expiresIn: 3600, accessTokenMaxTTL: 7200, tokenType: "Bearer" });
      }
      const target = new URL(req.url ?? "/", upstream);
      const forward = http.request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => json(502, { message: "upstream unreachable" }));
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logins,
    idTokenAsks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the provider logs in by OIDC and by Kubernetes, with no token configured", () => {
  let emulator: Emulator;
  let front: Awaited<ReturnType<typeof startFront>>;
  /** The JWT the front accepts for each login method (each test sets the one it gives). */
  const accepted: Record<string, string> = { "oidc-auth": CANARY_JWT, "kubernetes-auth": CANARY_SA_JWT };
  let dir: string;
  const saFile = () => path.join(dir, "token");

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-ci-logins-"));
    fs.writeFileSync(saFile(), `${CANARY_SA_JWT}\n`);
    front = await startFront(emulator.url, emulator.token, accepted);
  });
  afterAll(async () => {
    await front?.close();
    await emulator?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `up` then `destroy` of one project, logged in as the settings say; what the engine showed. */
  async function upAndDestroy(
    slug: string,
    config: Record<string, { value: string; secret?: boolean }>,
    env: Record<string, string> = {},
  ) {
    const output: string[] = [];
    const onOutput = (s: string) => output.push(s);
    const t: TestStack = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: front.url },
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
      const admin = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
      const made = await admin.projects.getBySlug(slug);
      expect(made).toMatchObject({ slug });
      const state = storedState(t);
      const exported = await cliStackExport(t);
      const destroy = await t.stack.destroy({ onOutput });
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(2);
      await expect(admin.projects.getBySlug(slug)).rejects.toMatchObject({ status: 404 });
      return { shown: [state, exported, output.join("")].join("\n") };
    } finally {
      await t.dispose({ destroy: false });
    }
  }
  const expectNoCanary = (shown: string) => {
    for (const canary of CANARIES) expect(shown).not.toContain(canary);
  };

  it("OIDC with the JWT in secret stack config (secretops:identityId, secretops:oidcToken)", async () => {
    front.logins.length = 0;
    const { shown } = await upAndDestroy("logins-oidc", {
      "secretops:identityId": { value: IDENTITY },
      "secretops:oidcToken": { value: CANARY_JWT, secret: true },
    });
    expect(front.logins.length).toBeGreaterThan(0);
    expect(front.logins.every((l) => l.method === "oidc-auth" && l.jwt === CANARY_JWT)).toBe(true);
    expectNoCanary(shown);
  });

  it("OIDC in a GitHub Actions job: the id token asked for with the audience and the job's request token", async () => {
    front.logins.length = 0;
    accepted["oidc-auth"] = CANARY_GITHUB_JWT;
    const { shown } = await upAndDestroy(
      "logins-github",
      { "secretops:oidcAudience": { value: AUDIENCE } },
      {
        SECRETOPS_IDENTITY_ID: IDENTITY,
        ACTIONS_ID_TOKEN_REQUEST_URL: `${front.url}/github/idtoken?api-version=2.0`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: CANARY_REQUEST_TOKEN,
      },
    );
    expect(front.idTokenAsks.length).toBeGreaterThan(0);
    expect(front.idTokenAsks.every((a) => a.audience === AUDIENCE)).toBe(true);
    expect(front.logins.length).toBe(front.idTokenAsks.length);
    expect(front.logins.every((l) => l.method === "oidc-auth" && l.jwt === CANARY_GITHUB_JWT)).toBe(true);
    expectNoCanary(shown);
  });

  it("Kubernetes with the service-account token file (secretops:kubernetesTokenPath)", async () => {
    front.logins.length = 0;
    const { shown } = await upAndDestroy("logins-k8s", {
      "secretops:identityId": { value: IDENTITY },
      "secretops:kubernetesTokenPath": { value: saFile() },
    });
    expect(front.logins.length).toBeGreaterThan(0);
    expect(front.logins.every((l) => l.method === "kubernetes-auth" && l.jwt === CANARY_SA_JWT)).toBe(true);
    expectNoCanary(shown);
  });

  it("an oidcToken set as plain stack config stops the program, naming the key and not the value", async () => {
    const t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: front.url },
        "secretops:identityId": { value: IDENTITY },
        "secretops:oidcToken": { value: CANARY_JWT },
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
      expect(String(err)).not.toContain(CANARY_JWT);
    } finally {
      await t.dispose({ destroy: false });
    }
  });
});
