import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { installPacked } from "../../scripts/packed-install";
import { changeCounts, createTestStack, programsDir, repoRoot, type TestStack } from "./harness";
import type { Emulator, FixtureSummary } from "./lifecycle";
import { nativeEnv } from "./native";

/**
 * A resource renamed in the program is, to the engine, a new resource and a removed one: it
 * creates the new one and then deletes the old one. The create meets the object's name taken by an
 * object that matches the program and takes it over (the same step recovers an `up` killed before
 * it recorded an id), so both resources held one object, and the delete removed it behind a green
 * `up`. Here, from the packed package, for every family (the tree's too): a rename without an alias, a rename with
 * one, a rename in two operations (`up --target` of the new name, then `up`) and an interrupted
 * `up`'s objects taken over, each checked at the service by id, not only in the engine's summary.
 */
jest.setTimeout(15 * 60_000);

const CANARY_PASSWORD = "canary-rename-db-password-3e81c2";
const orUndefined = <T>(p: Promise<T>) => p.catch((e) => (e.status === 404 ? undefined : Promise.reject(e)));

type Args = Record<string, unknown>;
interface Family {
  kind: string;
  /** `password`: the connection's, the canary or (YAML) a reference to the secret config holding it. */
  args(f: FixtureSummary, password?: string): Args;
  /** The object at the service by id, undefined when gone. */
  get(c: SecretOpsClient, id: string): Promise<{ id: string } | undefined>;
  /** Makes the object as an `up` killed before it recorded the id leaves it. */
  make(c: SecretOpsClient, args: Args): Promise<{ id: string }>;
  /** Takes an existing object over without a word (`adoptExisting` defaults to true). */
  adoptsByDefault?: true;
}

/** What a create says when it took `f`'s object over, unless it adopts by default. */
const tookOverWarning = (f: Family, resource: string) => `the resource "${resource}" took over ${f.kind}`;

const families: Family[] = [
  {
    kind: "SecretSync",
    args: (f) => ({
      destination: "azure-key-vault",
      name: "kv-renamed-sync",
      projectId: f.projects[0]!.id,
      connectionId: f.connections.find((c) => c.app === "azure-key-vault")!.id,
      environment: "dev",
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { vaultBaseUrl: "https://renamed.vault.azure.net" },
    }),
    get: (c, id) => orUndefined(c.secretSyncs.get("azure-key-vault", id)),
    make: (c, { destination: _, ...body }) => c.secretSyncs.create("azure-key-vault", body as never),
  },
  {
    kind: "SecretRotation",
    args: (f) => ({
      type: "redis-credentials",
      name: "cache-renamed",
      projectId: f.projects[0]!.id,
      connectionId: f.connections.find((c) => c.app === "redis")!.id,
      environment: "dev",
      secretPath: "/",
      rotationInterval: 14,
      parameters: { permissionScope: "~* +@all" },
      secretsMapping: { username: "RENAMED_REDIS_USER", password: "RENAMED_REDIS_PASSWORD" },
      // Destroy takes them too: the last test makes the rotation again at the same path.
      deleteSecrets: true,
    }),
    get: (c, id) => orUndefined(c.secretRotations.get("redis-credentials", id)),
    make: (c, { type: _, deleteSecrets: __, ...body }) => c.secretRotations.create("redis-credentials", body as never),
  },
  {
    kind: "CertificateProfile",
    args: (f) => ({
      projectId: f.certificatePolicies[0]!.projectId,
      certificatePolicyId: f.certificatePolicies[0]!.id,
      slug: "renamed-api",
      issuerType: "self-signed",
      enrollmentType: "api",
      apiConfig: { autoRenew: true, renewBeforeDays: 10 },
    }),
    get: (c, id) => orUndefined(c.certificateProfiles.get(id)),
    make: (c, body) => c.certificateProfiles.create(body as never),
  },
  {
    kind: "AppConnection",
    args: (f, password = CANARY_PASSWORD) => ({
      app: "postgres",
      name: "renamed-db",
      projectId: f.projects[0]!.id,
      method: "username-and-password",
      credentials: {
        host: "db.internal",
        port: 5432,
        database: "app",
        username: "admin",
        password,
        sslEnabled: true,
        sslRejectUnauthorized: true,
      },
    }),
    get: (c, id) => orUndefined(c.appConnections.get("postgres", id)),
    make: (c, { app: _, ...body }) => c.appConnections.create("postgres", body as never),
  },
  // The tree: each named uniquely in its scope, as the families above.
  {
    kind: "Project",
    args: () => ({ projectName: "Renamed project", slug: "renamed-project" }),
    get: (c, id) => orUndefined(c.projects.get(id)),
    make: (c, body) => c.projects.create(body as never),
  },
  {
    kind: "ProjectEnvironment",
    args: (f) => ({ projectId: f.projects[0]!.id, name: "Renamed", slug: "renamed-env" }),
    get: (c, id) => orUndefined(c.projectEnvironments.get(emulator.summary.projects[0]!.id, id)),
    make: (c, { projectId, ...body }) => c.projectEnvironments.create(projectId as string, body as never),
    // A project's template makes environments: declaring one manages it.
    adoptsByDefault: true,
  },
  {
    kind: "SecretFolder",
    args: (f) => ({ projectId: f.projects[0]!.id, environment: "dev", name: "renamed-folder" }),
    get: (c, id) => orUndefined(c.secretFolders.get(id)),
    make: (c, body) => c.secretFolders.create(body as never),
  },
  {
    kind: "Secret",
    args: (f, value = CANARY_PASSWORD) => ({
      projectId: f.projects[0]!.id,
      environment: "dev",
      secretPath: "/",
      secretName: "RENAMED_SECRET",
      secretValue: value,
    }),
    get: (c, id) => orUndefined(c.secrets.getById(id)),
    make: (c, { secretName, ...body }) => c.secrets.create(secretName as string, body as never),
  },
  {
    kind: "CertificateAuthority",
    args: (f) => ({
      projectId: f.certificatePolicies[0]!.projectId,
      name: "renamed-ca",
      configuration: { type: "root", commonName: "Renamed Root CA", notAfter: "2036-01-01T00:00:00Z" },
    }),
    get: (c, id) => orUndefined(c.certificateAuthorities.get(id)),
    make: (c, body) => c.certificateAuthorities.create(body as never),
  },
  {
    kind: "CertificatePolicy",
    args: (f) => ({ projectId: f.certificatePolicies[0]!.projectId, name: "renamed-policy", validity: { max: "90d" } }),
    get: (c, id) => orUndefined(c.certificatePolicies.get(id)),
    make: (c, body) => c.certificatePolicies.create(body as never),
  },
];

/** The settings of a connection are only ever managed: a rename finds the same connection again. */
const settings = { kind: "AppConnectionSettings", args: { app: "venafi", connectionName: "emulator-venafi" } };
/** The resources of each program: a resource of each family and the settings. */
const ALL = families.length + 1;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-renames-"));
let emulator: Emulator;
let client: SecretOpsClient;
let admin: EmulatorAdmin;

beforeAll(async () => {
  installPacked(repoRoot, dir);
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 50 });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  admin = new EmulatorAdmin(emulator.url);
});
afterAll(async () => {
  await emulator?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every family's object is at the service by the id it was made with. */
const expectEveryObjectAt = async (ids: ReadonlyMap<string, string>) => {
  for (const f of families) expect(await f.get(client, ids.get(f.kind)!)).toMatchObject({ id: ids.get(f.kind) });
};
const writes = async () => (await admin.requests()).filter((r) => r.path.startsWith("/api/") && r.method !== "GET");
/** The warning of a delete that left `kind`'s object to the resource `holder`. */
const keptWarning = (f: Family, id: string, holder: string) => {
  const args = f.args(emulator.summary);
  // As messages name an object: its slug, else its name or key.
  return `${f.kind} "${args.slug ?? args.name ?? args.secretName}" (id ${id}) was not deleted: the resource "${holder}" holds it now;`;
};

describe("renaming resources of the TypeScript classes (dynamic providers)", () => {
  let t: TestStack;
  const program = path.join(dir, "dynamic");
  const resourcesFile = path.join(program, "resources.json");
  /** The ids each family's object had when first made: every step below keeps them. */
  const ids = new Map<string, string>();

  /** The program's resources, each named `<prefix>-<kind>`, with the options `opts(kind)`. */
  const declare = (prefix: string, opts: (kind: string) => object | undefined = () => undefined) =>
    fs.writeFileSync(
      resourcesFile,
      JSON.stringify(
        [...families.map((f) => ({ kind: f.kind, args: f.args(emulator.summary) })), settings].map((r) => ({
          ...r,
          name: `${prefix}-${r.kind}`,
          opts: opts(r.kind),
        })),
      ),
    );
  const urn = (prefix: string, kind: string) =>
    `urn:pulumi:${t.stack.name}::resources::pulumi-nodejs:dynamic/secretops:${kind}::${prefix}-${kind}`;
  /** The ids the stack's outputs give each resource named `<prefix>-<kind>`. */
  const idsOf = async (prefix: string) => {
    const outputs = await t.stack.outputs();
    return new Map(families.map((f) => [f.kind, (outputs[`${prefix}-${f.kind}`]?.value as { id: string })?.id]));
  };
  const expectEveryObjectKept = () => expectEveryObjectAt(ids);

  beforeAll(async () => {
    // The program beside the packed install, as a user's: it loads the package from ../node_modules.
    fs.mkdirSync(program);
    for (const f of ["Pulumi.yaml", "index.js"])
      fs.copyFileSync(path.join(programsDir, "resources", f), path.join(program, f));
    fs.writeFileSync(resourcesFile, "[]");
    t = await createTestStack({
      program,
      config: {
        "resources:resourcesFile": { value: resourcesFile },
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false });
  });

  test("up makes one object of each family", async () => {
    declare("first");
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(ALL + 1);
    for (const [kind, id] of await idsOf("first")) ids.set(kind, id!);
    await expectEveryObjectKept();
  });

  test("a rename without an alias keeps every object, and says why and how to rename in place", async () => {
    declare("second");
    let out = "";
    const up = await t.stack.up({ onOutput: (s) => (out += s) });
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: ALL, delete: ALL });
    expect(await idsOf("second")).toEqual(ids);
    await expectEveryObjectKept();
    for (const f of families) {
      expect(out).toContain(keptWarning(f, ids.get(f.kind)!, `second-${f.kind}`));
      if (!f.adoptsByDefault) expect(out).toContain(tookOverWarning(f, `second-${f.kind}`));
    }
    expect(out).toContain('aliases: [{ name: "<old name>" }]');
    expect(out).not.toContain(CANARY_PASSWORD);
    // The service's objects are what the stack holds: a refresh changes nothing, nor does a preview.
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ delete: 0, update: 0 });
    await t.stack.preview({ expectNoChanges: true });
  });

  test("a rename with an alias is no change, and sends nothing", async () => {
    declare("third", (kind) => ({ aliases: [{ name: `second-${kind}` }] }));
    await admin.clearRequests();
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, delete: 0, update: 0, replace: 0 });
    expect(await idsOf("third")).toEqual(ids);
    expect(await writes()).toEqual([]);
    await expectEveryObjectKept();
  });

  test("up --replace takes the same object over unless the resource deletes before replacing", async () => {
    // The engine forces the replacement without asking the provider (no diff), so it creates
    // before it deletes: the new resource takes the object over, and the delete leaves it.
    const profile = families.find((f) => f.kind === "CertificateProfile")!;
    let out = "";
    const forced = await t.stack.up({ replace: [urn("third", profile.kind)], onOutput: (s) => (out += s) });
    expect(changeCounts(forced.summary.resourceChanges)).toMatchObject({ replace: 1 });
    expect(await idsOf("third")).toEqual(ids);
    await expectEveryObjectKept();
    expect(out).toContain(keptWarning(profile, ids.get(profile.kind)!, `third-${profile.kind}`));
    // With the resource option deleteBeforeReplace, the object goes and a new one is made.
    declare("third", (kind) => ({ aliases: [{ name: `second-${kind}` }], deleteBeforeReplace: true }));
    const replaced = await t.stack.up({ replace: [urn("third", profile.kind)] });
    expect(changeCounts(replaced.summary.resourceChanges)).toMatchObject({ replace: 1 });
    const id = (await idsOf("third")).get(profile.kind)!;
    expect(id).not.toBe(ids.get(profile.kind));
    expect(await profile.get(client, ids.get(profile.kind)!)).toBeUndefined();
    ids.set(profile.kind, id);
    await expectEveryObjectKept();
  });

  test("a rename in two operations (up --target of the new names, then up) keeps every object", async () => {
    declare("fourth");
    const targeted = await t.stack.up({ target: [...families, settings].map((f) => urn("fourth", f.kind)) });
    expect(changeCounts(targeted.summary.resourceChanges)).toMatchObject({ create: ALL, delete: 0 });
    await expectEveryObjectKept();
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, delete: ALL });
    expect(await idsOf("fourth")).toEqual(ids);
    await expectEveryObjectKept();
    await t.stack.refresh();
    await t.stack.preview({ expectNoChanges: true });
  });

  test("an object gone from the service is found by refresh, and the next preview shows it", async () => {
    const sync = families[0]!;
    await client.secretSyncs.delete("azure-key-vault", ids.get(sync.kind)!);
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges).delete).toBe(1);
    const preview = await t.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 1, delete: 0 });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(1);
    ids.set(sync.kind, (await idsOf("fourth")).get(sync.kind)!);
    await expectEveryObjectKept();
  });

  test("destroy deletes every object", async () => {
    await t.stack.destroy();
    for (const f of families) expect(await f.get(client, ids.get(f.kind)!)).toBeUndefined();
  });

  test("objects an interrupted up made, never recorded in state, are taken over by the next up", async () => {
    const made = new Map<string, string>();
    for (const f of families) made.set(f.kind, (await f.make(client, f.args(emulator.summary))).id);
    declare("fifth");
    let out = "";
    const up = await t.stack.up({ onOutput: (s) => (out += s) });
    // The stack itself is made again too.
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: ALL + 1, delete: 0 });
    expect(await idsOf("fifth")).toEqual(made);
    for (const f of families.filter((f) => !f.adoptsByDefault))
      expect(out).toContain(tookOverWarning(f, `fifth-${f.kind}`));
    await t.stack.preview({ expectNoChanges: true });
    await t.stack.destroy();
    for (const f of families) expect(await f.get(client, made.get(f.kind)!)).toBeUndefined();
  });
});

describe("renaming resources of the native provider (a YAML program)", () => {
  let t: TestStack;
  const program = path.join(dir, "yaml");
  const ids = new Map<string, string>();
  const PROJECT = "renames-yaml";
  /** The token of `kind`'s class; `types` gives another class to a kind (GenericSecretSync). */
  const token = (kind: string, types: Record<string, string>) => `secretops:index:${types[kind] ?? kind}`;
  const urn = (prefix: string, kind: string, types: Record<string, string> = {}) =>
    `urn:pulumi:${t.stack.name}::${PROJECT}::${token(kind, types)}::${prefix}-${kind}`;

  /** Writes the program: each family's resource named `<prefix>-<kind>`, its id an output of that name. */
  const declare = (
    prefix: string,
    { aliases = {}, types = {} }: { aliases?: Record<string, string>; types?: Record<string, string> } = {},
  ) => {
    const resources = families.map((f) => {
      const options = aliases[f.kind] ? { options: { aliases: [aliases[f.kind]] } } : {};
      const resource = {
        type: token(f.kind, types),
        properties: f.args(emulator.summary, "${dbPassword}"),
        ...options,
      };
      return `  ${prefix}-${f.kind}: ${JSON.stringify(resource)}`;
    });
    const outputs = families.map((f) => `  ${f.kind}: \${${prefix}-${f.kind}.id}`);
    const config = "config:\n  dbPassword:\n    type: string\n    secret: true";
    const text = [`name: ${PROJECT}`, "runtime: yaml", config, "resources:", ...resources, "outputs:", ...outputs];
    fs.writeFileSync(path.join(program, "Pulumi.yaml"), text.join("\n") + "\n");
  };
  const outputIds = async () => {
    const outputs = await t.stack.outputs();
    return new Map(families.map((f) => [f.kind, String(outputs[f.kind]?.value)]));
  };

  beforeAll(async () => {
    fs.mkdirSync(program);
    declare("first");
    t = await createTestStack({
      program,
      env: nativeEnv(path.join(dir, "node_modules", ".bin")),
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        [`${PROJECT}:dbPassword`]: { value: CANARY_PASSWORD, secret: true },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false });
  });

  test("up makes one object of each family", async () => {
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(families.length + 1);
    for (const [kind, id] of await outputIds()) ids.set(kind, id);
    await expectEveryObjectAt(ids);
  });

  test("a rename without an alias keeps every object", async () => {
    declare("second");
    let out = "";
    const up = await t.stack.up({ onOutput: (s) => (out += s) });
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({
      create: families.length,
      delete: families.length,
    });
    expect(await outputIds()).toEqual(ids);
    await expectEveryObjectAt(ids);
    for (const f of families) expect(out).toContain(keptWarning(f, ids.get(f.kind)!, `second-${f.kind}`));
    expect(out).not.toContain(CANARY_PASSWORD);
  });

  test("a sync moved to another class (another type token) keeps its object", async () => {
    declare("second", { types: { SecretSync: "GenericSecretSync" } });
    let out = "";
    const up = await t.stack.up({ onOutput: (s) => (out += s) });
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 1, delete: 1 });
    expect(await outputIds()).toEqual(ids);
    await expectEveryObjectAt(ids);
    expect(out).toContain(keptWarning(families[0]!, ids.get("SecretSync")!, "second-SecretSync"));
  });

  test("a rename with an alias is no change, and sends nothing", async () => {
    const types = { SecretSync: "GenericSecretSync" };
    const aliases = Object.fromEntries(families.map((f) => [f.kind, urn("second", f.kind, types)]));
    declare("third", { aliases, types });
    await admin.clearRequests();
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, delete: 0, update: 0, replace: 0 });
    expect(await outputIds()).toEqual(ids);
    expect(await writes()).toEqual([]);
  });

  test("a rename in two operations (up --target of the new names, then up) keeps every object", async () => {
    declare("fourth");
    const targeted = await t.stack.up({ target: families.map((f) => urn("fourth", f.kind)) });
    expect(changeCounts(targeted.summary.resourceChanges)).toMatchObject({ create: families.length, delete: 0 });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, delete: families.length });
    expect(await outputIds()).toEqual(ids);
    await expectEveryObjectAt(ids);
    await t.stack.refresh();
    await t.stack.preview({ expectNoChanges: true });
  });

  test("destroy deletes every object", async () => {
    await t.stack.destroy();
    for (const f of families) expect(await f.get(client, ids.get(f.kind)!)).toBeUndefined();
  });
});
