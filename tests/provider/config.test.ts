import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  apiClient,
  clientFrom,
  configurationProblem,
  configure,
  endpointProblem,
  jwtLoginFrom,
  providerSettings,
} from "../../provider/config";
import { plainCredentialConfigProblem } from "../../provider/program-side";
import { type StubServer, startStub } from "../sdk/helpers/stub-server";

// Where the provider finds its endpoint: a plain http URL for a host other than loopback would
// send the token unencrypted across the network, so it is refused unless opted into.

const config = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
const TOKEN = "canary-token-3c9e1f";

describe("secretops:apiUrl", () => {
  const saved = { ...process.env };
  beforeEach(() => {
    for (const k of ["SECRETOPS_API_URL", "INFISICAL_HOST", "SECRETOPS_ALLOW_INSECURE_HTTP"]) delete process.env[k];
  });
  afterAll(() => {
    process.env = saved;
  });

  it("accepts https anywhere and plain http on loopback hosts (the emulator)", () => {
    for (const apiUrl of [
      "https://app.infisical.com",
      "http://127.0.0.1:8080",
      "http://127.3.2.1",
      "http://localhost:8080/",
      "http://[::1]:8080",
    ]) {
      expect(providerSettings(config({ "secretops:apiUrl": apiUrl, "secretops:token": TOKEN })).apiUrl).toBe(apiUrl);
    }
  });

  it("refuses plain http elsewhere, saying why and how to opt in, naming the host and never the URL's credentials", () => {
    const run = () =>
      providerSettings(
        config({ "secretops:apiUrl": "http://user:hunter2@secrets.corp.internal/", "secretops:token": TOKEN }),
      );
    expect(run).toThrow(
      "secretops:apiUrl uses plain http for secrets.corp.internal, which would send the token unencrypted across the network: use https, or, on a network you trust, set `pulumi config set secretops:allowInsecureHttp true` (or SECRETOPS_ALLOW_INSECURE_HTTP=true). Plain http is accepted without it only for loopback hosts (the emulator).",
    );
    expect(() => run()).not.toThrow(/hunter2|canary-token/);
    // 0.0.0.0 is no loopback host.
    expect(() => providerSettings(config({ "secretops:apiUrl": "http://0.0.0.0:8080" }))).toThrow(
      /plain http for 0\.0\.0\.0/,
    );
  });

  it("takes the opt-in from stack config or the environment", () => {
    const apiUrl = "http://secrets.corp.internal";
    expect(providerSettings(config({ "secretops:apiUrl": apiUrl, "secretops:allowInsecureHttp": "true" })).apiUrl).toBe(
      apiUrl,
    );
    process.env.SECRETOPS_ALLOW_INSECURE_HTTP = "true";
    expect(providerSettings(config({ "secretops:apiUrl": apiUrl })).apiUrl).toBe(apiUrl);
  });

  it("refuses what is no http(s) URL", () => {
    expect(() => providerSettings(config({ "secretops:apiUrl": "app.infisical.com" }))).toThrow(
      "secretops:apiUrl must be an https URL (for example https://app.infisical.com)",
    );
    expect(() => providerSettings(config({ "secretops:apiUrl": "ftp://app.infisical.com" }))).toThrow(
      "secretops:apiUrl must be an https URL, not ftp:",
    );
  });

  it("is checked when the engine configures the provider, for every check to report (a preview sends nothing)", () => {
    configure(config({ "secretops:apiUrl": "http://secrets.corp.internal" }));
    expect(configurationProblem()).toMatch(/^secretops:apiUrl uses plain http for secrets\.corp\.internal/);
    configure(config({ "secretops:apiUrl": "https://secrets.corp.internal" }));
    expect(configurationProblem()).toBeUndefined();
  });
});

describe("named endpoints (secretops:endpoints)", () => {
  const endpoints = (value: unknown) =>
    config({ "secretops:apiUrl": "https://app.infisical.com", "secretops:endpoints": JSON.stringify(value) });
  const eu = { apiUrl: "https://eu.infisical.com", token: TOKEN, readsPerMinute: 120 };

  it("reads a named endpoint's settings from its object in the stack config", () => {
    const s = providerSettings(endpoints({ eu }), "eu");
    expect(s).toMatchObject({ apiUrl: "https://eu.infisical.com", token: TOKEN, readsPerMinute: 120 });
    // The stack's own endpoint is unchanged.
    expect(providerSettings(endpoints({ eu })).apiUrl).toBe("https://app.infisical.com");
  });

  it("names a missing endpoint, the ones there are and how to set it, at check (endpointProblem)", () => {
    configure(endpoints({ eu }));
    expect(endpointProblem("us")).toBe(
      "no endpoint \"us\" in the stack config (it has eu): set `pulumi config set --path 'secretops:endpoints.us.apiUrl' <url>` and `pulumi config set --secret --path 'secretops:endpoints.us.token' <token>`",
    );
    expect(endpointProblem("eu")).toBeUndefined();
    configure(endpoints({ eu: { ...eu, apiUrl: "http://eu.corp.internal" } }));
    expect(endpointProblem("eu")).toMatch(
      /^secretops:endpoints\.eu\.apiUrl uses plain http for eu\.corp\.internal, .*`pulumi config set --path 'secretops:endpoints\.eu\.allowInsecureHttp' true`/,
    );
    expect(endpointProblem("eu")).not.toContain(TOKEN);
  });

  it("refuses an endpoint without credentials only when a call needs them, naming the keys", () => {
    configure(endpoints({ eu: { apiUrl: "https://eu.infisical.com" } }));
    expect(endpointProblem("eu")).toBeUndefined();
    expect(() => apiClient("eu")).toThrow(
      "no credentials configured for endpoint \"eu\": set `pulumi config set --secret --path 'secretops:endpoints.eu.token' <token>`, or 'secretops:endpoints.eu.clientId' and (with --secret) 'secretops:endpoints.eu.clientSecret' for universal auth",
    );
  });
});

describe("OIDC and Kubernetes logins (identityId, authMethod, oidcToken, oidcTokenFile, oidcAudience, kubernetesTokenPath)", () => {
  const saved = { ...process.env };
  const IDENTITY = "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
  const CANARY_JWT = "eyJhbGciOiJSUzI1NiJ9.canary-config-jwt-4d8e.sig";
  const OIDC_LOGIN = "/api/v1/auth/oidc-auth/login";
  const K8S_LOGIN = "/api/v1/auth/kubernetes-auth/login";
  const UA_LOGIN = "/api/v1/auth/universal-auth/login";
  const loginAnswer = {
    status: 200,
    body: { accessToken: "access", expiresIn: 3600, accessTokenMaxTTL: 7200, tokenType: "Bearer" },
  };
  let stub: StubServer;
  let dir: string;
  beforeEach(async () => {
    for (const k of Object.keys(process.env))
      if (/^(SECRETOPS_|INFISICAL_|ACTIONS_ID_TOKEN_|KUBERNETES_SERVICE_HOST)/.test(k)) delete process.env[k];
    stub = await startStub();
    stub.fallback((r) => (r.path.endsWith("/login") ? loginAnswer : { status: 404, body: {} }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "config-logins-"));
  });
  afterEach(async () => {
    await stub.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    process.env = saved;
  });
  const at = (values: Record<string, string>) => config({ "secretops:apiUrl": stub.url, ...values });
  /** The login routes the client built from `values` calls, with the JWT each sent. */
  async function loginsOf(values: Record<string, string>) {
    await clientFrom(at(values)).login();
    return stub.requests
      .filter((r) => r.path.endsWith("/login"))
      .map((r) => [r.path, (JSON.parse(r.body) as { jwt?: string }).jwt]);
  }
  const errorOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error("no error");
  };

  it("OIDC with a JWT from stack config", async () => {
    expect(await loginsOf({ "secretops:identityId": IDENTITY, "secretops:oidcToken": CANARY_JWT })).toEqual([
      [OIDC_LOGIN, CANARY_JWT],
    ]);
    expect(JSON.parse(stub.requests[0]!.body)).toEqual({ identityId: IDENTITY, jwt: CANARY_JWT });
  });

  it("OIDC from the service's own variables (INFISICAL_MACHINE_IDENTITY_ID, INFISICAL_AUTH_JWT)", async () => {
    process.env.INFISICAL_MACHINE_IDENTITY_ID = IDENTITY;
    process.env.INFISICAL_AUTH_JWT = CANARY_JWT;
    expect(await loginsOf({})).toEqual([[OIDC_LOGIN, CANARY_JWT]]);
  });

  it("OIDC from a file, read again at each login", async () => {
    const file = path.join(dir, "jwt");
    fs.writeFileSync(file, "file-jwt-1\n");
    const c = clientFrom(at({ "secretops:identityId": IDENTITY, "secretops:oidcTokenFile": file }));
    await c.login();
    fs.writeFileSync(file, "file-jwt-2\n");
    await c.login();
    expect(stub.requests.map((r) => [r.path, JSON.parse(r.body).jwt])).toEqual([
      [OIDC_LOGIN, "file-jwt-1"],
      [OIDC_LOGIN, "file-jwt-2"],
    ]);
  });

  it("OIDC in a GitHub Actions job: the id token asked for with oidcAudience, inferred from the job's variables", async () => {
    process.env.ACTIONS_ID_TOKEN_REQUEST_URL = `${stub.url}/idtoken?api-version=2.0`;
    process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = "canary-request-token-2a";
    stub.fallback((r) =>
      r.path === "/idtoken"
        ? { status: 200, body: { value: CANARY_JWT } }
        : r.path === OIDC_LOGIN
          ? loginAnswer
          : { status: 404 },
    );
    const c = clientFrom(
      at({ "secretops:identityId": IDENTITY, "secretops:oidcAudience": "https://secrets.example.com" }),
    );
    await c.login();
    const [ask, login] = stub.requests;
    expect(new URL(ask!.url, stub.url).searchParams.get("audience")).toBe("https://secrets.example.com");
    expect(ask!.headers.authorization).toBe("Bearer canary-request-token-2a");
    expect([login!.path, JSON.parse(login!.body).jwt]).toEqual([OIDC_LOGIN, CANARY_JWT]);
  });

  it("Kubernetes from kubernetesTokenPath (or INFISICAL_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH), read at each login", async () => {
    const file = path.join(dir, "sa-token");
    fs.writeFileSync(file, "sa-jwt-1");
    const c = clientFrom(at({ "secretops:identityId": IDENTITY, "secretops:kubernetesTokenPath": file }));
    await c.login();
    fs.writeFileSync(file, "sa-jwt-2");
    await c.login();
    process.env.INFISICAL_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH = file;
    await clientFrom(at({ "secretops:identityId": IDENTITY, "secretops:authMethod": "kubernetes" })).login();
    expect(stub.requests.map((r) => [r.path, JSON.parse(r.body).jwt])).toEqual([
      [K8S_LOGIN, "sa-jwt-1"],
      [K8S_LOGIN, "sa-jwt-2"],
      [K8S_LOGIN, "sa-jwt-2"],
    ]);
  });

  it("infers the method: an OIDC JWT, a token path, a GitHub Actions job, a pod (the mounted token)", () => {
    const s = (v: Record<string, string>) => providerSettings(at({ "secretops:identityId": IDENTITY, ...v }));
    const plan = (v: Record<string, string>, env: Record<string, string> = {}) => {
      const p = jwtLoginFrom(s(v), undefined, env)!;
      return [p.method, p.from];
    };
    expect(plan({ "secretops:oidcToken": CANARY_JWT })).toEqual(["oidc-auth", "secretops:oidcToken"]);
    expect(plan({ "secretops:oidcTokenFile": "/ci/jwt" })).toEqual(["oidc-auth", "/ci/jwt"]);
    expect(plan({ "secretops:kubernetesTokenPath": "/t" })).toEqual(["kubernetes-auth", "/t"]);
    const github = { ACTIONS_ID_TOKEN_REQUEST_URL: "https://x/y?a=1", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "t" };
    const pod = { KUBERNETES_SERVICE_HOST: "10.0.0.1" };
    expect(plan({}, github)).toEqual(["oidc-auth", "GitHub Actions"]);
    expect(plan({}, pod)).toEqual(["kubernetes-auth", "/var/run/secrets/kubernetes.io/serviceaccount/token"]);
    // A runner in a pod: the id token the job was given comes first; authMethod decides.
    expect(plan({}, { ...github, ...pod })).toEqual(["oidc-auth", "GitHub Actions"]);
    expect(plan({ "secretops:authMethod": "kubernetes-auth" }, { ...github, ...pod })[0]).toBe("kubernetes-auth");
    // An explicit JWT beats the job's id token.
    expect(plan({ "secretops:oidcToken": CANARY_JWT }, github)[1]).toBe("secretops:oidcToken");
    // None of the settings: no JWT login (the no-credentials error says what to set).
    expect(jwtLoginFrom(providerSettings(at({})), undefined, github)).toBeUndefined();
  });

  it("precedence: a token, then universal auth, then OIDC or Kubernetes", async () => {
    const jwtLogin = { "secretops:identityId": IDENTITY, "secretops:oidcToken": CANARY_JWT };
    const ua = { "secretops:clientId": "cid", "secretops:clientSecret": "csecret" };
    await expect(clientFrom(at({ ...jwtLogin, ...ua, "secretops:token": TOKEN })).login()).rejects.toThrow(
      /this client was given a token/,
    );
    expect(await loginsOf({ ...jwtLogin, ...ua })).toEqual([[UA_LOGIN, undefined]]);
  });

  it("says what is missing, naming the settings and their variables, never the JWT", () => {
    const oidcNoJwt = errorOf(() =>
      clientFrom(at({ "secretops:identityId": IDENTITY, "secretops:authMethod": "oidc-auth" })),
    );
    expect(oidcNoJwt).toBe(
      "secretops:authMethod is oidc-auth but no JWT is configured: set `pulumi config set --secret secretops:oidcToken <jwt>` (or SECRETOPS_OIDC_TOKEN / INFISICAL_AUTH_JWT), `pulumi config set secretops:oidcTokenFile <path>` (or SECRETOPS_OIDC_TOKEN_FILE), or run in a GitHub Actions job with `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN)",
    );
    expect(errorOf(() => clientFrom(at({ "secretops:oidcToken": CANARY_JWT })))).toBe(
      "secretops:identityId is not set: the oidc-auth login needs the machine identity's id: `pulumi config set secretops:identityId <identity id>` (or SECRETOPS_IDENTITY_ID / INFISICAL_MACHINE_IDENTITY_ID)",
    );
    expect(
      errorOf(() => clientFrom(at({ "secretops:identityId": IDENTITY, "secretops:authMethod": "universal" }))),
    ).toBe(
      'secretops:authMethod must be oidc-auth or kubernetes-auth (or oidc, kubernetes), not "universal": a token and universal auth are chosen by their own settings',
    );
    expect(
      errorOf(() =>
        clientFrom(
          at({
            "secretops:identityId": IDENTITY,
            "secretops:oidcToken": CANARY_JWT,
            "secretops:kubernetesTokenPath": "/t",
          }),
        ),
      ),
    ).toBe(
      "both an OIDC JWT (secretops:oidcToken) and secretops:kubernetesTokenPath are set: say which login to use with `pulumi config set secretops:authMethod oidc-auth` (or SECRETOPS_AUTH_METHOD / INFISICAL_AUTH_METHOD) or kubernetes-auth",
    );
    expect(errorOf(() => clientFrom(at({ "secretops:identityId": IDENTITY })))).toMatch(
      /^secretops:identityId is set but no login can be chosen for it: set `pulumi config set secretops:authMethod oidc-auth` .* or `pulumi config set secretops:kubernetesTokenPath <path>` \(or SECRETOPS_KUBERNETES_TOKEN_PATH \/ INFISICAL_KUBERNETES_SERVICE_ACCOUNT_TOKEN_PATH\) for a Kubernetes login$/,
    );
    const withJwt = [
      errorOf(() => clientFrom(at({ "secretops:oidcToken": CANARY_JWT }))),
      errorOf(() =>
        clientFrom(
          at({ "secretops:identityId": IDENTITY, "secretops:oidcToken": CANARY_JWT, "secretops:authMethod": "x" }),
        ),
      ),
    ];
    expect(withJwt.join("\n")).not.toContain("canary-config-jwt");
    expect(errorOf(() => clientFrom(at({})))).toMatch(
      /or secretops:identityId \(or SECRETOPS_IDENTITY_ID \/ INFISICAL_MACHINE_IDENTITY_ID\) for an OIDC or Kubernetes login$/,
    );
  });

  it("a named endpoint takes the same settings, and its errors name its keys", async () => {
    const endpoints = (eu: Record<string, string>) => ({
      "secretops:endpoints": JSON.stringify({ eu: { apiUrl: stub.url, ...eu } }),
    });
    const file = path.join(dir, "eu-sa");
    fs.writeFileSync(file, "eu-sa-jwt");
    const c = clientFrom(at(endpoints({ identityId: IDENTITY, kubernetesTokenPath: file })), "eu");
    await c.login();
    expect(stub.requests.map((r) => [r.path, JSON.parse(r.body).jwt])).toEqual([[K8S_LOGIN, "eu-sa-jwt"]]);
    expect(errorOf(() => clientFrom(at(endpoints({ identityId: IDENTITY, authMethod: "oidc-auth" })), "eu"))).toBe(
      "secretops:endpoints.eu.authMethod is oidc-auth but no JWT is configured: set `pulumi config set --secret --path 'secretops:endpoints.eu.oidcToken' <jwt>`, `pulumi config set --path 'secretops:endpoints.eu.oidcTokenFile' <path>`, or run in a GitHub Actions job with `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN)",
    );
  });

  it("refuses an oidcToken set as plain stack config, naming the key and never the value", () => {
    const values: Record<string, string> = { "secretops:oidcToken": CANARY_JWT };
    const plain = plainCredentialConfigProblem(
      (k) => values[k],
      () => false,
    );
    expect(plain).toBe(
      "secretops:oidcToken is set as plain stack config, which Pulumi stores unencrypted in Pulumi.<stack>.yaml. Set it as a secret with `pulumi config set --secret secretops:oidcToken <value>`, or remove it (`pulumi config rm secretops:oidcToken`) and set SECRETOPS_OIDC_TOKEN or INFISICAL_AUTH_JWT in the environment.",
    );
    expect(
      plainCredentialConfigProblem(
        (k) => values[k],
        () => true,
      ),
    ).toBeUndefined();
    const endpointValues: Record<string, string> = {
      "secretops:endpoints": JSON.stringify({ eu: { identityId: IDENTITY, oidcToken: CANARY_JWT } }),
    };
    expect(
      plainCredentialConfigProblem(
        (k) => endpointValues[k],
        () => false,
      ),
    ).toMatch(/^secretops:endpoints holds eu\.oidcToken as plain stack config/);
    // identityId and the file paths are no secrets.
    const ids: Record<string, string> = { "secretops:identityId": IDENTITY, "secretops:oidcTokenFile": "/ci/jwt" };
    expect(
      plainCredentialConfigProblem(
        (k) => ids[k],
        () => false,
      ),
    ).toBeUndefined();
  });
});
