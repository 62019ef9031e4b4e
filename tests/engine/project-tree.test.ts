import * as fs from "node:fs";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * The tree every resource hangs on, made by a program from nothing (issue 40): a project and its
 * environments, folders and secrets, a connection and a sync pushing them, and a certificate-manager
 * project with a root and an intermediate CA, a policy and a profile. Under the real engine,
 * against the emulator; every object is checked at the service by id, not only in the engine's
 * summary, and the secret values (canaries) appear in no state, output or log.
 */
jest.setTimeout(20 * 60_000);

const CANARY_DB_URL = "postgres://app:canary-tree-db-url-5a1c9e@db:5432/app";
const CANARY_API_KEY = "canary-tree-api-key-c20b7f";
const CANARY_VERCEL_TOKEN = "canary-tree-vercel-token-77e0d1";
const CANARY_CHANGED = "canary-tree-changed-value-3f9a42";
const CANARY_OUT_OF_BAND = "canary-tree-out-of-band-81d3ce";
const CANARIES = [CANARY_DB_URL, CANARY_API_KEY, CANARY_VERCEL_TOKEN, CANARY_CHANGED, CANARY_OUT_OF_BAND];

type Declared = { kind: string; name: string; args: Record<string, unknown>; opts?: Record<string, unknown> };
const ref = (output: string) => ({ $ref: output });
const orUndefined = <T>(p: Promise<T>) =>
  p.catch((e: { status?: number }) => (e.status === 404 ? undefined : Promise.reject(e)));

interface TreeOptions {
  devSlug?: string;
  folderName?: string;
  dbUrlName?: string;
  dbUrlPath?: string;
}

/** The program: everything from nothing, each resource naming the ones it hangs on by their outputs. */
function tree(o: TreeOptions = {}): Declared[] {
  const app = { projectId: ref("app.id") };
  return [
    { kind: "Project", name: "app", args: { projectName: "Tree App", slug: "tree-app" } },
    // The template made `dev`: declaring it manages it.
    { kind: "ProjectEnvironment", name: "dev", args: { ...app, name: "Development", slug: o.devSlug ?? "dev" } },
    { kind: "ProjectEnvironment", name: "qa", args: { ...app, name: "QA", slug: "qa" } },
    {
      kind: "SecretFolder",
      name: "backend",
      args: { ...app, environment: ref("dev.slug"), name: o.folderName ?? "backend", path: "/" },
    },
    {
      kind: "SecretFolder",
      name: "db",
      args: { ...app, environment: ref("dev.slug"), name: "db", path: ref("backend.secretPath") },
    },
    {
      kind: "Secret",
      name: "db-url",
      args: {
        ...app,
        environment: ref("dev.slug"),
        secretPath: ref(o.dbUrlPath ?? "db.secretPath"),
        secretName: o.dbUrlName ?? "DATABASE_URL",
        secretComment: "the primary database",
        secretFieldsFrom: ["secretValue"],
      },
    },
    {
      kind: "Secret",
      name: "api-key",
      args: {
        ...app,
        environment: ref("dev.slug"),
        secretPath: ref("backend.secretPath"),
        secretName: "API_KEY",
        secretFieldsFrom: ["secretValue"],
      },
    },
    {
      kind: "AppConnection",
      name: "vercel",
      args: {
        ...app,
        app: "vercel",
        name: "tree-vercel",
        method: "api-token",
        credentials: {},
        secretFieldsFrom: ["credentials"],
      },
    },
    {
      kind: "SecretSync",
      name: "backend-to-vercel",
      args: {
        ...app,
        destination: "vercel",
        name: "tree-backend-vercel",
        connectionId: ref("vercel.id"),
        environment: ref("dev.slug"),
        secretPath: ref("backend.secretPath"),
        destinationConfig: { app: "prj_tree", appName: "tree", env: "production", teamId: "team_tree" },
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
      },
    },
    { kind: "Project", name: "pki", args: { projectName: "Tree PKI", slug: "tree-pki", type: "cert-manager" } },
    {
      kind: "CertificateAuthority",
      name: "root-ca",
      args: {
        projectId: ref("pki.id"),
        name: "tree-root",
        configuration: { type: "root", commonName: "Tree Root CA", notAfter: "2036-01-01T00:00:00Z" },
      },
    },
    {
      kind: "CertificateAuthority",
      name: "issuing-ca",
      args: {
        projectId: ref("pki.id"),
        name: "tree-issuing",
        configuration: {
          type: "intermediate",
          commonName: "Tree Issuing CA",
          notAfter: "2031-01-01T00:00:00Z",
          parentCaId: ref("root-ca.id"),
        },
      },
    },
    {
      kind: "CertificatePolicy",
      name: "web-policy",
      args: {
        projectId: ref("pki.id"),
        name: "web-servers",
        subject: [{ type: "common_name", allowed: ["*.tree.example.com"] }],
        validity: { max: "90d" },
      },
    },
    {
      kind: "CertificateProfile",
      name: "web",
      args: {
        projectId: ref("pki.id"),
        certificatePolicyId: ref("web-policy.id"),
        caId: ref("issuing-ca.id"),
        slug: "web",
        enrollmentType: "api",
        apiConfig: { autoRenew: true, renewBeforeDays: 7 },
      },
    },
  ];
}
const RESOURCES = tree().length;

/** The secret values, as `pulumi config set --secret` holds them. */
const secretsConfig = (dbUrl: string) =>
  JSON.stringify({
    "db-url": { secretValue: dbUrl },
    "api-key": { secretValue: CANARY_API_KEY },
    vercel: { credentials: { apiToken: CANARY_VERCEL_TOKEN } },
  });

describe("the project tree, from nothing", () => {
  let emulator: Emulator;
  let t: TestStack;
  let client: SecretOpsClient;
  let admin: EmulatorAdmin;
  const declare = (resources: Declared[]) =>
    t.stack.setConfig("resources:resources", { value: JSON.stringify(resources) });
  const setSecrets = (dbUrl: string) =>
    t.stack.setConfig("resources:secrets", { secret: true, value: secretsConfig(dbUrl) });
  const ids = async () =>
    Object.fromEntries(
      Object.entries(await t.stack.outputs()).map(([k, v]) => [k, (v.value as { id: string }).id]),
    ) as Record<string, string>;
  const dev = { environment: "dev" };
  /** Everything the engine and the state hold, for the canaries. */
  const surfaces: string[] = [];
  const noCanary = async () => {
    surfaces.push(await cliStackExport(t));
    for (const f of fs.readdirSync(t.stateDir, { recursive: true, encoding: "utf8" })) {
      const p = `${t.stateDir}/${f}`;
      if (fs.statSync(p).isFile()) surfaces.push(fs.readFileSync(p, "utf8"));
    }
    for (const s of surfaces) for (const c of CANARIES) expect(s).not.toContain(c);
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 50 });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    admin = new EmulatorAdmin(emulator.url);
    t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops:readsPerMinute": { value: "100000" },
        "secretops:writesPerMinute": { value: "100000" },
        "secretops:secretsPerMinute": { value: "100000" },
        "resources:resources": { value: JSON.stringify(tree()) },
      },
    });
    await setSecrets(CANARY_DB_URL);
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false }); // the emulator stops next
    await emulator?.stop();
  });

  it("previews the whole tree without credentials, making no API call", async () => {
    const bare = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "resources:resources": { value: JSON.stringify(tree()) },
        "resources:secrets": { value: secretsConfig(CANARY_DB_URL), secret: true },
      },
    });
    try {
      await admin.clearRequests();
      const preview = await bare.stack.preview();
      expect(preview.changeSummary).toEqual({ create: RESOURCES + 1 });
      expect((await admin.requests()).filter((r) => r.path.startsWith("/api/"))).toEqual([]);
    } finally {
      await bare.dispose({ destroy: false });
    }
  });

  it("makes every object, each where the program put it, and a second preview makes no API call", async () => {
    const up = await t.stack.up();
    surfaces.push(up.stdout, up.stderr);
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: RESOURCES + 1 });
    const id = await ids();

    const project = await client.projects.get(id.app!);
    expect(project).toMatchObject({ name: "Tree App", slug: "tree-app", type: "secret-manager" });
    // The template's environments came with it; `dev` was taken over, not made again.
    expect(project.environments!.map((e) => e.slug).sort()).toEqual(["dev", "prod", "qa", "staging"]);
    expect(project.environments!.find((e) => e.slug === "dev")!.id).toBe(id.dev);
    expect(await client.projectEnvironments.get(id.app!, id.qa!)).toMatchObject({ name: "QA", slug: "qa" });

    expect(await client.secretFolders.get(id.backend!)).toMatchObject({ name: "backend", path: "/backend" });
    expect(await client.secretFolders.get(id.db!)).toMatchObject({ name: "db", path: "/backend/db" });
    const place = { projectId: id.app!, ...dev };
    const dbUrl = await client.secrets.get("DATABASE_URL", { ...place, secretPath: "/backend/db" });
    expect(dbUrl).toMatchObject({
      id: id["db-url"],
      secretValue: CANARY_DB_URL,
      secretComment: "the primary database",
    });
    expect((await client.secrets.getById(id["api-key"]!)).secretValue).toBe(CANARY_API_KEY);

    // The sync pushed the folder it names: its secrets, not its subfolder's.
    const pushed = await admin.pushedSecrets(id["backend-to-vercel"]!);
    expect(pushed?.secrets.map((s) => s.key)).toEqual(["API_KEY"]);

    const root = await client.certificateAuthorities.get(id["root-ca"]!);
    const issuing = await client.certificateAuthorities.get(id["issuing-ca"]!);
    expect(root.status).toBe("active");
    // Signed by its parent as part of its create.
    expect(issuing).toMatchObject({ status: "active", configuration: { parentCaId: root.id } });
    expect((await client.certificatePolicies.get(id["web-policy"]!)).name).toBe("web-servers");
    expect(await client.certificateProfiles.get(id.web!)).toMatchObject({
      caId: issuing.id,
      certificatePolicyId: id["web-policy"],
    });

    await admin.clearRequests();
    expect((await t.stack.preview()).changeSummary).toEqual({ same: RESOURCES + 1 });
    expect((await admin.requests()).filter((r) => r.path.startsWith("/api/"))).toEqual([]);
    await noCanary();
  });

  it("refreshes the tree with one read per folder, project and family, and finds nothing changed", async () => {
    await admin.clearRequests();
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ same: RESOURCES + 1, update: 0 });
    const reads = (await admin.requests()).filter((r) => r.path.startsWith("/api/") && r.method === "GET");
    // 13 reads for 14 resources: folders and secrets listed by the folder holding them, projects and
    // environments read one by one, CAs, policies, profiles, syncs and connections listed by project.
    expect(reads.map((r) => r.path.replace(/[0-9a-f-]{36}/g, ":id")).sort()).toEqual([
      "/api/v1/app-connections",
      "/api/v1/cert-manager/ca/internal",
      "/api/v1/cert-manager/certificate-policies",
      "/api/v1/cert-manager/certificate-profiles",
      "/api/v1/projects/:id",
      "/api/v1/projects/:id",
      "/api/v1/projects/:id/environments/:id",
      "/api/v1/projects/:id/environments/:id",
      "/api/v1/secret-syncs",
      "/api/v2/folders",
      "/api/v2/folders",
      "/api/v4/secrets",
      "/api/v4/secrets",
    ]);
  });

  it("changes a value and renames a secret in place: its id stays", async () => {
    const before = await ids();
    await declare(tree({ dbUrlName: "DB_URL" }));
    await setSecrets(CANARY_CHANGED);
    const preview = await t.stack.preview({ diff: true });
    surfaces.push(preview.stdout, preview.stderr);
    expect(preview.changeSummary).toEqual({ same: RESOURCES, update: 1 });
    const up = await t.stack.up();
    surfaces.push(up.stdout, up.stderr);
    expect(await ids()).toEqual(before);
    const dbUrl = await client.secrets.getById(before["db-url"]!);
    expect(dbUrl).toMatchObject({ secretKey: "DB_URL", secretValue: CANARY_CHANGED, secretPath: "/backend/db" });
    await noCanary();
  });

  it("renames a folder: the plan shows updates, what is in it moves with it, keeps its id, and nothing is written again", async () => {
    const before = await ids();
    const versions = async () =>
      Promise.all(["db-url", "api-key"].map(async (k) => (await client.secrets.getById(before[k]!)).version));
    const versionsBefore = await versions();
    await declare(tree({ folderName: "services", dbUrlName: "DB_URL" }));
    const preview = await t.stack.preview({ diff: true });
    surfaces.push(preview.stdout, preview.stderr);
    // The folder renamed; the subfolder, the secrets and the sync naming its path follow it in
    // place (provider/folder-moves.ts): no replacement, no revision reset, no alias advice.
    expect(preview.changeSummary).toEqual({ same: RESOURCES - 4, update: 5 });
    expect(preview.stdout).not.toMatch(/secretValue\s*:\s*\d+\s*=>/);
    expect(preview.stdout + preview.stderr).not.toContain("alias");
    const up = await t.stack.up();
    surfaces.push(up.stdout, up.stderr);
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 5, replace: 0, create: 0, delete: 0 });
    expect(up.stdout + up.stderr).not.toContain("alias");
    expect(await ids()).toEqual(before);
    // The secrets only moved with their folders: neither is written again.
    expect(await versions()).toEqual(versionsBefore);
    expect(await client.secretFolders.get(before.backend!)).toMatchObject({ name: "services", path: "/services" });
    expect(await client.secretFolders.get(before.db!)).toMatchObject({ path: "/services/db" });
    expect(await client.secrets.getById(before["db-url"]!)).toMatchObject({
      secretKey: "DB_URL",
      secretPath: "/services/db",
      secretValue: CANARY_CHANGED,
    });
    expect((await client.secrets.getById(before["api-key"]!)).secretValue).toBe(CANARY_API_KEY);
    const place = { projectId: before.app!, ...dev };
    expect((await client.secrets.list({ ...place, secretPath: "/services/db" })).map((x) => x.secretKey)).toEqual([
      "DB_URL",
    ]);
    expect((await client.secretSyncs.get("vercel", before["backend-to-vercel"]!)).folder?.path).toBe("/services");
    expect((await t.stack.preview()).changeSummary).toEqual({ same: RESOURCES + 1 });
    await noCanary();
  });

  it("gives an environment a new slug and back: what is in it follows in place, nothing is written again", async () => {
    const before = await ids();
    const renamed = { folderName: "services", dbUrlName: "DB_URL" };
    const writesOf = async () =>
      Promise.all([
        ...["db-url", "api-key"].map(async (k) => (await client.secrets.getById(before[k]!)).version),
        client.secretFolders.get(before.db!).then((f) => f.version),
      ]);
    const writesBefore = await writesOf();
    for (const devSlug of ["development", "dev"]) {
      await declare(tree({ ...renamed, devSlug }));
      const preview = await t.stack.preview({ diff: true });
      surfaces.push(preview.stdout, preview.stderr);
      // The environment, its two folders, two secrets and the sync: updates, no replacement.
      expect(preview.changeSummary).toEqual({ same: RESOURCES - 5, update: 6 });
      const up = await t.stack.up();
      surfaces.push(up.stdout, up.stderr);
      expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 6, replace: 0, create: 0, delete: 0 });
      expect(up.stdout + up.stderr).not.toContain("alias");
      expect(await ids()).toEqual(before);
      expect(await client.secrets.getById(before["db-url"]!)).toMatchObject({
        environment: devSlug,
        secretPath: "/services/db",
      });
      expect(await writesOf()).toEqual(writesBefore);
    }
    expect((await t.stack.preview()).changeSummary).toEqual({ same: RESOURCES + 1 });
  });

  it("finds a value changed outside the program without showing it, and writes the program's back", async () => {
    const id = await ids();
    const place = { projectId: id.app!, ...dev, secretPath: "/services/db" };
    await client.secrets.update("DB_URL", { ...place, secretValue: CANARY_OUT_OF_BAND });
    await t.stack.refresh();
    const preview = await t.stack.preview({ diff: true });
    surfaces.push(preview.stdout, preview.stderr);
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(preview.stdout).toMatch(/secretValue/);
    await t.stack.up();
    expect((await client.secrets.getById(id["db-url"]!)).secretValue).toBe(CANARY_CHANGED);
    await noCanary();
  });

  it("finds a folder deleted outside the program gone with its secret at refresh, and the next up makes both again", async () => {
    const before = await ids();
    const place = { projectId: before.app!, ...dev };
    await client.secretFolders.delete(before.db!, { ...place, path: "/services", forceDelete: true });
    // The folder's secrets list is a 404 now (docs/service-api.md §12): the secret is gone, not an error.
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ delete: 2, update: 0 });
    expect((await t.stack.preview()).changeSummary).toEqual({ same: RESOURCES - 1, create: 2 });
    await t.stack.up();
    const after = await ids();
    expect(after.db).not.toBe(before.db);
    expect(await client.secrets.getById(after["db-url"]!)).toMatchObject({
      secretKey: "DB_URL",
      secretPath: "/services/db",
      secretValue: CANARY_CHANGED,
    });
    expect((await t.stack.preview()).changeSummary).toEqual({ same: RESOURCES + 1 });
    await noCanary();
  });

  it("moves a secret to another folder: made there, and the old one gone", async () => {
    const before = await ids();
    await declare(tree({ folderName: "services", dbUrlName: "DB_URL", dbUrlPath: "backend.secretPath" }));
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ replace: 1 });
    const after = await ids();
    expect(after["db-url"]).not.toBe(before["db-url"]);
    expect(await orUndefined(client.secrets.getById(before["db-url"]!))).toBeUndefined();
    expect(await client.secrets.getById(after["db-url"]!)).toMatchObject({
      secretKey: "DB_URL",
      secretPath: "/services",
      secretValue: CANARY_CHANGED,
    });
    // The sync's folder now holds it: the sync pushed it.
    const pushed = await admin.pushedSecrets(after["backend-to-vercel"]!);
    expect(pushed?.secrets.map((s) => s.key).sort()).toEqual(["API_KEY", "DB_URL"]);
  });

  it("refuses two environments, folders or secrets with one slug, name or key at preview, naming both, before any write", async () => {
    const fixture = emulator.summary.projects[0]!.id;
    const place = { projectId: fixture, environment: "dev" };
    const pairs: Declared[][] = [
      { kind: "ProjectEnvironment", args: { projectId: fixture, name: "Perf", slug: "perf" } },
      { kind: "SecretFolder", args: { ...place, name: "twice" } },
      { kind: "Secret", args: { ...place, secretName: "TWICE", secretValue: "x" } },
    ].map(({ kind, args }) => ["first", "second"].map((n) => ({ kind, name: `${kind}-${n}`, args })));
    const current = tree({ folderName: "services", dbUrlName: "DB_URL", dbUrlPath: "backend.secretPath" });
    for (const [kind, field] of [
      ["ProjectEnvironment", "slug"],
      ["SecretFolder", "name"],
      ["Secret", "secretName"],
    ] as const) {
      await declare([...current, ...pairs.flat().filter((r) => r.kind === kind)]);
      await admin.clearRequests();
      const failure = await t.stack.preview().then(
        () => "",
        (e: unknown) => String(e),
      );
      expect(failure).toMatch(new RegExp(`${kind} "${kind}-(first|second)" and ${kind} "${kind}-(first|second)"`));
      expect(failure).toContain(`${field}:`);
      expect((await admin.requests()).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"))).toEqual([]);
    }
    await declare(current);
  });

  it("refuses two environments with one slug in a project the same program makes, at preview, naming both", async () => {
    const extra: Declared[] = [
      { kind: "Project", name: "extra", args: { projectName: "Extra", slug: "tree-extra" } },
      ...["first", "second"].map((name) => ({
        kind: "ProjectEnvironment",
        name,
        args: { projectId: ref("extra.id"), name: "Perf", slug: "perf" },
      })),
    ];
    const current = tree({ folderName: "services", dbUrlName: "DB_URL", dbUrlPath: "backend.secretPath" });
    await declare([...current, ...extra]);
    await admin.clearRequests();
    // The new project's id is not known at preview, but both name the same output of the same
    // resource (`extra.id`): the same project (provider/program-side.ts, output origins).
    const failure = await t.stack.preview().then(
      () => "",
      (e: unknown) => String(e),
    );
    expect(failure).toMatch(/ProjectEnvironment "(first|second)" and ProjectEnvironment "(first|second)"/);
    expect((await admin.requests()).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"))).toEqual([]);
    expect((await client.projects.list()).find((p) => p.slug === "tree-extra")).toBeUndefined();
    await declare(current);
  });

  it("destroys every object (checked by id), and makes the tree again", async () => {
    const id = await ids();
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(RESOURCES + 1);
    expect(await orUndefined(client.projects.get(id.app!))).toBeUndefined();
    expect(await orUndefined(client.projects.get(id.pki!))).toBeUndefined();
    expect(await orUndefined(client.secrets.getById(id["api-key"]!))).toBeUndefined();
    expect(await orUndefined(client.secretFolders.get(id.backend!))).toBeUndefined();
    expect(await orUndefined(client.certificateAuthorities.get(id["issuing-ca"]!))).toBeUndefined();
    expect(await orUndefined(client.certificatePolicies.get(id["web-policy"]!))).toBeUndefined();

    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: RESOURCES + 1 });
    await t.stack.destroy();
    await noCanary();
  });
});

/** Each new resource on its own: the program the lifecycle below edits step by step. */
function each(step: "initial" | "patched" | "replaced"): Declared[] {
  const patched = step !== "initial";
  const replaced = step === "replaced";
  const one = { projectId: ref("one.id") };
  return [
    { kind: "Project", name: "one", args: { projectName: "Each one", slug: "each-one" } },
    {
      kind: "Project",
      name: "two",
      args: {
        projectName: "Each two",
        slug: "each-two",
        projectDescription: patched ? "patched" : "initial",
        type: replaced ? "kms" : "secret-manager",
      },
    },
    // Where the environment moves: a kms project holds none (the service refuses it there).
    { kind: "Project", name: "three", args: { projectName: "Each three", slug: "each-three" } },
    {
      kind: "ProjectEnvironment",
      name: "env",
      args: { projectId: ref(replaced ? "three.id" : "one.id"), name: patched ? "Quality" : "QA", slug: "qa" },
    },
    {
      kind: "SecretFolder",
      name: "folder",
      args: {
        ...one,
        environment: replaced ? "staging" : "dev",
        name: "each",
        description: patched ? "patched" : "initial",
      },
    },
    {
      kind: "Secret",
      name: "secret",
      args: {
        ...one,
        environment: replaced ? "staging" : "dev",
        secretName: "EACH",
        secretComment: patched ? "patched" : "initial",
        secretFieldsFrom: ["secretValue"],
      },
    },
    { kind: "Project", name: "pki", args: { projectName: "Each PKI", slug: "each-pki", type: "cert-manager" } },
    { kind: "Project", name: "pki2", args: { projectName: "Each PKI 2", slug: "each-pki-two", type: "cert-manager" } },
    {
      kind: "CertificateAuthority",
      name: "ca",
      args: {
        projectId: ref("pki.id"),
        name: "each-root",
        status: patched ? "disabled" : "active",
        configuration: {
          type: "root",
          commonName: replaced ? "Each Root CA 2" : "Each Root CA",
          notAfter: "2036-01-01T00:00:00Z",
        },
      },
    },
    {
      kind: "CertificatePolicy",
      name: "policy",
      args: {
        projectId: ref(replaced ? "pki2.id" : "pki.id"),
        name: "each",
        validity: { max: patched ? "60d" : "30d" },
      },
    },
  ];
}

/** The six new types, in the program above: the resource of each that the lifecycle edits. */
const EDITED = ["two", "env", "folder", "secret", "ca", "policy"];

describe("each new resource: patch, out-of-band change, replacement, destroy with what it hangs on gone", () => {
  let emulator: Emulator;
  let t: TestStack;
  let client: SecretOpsClient;
  const CANARY_EACH = "canary-each-secret-value-70b4d2";
  const ids = async () =>
    Object.fromEntries(
      Object.entries(await t.stack.outputs()).map(([k, v]) => [k, (v.value as { id: string }).id]),
    ) as Record<string, string>;
  const declare = (step: Parameters<typeof each>[0]) =>
    t.stack.setConfig("resources:resources", { value: JSON.stringify(each(step)) });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "resources:resources": { value: JSON.stringify(each("initial")) },
        "resources:secrets": { value: JSON.stringify({ secret: { secretValue: CANARY_EACH } }), secret: true },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false });
    await emulator?.stop();
  });

  /** What the service holds of each edited object, as the program declares it. */
  const state = async (id: Record<string, string>) => ({
    two: (await client.projects.get(id.two!)).description,
    env: (await client.projectEnvironments.get(id.one!, id.env!)).name,
    folder: (await client.secretFolders.get(id.folder!)).description,
    secret: (await client.secrets.getById(id.secret!)).secretComment,
    ca: (await client.certificateAuthorities.get(id.ca!)).status,
    policy: (await client.certificatePolicies.get(id.policy!)).validity?.max,
  });

  it("makes each, then a no-change preview", async () => {
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: each("initial").length + 1 });
    expect(await state(await ids())).toEqual({
      two: "initial",
      env: "QA",
      folder: "initial",
      secret: "initial",
      ca: "active",
      policy: "30d",
    });
    await t.stack.preview({ expectNoChanges: true });
  });

  it("patches each in place: every id stays", async () => {
    const before = await ids();
    await declare("patched");
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: EDITED.length, replace: 0, create: 0 });
    expect(await ids()).toEqual(before);
    const patched = {
      two: "patched",
      env: "Quality",
      folder: "patched",
      secret: "patched",
      ca: "disabled",
      policy: "60d",
    };
    expect(await state(before)).toEqual(patched);
  });

  it("finds a change made outside the program to each by refresh, and the next up puts the program's back", async () => {
    const id = await ids();
    await client.projects.update(id.two!, { description: "outside" });
    await client.projectEnvironments.update(id.one!, id.env!, { name: "Outside" });
    await client.secretFolders.update(id.folder!, {
      projectId: id.one!,
      environment: "dev",
      path: "/",
      name: "each",
      description: "outside",
    });
    await client.secrets.update("EACH", {
      projectId: id.one!,
      environment: "dev",
      secretPath: "/",
      secretComment: "outside",
    });
    await client.certificateAuthorities.update(id.ca!, { status: "active" });
    await client.certificatePolicies.update(id.policy!, { validity: { max: "10d" } });
    await t.stack.refresh();
    const preview = await t.stack.preview({ diff: true });
    expect(changeCounts(preview.changeSummary)).toMatchObject({ update: EDITED.length, replace: 0 });
    await t.stack.up();
    expect(await state(id)).toEqual({
      two: "patched",
      env: "Quality",
      folder: "patched",
      secret: "patched",
      ca: "disabled",
      policy: "60d",
    });
    await t.stack.preview({ expectNoChanges: true });
  });

  it("replaces each where the service cannot change it in place: new objects, the old ones gone", async () => {
    const before = await ids();
    await declare("replaced");
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ replace: EDITED.length });
    const after = await ids();
    for (const name of EDITED) expect(after[name]).not.toBe(before[name]);
    expect(await orUndefined(client.projects.get(before.two!))).toBeUndefined();
    expect((await client.projects.get(after.two!)).type).toBe("kms");
    expect(await orUndefined(client.projectEnvironments.get(before.one!, before.env!))).toBeUndefined();
    expect((await client.projectEnvironments.get(after.three!, after.env!)).slug).toBe("qa");
    expect(await orUndefined(client.secretFolders.get(before.folder!))).toBeUndefined();
    expect((await client.secretFolders.get(after.folder!)).environment?.envSlug).toBe("staging");
    expect(await orUndefined(client.secrets.getById(before.secret!))).toBeUndefined();
    expect(await client.secrets.getById(after.secret!)).toMatchObject({
      environment: "staging",
      secretValue: CANARY_EACH,
    });
    expect(await orUndefined(client.certificateAuthorities.get(before.ca!))).toBeUndefined();
    expect((await client.certificateAuthorities.get(after.ca!)).configuration?.commonName).toBe("Each Root CA 2");
    expect(await orUndefined(client.certificatePolicies.get(before.policy!))).toBeUndefined();
    expect((await client.certificatePolicies.get(after.policy!)).projectId).toBe(after.pki2);
    await t.stack.preview({ expectNoChanges: true });
  });

  it("destroys when the objects a resource hangs on are gone already: a 404 on delete is done", async () => {
    const id = await ids();
    // The folder and the secret go with their project; the policy alone.
    await client.projects.delete(id.one!);
    await client.certificatePolicies.delete(id.policy!);
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(each("replaced").length + 1);
    for (const p of ["two", "three", "pki", "pki2"])
      expect(await orUndefined(client.projects.get(id[p]!))).toBeUndefined();
    const exported = await cliStackExport(t);
    expect(exported).not.toContain(CANARY_EACH);
  });
});
