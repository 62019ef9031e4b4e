import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installedSpec } from "../../cli/import";
import { PROGRAM_TYPESCRIPT, importProgram, programFiles, type Found } from "../../cli/import-program";
import { compileSnippets } from "../docs/helpers/compile";

// What `secretops import` writes for kinds newer than the package, secrets, names, the project's
// tree and layout (the engine test, tests/engine/import.test.ts, proves the round trip of the typed
// kinds and of the tree).

const PROJECT = "10000000-0000-4000-8000-000000000001";
const at = { createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };

const connection = (id: string, app: string, method: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  orgId: "o",
  projectId: PROJECT,
  name,
  description: null,
  app,
  method,
  credentials: { host: "db.internal" },
  isPlatformManagedCredentials: false,
  gatewayId: null,
  version: 1,
  credentialsHash: "h",
  ...at,
  ...extra,
});

const sync = (name: string, destination: string, connectionId: string) => ({
  id: `s-${name}`,
  name,
  projectId: PROJECT,
  connectionId,
  environment: { slug: "prod" },
  folder: { path: "/" },
  destination,
  destinationConfig: { app: "x" },
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  description: null,
  isAutoSyncEnabled: true,
  ...at,
});

/** The tree's families, empty: what an import with `--kind` of the other families reads. */
const noTree = {
  projects: [],
  environments: [],
  folders: [],
  secrets: [],
  authorities: [],
  policies: [],
  roles: [],
  memberships: [],
};

function found(): Found {
  return {
    ...noTree,
    connections: [
      connection("c1", "postgres", "username-and-password", "orders-db"),
      connection("c2", "brand-new-kind", "api-key", "novel"),
      connection("c3", "postgres", "username-and-password", "managed-db", { isPlatformManagedCredentials: true }),
    ],
    syncs: [
      sync("web", "vercel", "c1"),
      sync("future", "brand-new-destination", "c1"),
      sync("web-2", "vercel", "c2"),
      // The same name in another project: the second resource gets its own logical name.
      { ...sync("web", "vercel", "c1"), id: "s-web-other", projectId: "20000000-0000-4000-8000-000000000002" },
    ],
    rotations: [
      {
        id: "r1",
        name: "future-rotation",
        projectId: PROJECT,
        connectionId: "c1",
        type: "brand-new-rotation",
        environment: { slug: "prod" },
        folder: { path: "/" },
        rotationInterval: 30,
        parameters: {},
        secretsMapping: {},
        isAutoRotationEnabled: true,
        ...at,
      },
    ],
    profiles: [
      {
        id: "p1",
        projectId: PROJECT,
        certificatePolicyId: "pol",
        caId: "ca",
        slug: "devices",
        enrollmentType: "scep",
        issuerType: "ca",
        scepConfig: { challengeType: "static", includeCaCertInResponse: true },
        ...at,
      },
    ],
  } as unknown as Found;
}

describe("importProgram", () => {
  const program = importProgram(found(), { retainOnDelete: true, projects: [PROJECT] });
  const source = program.source;

  test("a sync to a destination newer than the package is written as GenericSecretSync, with a comment", () => {
    expect(source).toContain(
      `// destination "brand-new-destination" is newer than this package: its fields are not checked by this package\nexport const futureSync = new secretops.GenericSecretSync(`,
    );
    expect(program.skipped).toContainEqual({
      family: "syncs",
      name: "future",
      reason: `destination "brand-new-destination" is newer than this package: written as GenericSecretSync`,
    });
  });

  test("a rotation type or connection kind newer than the package is left out, and said so", () => {
    expect(source).not.toContain("future-rotation");
    expect(program.skipped).toContainEqual({
      family: "rotations",
      name: "future-rotation",
      reason: `rotation type "brand-new-rotation" is newer than this package: not written`,
    });
    expect(program.skipped).toContainEqual({
      family: "connections",
      name: "novel",
      reason: `connection kind "brand-new-kind" (method "api-key") is newer than this package: not written`,
    });
    // A sync using such a connection names its id, with a comment.
    expect(source).toContain(`// connectionId: a connection this import did not write (c2)\nexport const web2Sync`);
    expect(source).toMatch(/connectionId: "c2",/);
  });

  test("connections by variable, secrets as config reads, projects as constants, unique names", () => {
    expect(source).toMatch(
      /export const webP1Sync = new secretops\.SecretSync\(\n {2}"web-p1",[\s\S]*?connectionId: ordersDbConnection\.id,/,
    );
    // "web" in two projects: each resource named after its project's constant.
    expect(source).toContain('export const webP1Sync = new secretops.SecretSync(\n  "web-p1",');
    expect(source).toContain('export const webP2Sync = new secretops.SecretSync(\n  "web-p2",');
    expect(source).toContain(`const projectId1 = "${PROJECT}";`);
    expect(source).toMatch(/\n {4}projectId: projectId1,\n/);
    expect(source).toContain('password: config.requireSecret("ordersDbConnectionPassword"),');
    expect(source).toContain('challengePassword: config.requireSecret("devicesProfileChallengePassword"),');
    expect(program.secrets.map((s) => s.key)).toEqual([
      "managedDbConnectionPassword",
      "ordersDbConnectionPassword",
      "devicesProfileChallengePassword",
    ]);
    for (const s of program.secrets) expect(source).toContain(`//   pulumi config set --secret ${s.key}\n`);
    expect(source).toContain("// platform-managed credentials: the service holds their secret parts");
    expect(program.counts).toMatchObject({ connections: 2, syncs: 4, rotations: 0, profiles: 1 });
  });

  test("is the same for the same objects in any order, and retainOnDelete is optional", () => {
    const shuffled = found();
    shuffled.syncs.reverse();
    shuffled.connections.reverse();
    expect(importProgram(shuffled, { retainOnDelete: true, projects: [PROJECT] }).source).toBe(source);
    const deletable = importProgram(found(), { retainOnDelete: false, projects: [PROJECT] }).source;
    expect(deletable).not.toContain("retainOnDelete");
    expect(deletable).toContain('export const web2Sync = new secretops.SecretSync("web-2", {\n');
  });
});

/** A project's tree as the import reads it: each family out of the module's order. */
function tree(): Found {
  const env = (id: string, slug: string, name: string, position: number) => ({
    id,
    projectId: PROJECT,
    slug,
    name,
    position,
    ...at,
  });
  const folder = (id: string, environmentSlug: string, parentPath: string, name: string) => ({
    id,
    name,
    description: null,
    projectId: PROJECT,
    environmentSlug,
    parentPath,
    ...at,
  });
  const secret = (id: string, environment: string, secretPath: string, secretKey: string, extra = {}) => ({
    id,
    secretKey,
    secretComment: "",
    skipMultilineEncoding: false,
    type: "shared",
    projectId: PROJECT,
    environment,
    secretPath,
    ...at,
    ...extra,
  });
  const ca = (id: string, name: string, type: string, parentCaId: string | null, status = "active") => ({
    id,
    name,
    projectId: PROJECT,
    status,
    configuration: {
      type,
      friendlyName: null,
      commonName: name,
      organization: "",
      ou: "",
      country: "",
      province: "",
      locality: "",
      notBefore: "2026-01-01T00:00:00.000Z",
      notAfter: "2036-01-01T00:00:00.000Z",
      maxPathLength: -1,
      keyAlgorithm: "RSA_2048",
      parentCaId,
    },
    ...at,
  });
  return {
    projects: [
      {
        id: PROJECT,
        name: "Orders",
        slug: "orders",
        description: null,
        type: "secret-manager",
        hasDeleteProtection: false,
        ...at,
      },
    ],
    environments: [
      env("e3", "prod", "Production", 3),
      env("e1", "dev", "Development", 1),
      env("e2", "staging", "Staging", 2),
    ],
    folders: [
      folder("f2", "prod", "/app", "db"),
      folder("f1", "prod", "/", "app"),
      folder("f3", "dev", "/", "app"),
      folder("f4", "staging", "/", "app"),
    ],
    secrets: [
      // A value the service returned anyway: the program never holds it.
      secret("s1", "prod", "/app/db", "DATABASE_URL", { secretComment: "the primary", secretValue: "canary-value" }),
      secret("s2", "prod", "/", "API_KEY"),
      secret("s3", "prod", "/", "API_KEY", { type: "personal" }),
    ],
    // As complete as the service reports them: the module compiles.
    connections: [
      connection("c1", "postgres", "username-and-password", "orders-db", {
        credentials: {
          host: "db.internal",
          port: 5432,
          database: "orders",
          username: "app",
          sslEnabled: true,
          sslRejectUnauthorized: true,
        },
      }),
    ],
    syncs: [
      {
        ...sync("web", "vercel", "c1"),
        folder: { path: "/app/db" },
        destinationConfig: { app: "prj_1", appName: "web", env: "production", teamId: "team_1" },
      },
    ],
    rotations: [],
    // The intermediate's name sorts before its parent's.
    authorities: [
      ca("ca2", "a-issuing", "intermediate", "ca1"),
      ca("ca1", "z-root", "root", null),
      ca("ca3", "waiting", "intermediate", "ca1", "pending-certificate"),
    ],
    policies: [
      {
        id: "pol",
        projectId: PROJECT,
        name: "web-servers",
        description: null,
        subject: [{ type: "common_name", allowed: ["*.example.com"] }],
        sans: null,
        validity: { max: "90d" },
        ...at,
      },
    ],
    profiles: [
      {
        id: "p1",
        projectId: PROJECT,
        certificatePolicyId: "pol",
        caId: "ca2",
        slug: "web",
        enrollmentType: "api",
        issuerType: "ca",
        apiConfig: { autoRenew: true, renewBeforeDays: 7 },
        ...at,
      },
    ],
    // A custom role as its read by slug answers it (the service's spelling), and a membership of an
    // identity holding it and a temporary built-in role.
    roles: [
      {
        id: "role-1",
        projectId: PROJECT,
        slug: "ci-reader",
        name: "CI reader",
        description: null,
        permissions: [
          {
            subject: "secrets",
            action: ["read", "describeSecret"],
            conditions: { secretPath: { $glob: "/app/**" }, environment: { $eq: "prod" } },
            inverted: false,
          },
        ],
        ...at,
      },
    ],
    memberships: [
      {
        id: "m-1",
        identityId: "30000000-0000-4000-8000-000000000003",
        projectId: PROJECT,
        identity: { id: "30000000-0000-4000-8000-000000000003", name: "ci" },
        roles: [
          {
            id: "mr-1",
            role: "custom",
            customRoleId: "role-1",
            customRoleSlug: "ci-reader",
            isTemporary: false,
          },
          {
            id: "mr-2",
            role: "viewer",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime: "2026-01-01T00:00:00.000Z",
            temporaryAccessEndTime: "2026-01-01T01:00:00.000Z",
          },
        ],
        ...at,
      },
    ],
  } as unknown as Found;
}

describe("importProgram: the project's tree", () => {
  const program = importProgram(tree(), { retainOnDelete: true, projects: [PROJECT] });
  const source = program.source;
  /** The block of one resource, from its declaration to its end. */
  const block = (variable: string) => source.slice(source.indexOf(`export const ${variable} =`)).split("\n);")[0]!;

  test("the project is a resource, and its variable's id replaces the projectId literal everywhere", () => {
    expect(block("ordersProject")).toContain('new secretops.Project(\n  "orders",\n  {\n    projectName: "Orders",');
    // Only the header names it.
    const body = source.slice(source.indexOf("\nimport "));
    expect(body).not.toContain(PROJECT);
    expect(body).not.toMatch(/const projectId/);
    const resources = Object.values(program.counts).reduce((a, b) => a + b, 0);
    expect(body.match(/projectId: ordersProject\.id,/g)).toHaveLength(resources - 1);
  });

  test("every environment, the template's too, in the project's order; they adopt without the option", () => {
    const order = [...source.matchAll(/export const (\w+) = new secretops\.ProjectEnvironment\(/g)].map((m) => m[1]);
    expect(order).toEqual(["devEnvironment", "stagingEnvironment", "prodEnvironment"]);
    expect(block("prodEnvironment")).toContain('name: "Production",\n    slug: "prod",\n    position: 3,\n  },');
    expect(block("prodEnvironment")).not.toContain("adoptExisting");
  });

  test("folders name their environment's slug and their parent's secretPath; by environment, parents first", () => {
    const order = [...source.matchAll(/export const (\w+) = new secretops\.SecretFolder\(/g)].map((m) => m[1]);
    expect(order).toEqual(["devAppFolder", "stagingAppFolder", "prodAppFolder", "prodAppDbFolder"]);
    expect(block("prodAppDbFolder")).toContain(
      'environment: prodEnvironment.slug,\n    name: "db",\n    path: prodAppFolder.secretPath,\n    adoptExisting: true,',
    );
    expect(block("prodAppFolder")).toContain('path: "/",');
    // A sync in a folder written names it too.
    expect(block("webSync")).toContain(
      "environment: prodEnvironment.slug,\n    secretPath: prodAppDbFolder.secretPath,\n    destination:",
    );
  });

  test("secrets: keys and comments, each value a config read; no value is ever written", () => {
    expect(block("prodAppDbDatabaseUrlSecret")).toContain(
      [
        '  "prod-app-db-DATABASE_URL",',
        "  {",
        "    projectId: ordersProject.id,",
        "    environment: prodEnvironment.slug,",
        "    secretPath: prodAppDbFolder.secretPath,",
        '    secretName: "DATABASE_URL",',
        '    secretComment: "the primary",',
        "    skipMultilineEncoding: false,",
        '    secretValue: config.requireSecret("prodAppDbDatabaseUrl"),',
        "    adoptExisting: true,",
      ].join("\n"),
    );
    // An empty comment is what leaving it out means.
    expect(block("prodApiKeySecret")).not.toContain("secretComment");
    expect(source).not.toContain("canary-value");
    expect(program.secrets.filter((s) => s.path === "secretValue")).toEqual([
      { key: "prodApiKey", resource: "prod-API_KEY", path: "secretValue" },
      { key: "prodAppDbDatabaseUrl", resource: "prod-app-db-DATABASE_URL", path: "secretValue" },
    ]);
    expect(program.skipped).toContainEqual({
      family: "secrets",
      name: "prod-API_KEY",
      reason: "a personal secret (one user's own value of a shared secret): not written",
    });
  });

  test("a secret a rotation writes is the rotation's: not written, selected rotation or not", () => {
    const rotation = {
      name: "orders-db-creds",
      projectId: PROJECT,
      environment: { slug: "prod" },
      folder: { path: "/app/db" },
      secretsMapping: { username: "DB_USER", password: "DATABASE_URL" },
    } as unknown as Found["rotations"][number];
    const rotated = importProgram(tree(), { retainOnDelete: true, projects: [PROJECT], rotations: [rotation] });
    expect(rotated.source).not.toContain("DATABASE_URL");
    expect(rotated.counts.secrets).toBe(1);
    expect(rotated.skipped).toContainEqual({
      family: "secrets",
      name: "prod-app-db-DATABASE_URL",
      reason: 'written by the rotation "orders-db-creds": not written',
    });
  });

  test("CAs: a parent before its intermediates, which name it by variable; profiles name their CA and policy", () => {
    expect(source.indexOf("export const zRootCa")).toBeLessThan(source.indexOf("export const aIssuingCa"));
    expect(block("aIssuingCa")).toContain(
      [
        "    configuration: {",
        '      type: "intermediate",',
        '      commonName: "a-issuing",',
        '      notAfter: "2036-01-01T00:00:00.000Z",',
        "      maxPathLength: -1,",
        '      keyAlgorithm: "RSA_2048",',
        "      parentCaId: zRootCa.id,",
        "    },",
      ].join("\n"),
    );
    // Fields the service never set are left out, not written as null (the args refuse a null).
    expect(block("zRootCa")).not.toMatch(/null|parentCaId|friendlyName/);
    expect(program.skipped).toContainEqual({
      family: "authorities",
      name: "waiting",
      reason: "a CA waiting for its certificate, which the args do not take: not written",
    });
    expect(block("webServersPolicy")).not.toMatch(/null|sans|description/);
    expect(block("webProfile")).toContain("certificatePolicyId: webServersPolicy.id,");
    expect(block("webProfile")).toContain("caId: aIssuingCa.id,");
  });

  test("is the same for the same objects in any order", () => {
    const shuffled = tree();
    for (const objects of Object.values(shuffled)) objects.reverse();
    expect(importProgram(shuffled, { retainOnDelete: true, projects: [PROJECT] }).source).toBe(source);
    expect(program.counts).toEqual({
      projects: 1,
      environments: 3,
      folders: 4,
      secrets: 2,
      connections: 1,
      syncs: 1,
      rotations: 0,
      authorities: 2,
      policies: 1,
      profiles: 1,
      roles: 1,
      memberships: 1,
    });
  });

  test("a custom role with its permissions in one spelling, and a membership naming its identity by id", () => {
    expect(block("ciReaderRole")).toContain(
      [
        'new secretops.ProjectRole(\n  "ci-reader",\n  {',
        "    projectId: ordersProject.id,",
        '    slug: "ci-reader",',
        '    name: "CI reader",',
        "    permissions: [",
        "      {",
        '        subject: "secrets",',
        "        action: [",
        '          "describeSecret",',
        '          "read",',
        "        ],",
        "        conditions: {",
        "          environment: {",
        '            $eq: "prod",',
        "          },",
        "          secretPath: {",
        '            $glob: "/app/**",',
        "          },",
        "        },",
        "      },",
        "    ],",
        "    adoptExisting: true,",
      ].join("\n"),
    );
    expect(block("ciMemberMembership")).toContain(
      'new secretops.ProjectIdentityMembership(\n  "ci-member",\n  {\n    projectId: ordersProject.id,\n    identityId: "30000000-0000-4000-8000-000000000003",',
    );
    expect(block("ciMemberMembership")).toContain('role: "ci-reader",');
    expect(block("ciMemberMembership")).toContain('temporaryAccessStartTime: "2026-01-01T00:00:00.000Z",');
    expect(block("ciMemberMembership")).not.toContain("custom");
  });

  test("compiles against the package's types", () => {
    expect(compileSnippets({ imported: source }).imported).toEqual([]);
  }, 120_000);
});

describe("what surrounds the module", () => {
  test("the header names the projects read, never the endpoint, and counts in words", () => {
    const { source } = importProgram(found(), { retainOnDelete: true, projects: [PROJECT] });
    expect(source.split("\n").slice(0, 2)).toEqual([
      `// Written by \`secretops import\` from project ${PROJECT}: 7 resources`,
      "// (2 connections, 4 syncs, 1 profile), each adopting the object the service already has.",
    ]);
    expect(source).not.toMatch(/https?:\/\//);
  });

  test("a whole program: its stack exports the ids, its tsconfig suits TypeScript 4.7 to 6", () => {
    const files = programFiles({
      name: "infra",
      module: "imported",
      packageSpec: "file:../secretops-pulumi-0.1.0.tgz",
      pulumiSpec: "^3.248.0",
    });
    expect([...files.keys()]).toEqual(["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts"]);
    expect(JSON.parse(files.get("package.json")!)).toMatchObject({
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": "^3.248.0", "secretops-pulumi": "file:../secretops-pulumi-0.1.0.tgz" },
      devDependencies: { typescript: PROGRAM_TYPESCRIPT },
    });
    // TypeScript 6 refuses moduleResolution node (node10): TS5107.
    expect(JSON.parse(files.get("tsconfig.json")!).compilerOptions).toMatchObject({
      module: "nodenext",
      moduleResolution: "nodenext",
    });
    expect(files.get("index.ts")).toContain('import * as imported from "./imported";');
    expect(files.get("index.ts")).toContain("export const ids = ");
  });
});

describe("installedSpec: the package as the importing user has it", () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-spec-"));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** A project with the package installed under node_modules, declared with `spec`. */
  function installed(name: string, spec?: string): string {
    const project = path.join(tmp, name);
    const pkg = path.join(project, "node_modules", "secretops-pulumi");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "secretops-pulumi", version: "0.1.7" }));
    const deps = spec ? { dependencies: { "secretops-pulumi": spec } } : {};
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name, ...deps }));
    return pkg;
  }

  test("from a tarball or a directory: that file, from the written program", () => {
    const pkg = installed("tarball", "file:./vendor/secretops-pulumi-0.1.7.tgz");
    expect(installedSpec(path.join(tmp, "tarball", "infra"), pkg)).toBe("file:../vendor/secretops-pulumi-0.1.7.tgz");
    const dir = installed("dir", "file:../secretops");
    expect(installedSpec(path.join(tmp, "dir", "infra"), dir)).toBe("file:../../secretops");
  });

  test("from a registry, or undeclared: the installed version exactly; from git: the same specifier", () => {
    expect(installedSpec(path.join(tmp, "elsewhere"), installed("registry", "^0.1.0"))).toBe("0.1.7");
    expect(installedSpec(path.join(tmp, "elsewhere"), installed("transitive"))).toBe("0.1.7");
    const git = "github:example/secretops-pulumi#v0.1.7";
    expect(installedSpec(path.join(tmp, "elsewhere"), installed("git", git))).toBe(git);
  });

  test("a checkout (or a linked directory): that directory", () => {
    const checkout = path.resolve(__dirname, "..", "..");
    expect(installedSpec(path.join(tmp, "infra"), checkout)).toBe(
      `file:${path.relative(path.join(tmp, "infra"), checkout)}`,
    );
  });
});
