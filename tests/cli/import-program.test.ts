import { importProgram, type Found } from "../../cli/import-program";

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
  const program = importProgram(found(), { retainOnDelete: true, source: "http://127.0.0.1:1, project p" });
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
    expect(importProgram(shuffled, { retainOnDelete: true, source: "http://127.0.0.1:1, project p" }).source).toBe(
      source,
    );
    const deletable = importProgram(found(), { retainOnDelete: false, source: "s" }).source;
    expect(deletable).not.toContain("retainOnDelete");
    expect(deletable).toContain('export const web2Sync = new secretops.SecretSync("web-2", {\n');
  });
});
