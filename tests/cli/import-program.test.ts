import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { installedSpec } from "../../cli/import";
import { PROGRAM_TYPESCRIPT, importProgram, programFiles, type Found } from "../../cli/import-program";

// What `secretops import` writes for kinds newer than the package, secrets, names and layout (the
// engine test, tests/engine/import.test.ts, proves the round trip of the typed kinds).

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

function found(): Found {
  return {
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
    expect(program.counts).toEqual({ connections: 2, syncs: 4, rotations: 0, profiles: 1 });
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

describe("what surrounds the module", () => {
  test("the header names the projects read, never the endpoint, and counts in words", () => {
    const { source } = importProgram(found(), { retainOnDelete: true, projects: [PROJECT] });
    expect(source.split("\n").slice(0, 2)).toEqual([
      `// Written by \`secretops import\` from project ${PROJECT}: 7 resources`,
      "// (2 connections, 4 syncs, 0 rotations, 1 profile), each adopting the object the service already has.",
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
