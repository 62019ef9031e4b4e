import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { configFrom, nativeProvider } from "../../provider/native-provider";

/**
 * The native provider's translation layer, without the engine (tests/engine/native-*.test.ts run
 * it under the engine): secrets as the engine sends them, the provider's config, type tokens.
 */

const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });
const urn = (className: string, name: string) => `urn:pulumi:dev::proj::secretops:index:${className}::${name}`;
const provider = nativeProvider();

const postgres = (password: unknown) => ({
  app: "postgres",
  name: "orders-db",
  method: "username-and-password",
  credentials: {
    host: "db.internal",
    port: 5432,
    database: "orders",
    username: "rotator",
    password,
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

describe("check", () => {
  test("takes secrets wrapped, and returns the args holding secrets wrapped, whole", async () => {
    const news = postgres(secret("canary-native-check-1"));
    const result = await provider.check!(urn("AppConnection", "orders-db"), {}, news);
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs.credentials).toEqual(secret(expect.objectContaining({ password: "canary-native-check-1" })));
    expect(result.inputs.name).toBe("orders-db");
    // The resource's name is for messages only, never an input.
    expect(Object.keys(result.inputs)).not.toContain("__resourceName");
  });

  test("names the field a mistake is in, on the resource, as the dynamic path does", async () => {
    const news = { ...postgres(secret("x")), credentials: secret({ ...postgres("x").credentials, prot: 1 }) };
    const result = await provider.check!(urn("AppConnection", "orders-db"), {}, news);
    expect(result.failures).toEqual([{ property: "", reason: expect.stringContaining('unknown field "prot"') }]);
  });

  test("a Python dict's snake_case keys are the fields the kind's objects spell in camelCase", async () => {
    // What `pulumi import` prints for Python, and what a program passing dicts sends.
    const sync = {
      destination: "vercel",
      name: "web",
      projectId: "10000000-0000-4000-8000-000000000001",
      connectionId: "50000000-0000-4000-8000-000000000012",
      environment: "dev",
      secretPath: "/app",
      syncOptions: { initial_sync_behavior: "overwrite-destination", disable_secret_deletion: true },
      destinationConfig: { app: "prj", app_name: "web", env: "production", team_id: "team" },
    };
    const result = await provider.check!(urn("SecretSync", "web"), {}, sync);
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs.syncOptions).toEqual({
      initialSyncBehavior: "overwrite-destination",
      disableSecretDeletion: true,
    });
    expect(result.inputs.destinationConfig).toEqual({ app: "prj", appName: "web", env: "production", teamId: "team" });
    // Nested, in a secret: a connection's credentials.
    const pg = postgres(secret("canary-native-snake"));
    const { sslEnabled, sslRejectUnauthorized, ...credentials } = pg.credentials;
    const snake = {
      ...pg,
      credentials: secret({ ...credentials, ssl_enabled: sslEnabled, ssl_reject_unauthorized: sslRejectUnauthorized }),
    };
    const connection = await provider.check!(urn("AppConnection", "orders-db"), {}, snake);
    expect(connection.failures ?? []).toEqual([]);
    expect(connection.inputs.credentials).toEqual(
      secret(expect.objectContaining({ sslEnabled: true, sslRejectUnauthorized: true })),
    );
    // A key no field of the kind has, in either spelling, is still refused by name.
    const typo = await provider.check!(
      urn("SecretSync", "web"),
      {},
      { ...sync, destinationConfig: { ...sync.destinationConfig, team_idd: "x" } },
    );
    expect(typo.failures?.[0]?.reason).toContain('unknown field "team_idd"');
  });

  test("a snake_case key with capitals run together in its field is that field: is_ca, cluster_uuid", async () => {
    const camunda = {
      destination: "camunda",
      name: "c",
      projectId: "10000000-0000-4000-8000-000000000001",
      connectionId: "50000000-0000-4000-8000-000000000012",
      environment: "dev",
      secretPath: "/app",
      syncOptions: { initial_sync_behavior: "overwrite-destination" },
      destinationConfig: { scope: "cluster", cluster_uuid: "00000000-0000-4000-8000-0000000000c1" },
    };
    const result = await provider.check!(urn("SecretSync", "c"), {}, camunda);
    expect(result.inputs.destinationConfig).toEqual({
      scope: "cluster",
      clusterUUID: "00000000-0000-4000-8000-0000000000c1",
    });
  });

  describe("a key no field has is refused in the spelling the program writes", () => {
    const sync = (syncOptions: Record<string, unknown>) => ({
      destination: "vercel",
      name: "web",
      projectId: "10000000-0000-4000-8000-000000000001",
      connectionId: "50000000-0000-4000-8000-000000000012",
      environment: "dev",
      secretPath: "/app",
      syncOptions,
      destinationConfig: { app: "prj", appName: "web", env: "production", teamId: "team" },
    });
    const reasons = async (syncOptions: Record<string, unknown>) =>
      ((await provider.check!(urn("SecretSync", "web"), {}, sync(syncOptions))).failures ?? []).map((f) => f.reason);

    test("a snake_case typo (a Python dict): the nearest field and the list in snake_case", async () => {
      const [reason, ...more] = await reasons({
        initial_sync_behavior: "overwrite-destination",
        disable_secret_deleton: true,
      });
      expect(more).toEqual([]);
      expect(reason).toMatch(
        /^syncOptions: unknown field "disable_secret_deleton" \(did you mean "disable_secret_deletion"\?\); the fields here are initial_sync_behavior, /,
      );
      expect(reason!.slice("syncOptions: ".length)).not.toMatch(/[a-z][A-Z]/); // no field named in camelCase
    });

    test("a camelCase typo (YAML, or a Python Args class) keeps the schema's spelling", async () => {
      const [reason] = await reasons({ initialSyncBehavior: "overwrite-destination", disableSecretDeleton: true });
      expect(reason).toMatch(
        /^syncOptions: unknown field "disableSecretDeleton" \(did you mean "disableSecretDeletion"\?\); the fields here are initialSyncBehavior, /,
      );
    });
  });

  test("a GenericSecretSync's destinationConfig, passed through unchecked, keeps its keys as given", async () => {
    const args = {
      destination: "some-new-destination",
      name: "s",
      projectId: "10000000-0000-4000-8000-000000000001",
      connectionId: "50000000-0000-4000-8000-000000000012",
      environment: "dev",
      secretPath: "/app",
      syncOptions: { initial_sync_behavior: "overwrite-destination" },
      destinationConfig: { snake_case_key: true },
    };
    const generic = await provider.check!(urn("GenericSecretSync", "s"), {}, args);
    expect(generic.failures ?? []).toEqual([]);
    expect(generic.inputs.destinationConfig).toEqual({ snake_case_key: true });
    expect(generic.inputs.syncOptions).toEqual({ initialSyncBehavior: "overwrite-destination" });
  });

  test("GenericSecretSync is SecretSync with its destination unchecked", async () => {
    const args = {
      destination: "some-new-destination",
      name: "s",
      projectId: "10000000-0000-4000-8000-000000000001",
      connectionId: "50000000-0000-4000-8000-000000000012",
      environment: "dev",
      secretPath: "/app",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { anything: true },
    };
    const generic = await provider.check!(urn("GenericSecretSync", "s"), {}, args);
    expect(generic.failures ?? []).toEqual([]);
    expect(generic.inputs.untypedDestination).toBe(true);
    const typed = await provider.check!(urn("SecretSync", "s"), {}, args);
    expect(typed.failures?.[0]?.reason).toContain("destination");
  });

  test("refuses a type token it does not serve", async () => {
    await expect(provider.check!(urn("SecretSink", "s"), {}, {})).rejects.toThrow(
      "unknown resource type secretops:index:SecretSink",
    );
  });
});

test("an import id without the kind is refused before any call, saying the form", async () => {
  await expect(provider.read!("abc", urn("SecretRotation", "r"), {})).rejects.toThrow(
    "import id: a SecretRotation is imported as <type>/<id>",
  );
});

describe("the provider's config", () => {
  const request = (variables: Record<string, string>, args?: Record<string, unknown>) => ({
    getVariablesMap: () => ({
      forEach: (f: (v: string, k: string) => void) => Object.entries(variables).forEach(([k, v]) => f(v, k)),
    }),
    getArgs: () => (args ? { toJavaScript: () => args } : undefined),
  });

  test("reads the args by full key, objects as JSON, and knows which the engine sent as secrets", () => {
    const { config, isSecret } = configFrom(
      request(
        {},
        {
          apiUrl: "https://a.example",
          token: secret("t0k"),
          endpoints: { b: { apiUrl: "https://b.example", token: secret("tb") } },
          clientId: "id",
        },
      ),
    );
    expect(config.get("secretops:apiUrl")).toBe("https://a.example");
    expect(config.get("secretops:token")).toBe("t0k");
    expect(JSON.parse(config.get("secretops:endpoints")!)).toEqual({ b: { apiUrl: "https://b.example", token: "tb" } });
    expect(isSecret("secretops:token")).toBe(true);
    expect(isSecret("secretops:endpoints")).toBe(true);
    expect(isSecret("secretops:clientId")).toBe(false);
  });

  test("reads the older variables, which say nothing of secrecy", () => {
    const { config, isSecret } = configFrom(
      request({ "secretops:config:apiUrl": "https://a.example", "secretops:config:token": "t" }),
    );
    expect(config.get("secretops:apiUrl")).toBe("https://a.example");
    expect(isSecret("secretops:token")).toBe(true);
  });
});
