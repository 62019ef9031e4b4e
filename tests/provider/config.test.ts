import { apiClient, configurationProblem, configure, endpointProblem, providerSettings } from "../../provider/config";

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
