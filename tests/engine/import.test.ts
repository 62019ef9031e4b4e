import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import {
  SecretOpsClient,
  appConnectionKinds,
  knownSyncDestinations,
  rotationTypes,
  type AppConnection,
  type AppConnectionKind,
} from "../../sdk";
import { NEWEST_TYPESCRIPT, installPacked } from "../../scripts/packed-install";
import { PROGRAM_TYPESCRIPT } from "../../cli/import-program";
import { run, secretops } from "../cli/run";
import { credentialCanaryValue } from "../connection-samples";
import {
  changeCounts,
  cliStackExport,
  createTestStack,
  pulumiBinDir,
  repoRoot,
  storedState,
  type TestStack,
} from "./harness";

// Issue 21: an organization made outside any stack (through the API, as the web interface would)
// is brought under code by `secretops import`: the generated program compiles, `pulumi up` adopts
// every object without one write, the next preview shows no change, dropping adoptExisting shows
// none either, and destroy (with the generated retainOnDelete) leaves every object in place.
// Issue 27 (item 7): run from the packed package installed in a project of the user's, the program
// it writes installs with the `npm install` it prints, and its stack has outputs.
jest.setTimeout(20 * 60_000);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const CANARY = "canary-imported-secret-5b0e3f";
/** The secrets the objects were made with: the generated program must hold none. */
const SEEDED = "canary-seeded";
const seededSecrets: string[] = ["made-in-the-web-ui"];

let emulator: Emulator;
let client: SecretOpsClient;
let admin: EmulatorAdmin;
let dir: string;
let t: TestStack | undefined;
let tarball: string;
const made = { connections: 0, syncs: 0, rotations: 0, profiles: 0 };
let projectId: string;

/** The org-level fixture connection of a kind (every kind has one). */
const fixtureConnection = (app: string) => emulator.summary.connections.find((c) => c.app === app && !c.projectId)!.id;

/** The sample credentials' value of a field (a required prefix, for instance). */
function sampleOf(app: string, method: string, field: string): unknown {
  const kind = (appConnectionKinds as unknown as Record<string, AppConnectionKind>)[app]!;
  return kind.examples[method]?.[field];
}

async function seed() {
  const p = emulator.summary.projects[0]!;
  projectId = p.id;
  // 60 project connections of 60 kinds, each with its row's example credentials.
  const kinds = (Object.values(appConnectionKinds) as AppConnectionKind[]).slice(0, 60);
  const own = new Map<string, AppConnection>();
  for (const kind of kinds) {
    const c = await client.appConnections.create(
      kind.app as never,
      {
        name: `brown-${kind.app}`,
        projectId: p.id,
        description: `made in the web UI (${kind.label})`,
        method: kind.example.method,
        credentials: kind.example.credentials,
      } as never,
    );
    own.set(kind.app, c);
    made.connections++;
  }
  const connectionFor = (app: string) => own.get(app)?.id ?? fixtureConnection(app);
  // A sync of every destination, through the project's connection of its kind where there is one.
  for (const dest of knownSyncDestinations) {
    await client.secretSyncs.create(
      dest.destination as never,
      {
        name: `brown-${dest.destination}`,
        projectId: p.id,
        connectionId: connectionFor(dest.connectionApp),
        environment: p.environments[made.syncs % p.environments.length]!,
        secretPath: "/",
        isAutoSyncEnabled: made.syncs % 3 !== 0,
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: dest.example.destinationConfig,
      } as never,
    );
    made.syncs++;
  }
  // A rotation of every type.
  for (const type of Object.values(rotationTypes)) {
    const prefix = type.type.toUpperCase().replace(/-/g, "_");
    await client.secretRotations.create(
      type.type as never,
      {
        name: `brown-${type.type}`,
        projectId: p.id,
        connectionId: connectionFor(type.connectionApp),
        environment: p.environments[0]!,
        secretPath: "/",
        rotationInterval: 7 + (made.rotations % 20),
        parameters: type.example.parameters,
        secretsMapping: Object.fromEntries(
          Object.keys(type.secretsMapping.shape).map((k) => [k, `BROWN_${prefix}_${k}`]),
        ),
        isAutoRotationEnabled: made.rotations % 2 === 0,
      } as never,
    );
    made.rotations++;
  }
  // 60 profiles of the four enrollment types.
  const policy = emulator.summary.certificatePolicies.find((x) => x.projectId === p.id)!;
  const ca = emulator.summary.certificateAuthorities.find((x) => x.projectId === p.id)!.id;
  const configs = [
    { enrollmentType: "api", apiConfig: { autoRenew: true, renewBeforeDays: 7 } },
    { enrollmentType: "est", estConfig: { disableBootstrapCaValidation: true, passphrase: `${SEEDED}-passphrase` } },
    { enrollmentType: "acme", acmeConfig: { skipDnsOwnershipVerification: true } },
    { enrollmentType: "scep", scepConfig: { challengePassword: `${SEEDED}-challenge` } },
  ];
  for (let i = 0; i < 60; i++) {
    await client.certificateProfiles.create({
      projectId: p.id,
      certificatePolicyId: policy.id,
      caId: ca,
      issuerType: "ca",
      slug: `brown-${String(i).padStart(2, "0")}`,
      ...(i % 5 === 0 ? { description: `profile ${i}` } : {}),
      ...(i % 2 === 0 ? { defaults: { ttlDays: 30 + i, keyAlgorithm: "RSA_2048" } } : {}),
      ...configs[i % configs.length]!,
    } as never);
    made.profiles++;
  }
}

/** Every write the service answered since the last reset. */
async function writes() {
  return (await admin.requests()).filter((r) => r.path.startsWith("/api/") && r.method !== "GET");
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 50, checkResponses: true });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  admin = new EmulatorAdmin(emulator.url);
  await seed();
  // The user's project, with the packed package installed: `npx secretops import` runs from there.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-import-"));
  tarball = installPacked(repoRoot, dir);
  pulumiBinDir();
});

afterAll(async () => {
  try {
    await t?.dispose({ destroy: false }); // the emulator stops next
  } finally {
    await emulator?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

const env = () => ({ SECRETOPS_API_URL: emulator.url, SECRETOPS_TOKEN: emulator.token });
/** `npx secretops …` in the user's project: the installed package's command. */
const npxSecretops = (args: string[]) => run("npx", ["--no", "secretops", ...args], { cwd: dir, env: env() });

describe("secretops import", () => {
  let output: string;
  let secretKeys: string[];
  const program = () => path.join(dir, "brownfield");

  it("writes a typed program of every object, with the secrets as config reads and no secret value", async () => {
    await admin.clearRequests();
    const r = await npxSecretops(["import", "--project", projectId, "--out", "brownfield"]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    output = r.stdout;
    expect(output).toContain("\nNext:\n  cd brownfield && npm install && pulumi stack init\n");
    for (const f of ["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts", "imported.ts"]) {
      expect(fs.existsSync(path.join(program(), f))).toBe(true);
    }
    const source = fs.readFileSync(path.join(program(), "imported.ts"), "utf8");
    // Every seeded object, and the org-level connections they use, each adopted.
    const count = (cls: string) => source.split(`new secretops.${cls}(`).length - 1;
    expect(count("SecretSync")).toBe(made.syncs);
    expect(count("SecretRotation")).toBe(made.rotations);
    expect(count("CertificateProfile")).toBe(made.profiles);
    expect(count("AppConnection")).toBeGreaterThanOrEqual(made.connections);
    expect(source.split("adoptExisting: true").length - 1).toBe(
      made.syncs + made.rotations + made.profiles + count("AppConnection"),
    );
    // Connections by variable, never by raw id, where the program writes them.
    expect(source).toMatch(/connectionId: brownPostgresConnection\.id,/);
    expect(source).not.toMatch(/connectionId: "/);
    // No secret the objects were made with.
    for (const secret of seededSecrets) expect(source).not.toContain(secret);
    expect(source).not.toMatch(/canary/i);
    secretKeys = [...output.matchAll(/pulumi config set --secret (\S+)/g)].map((m) => m[1]!);
    expect(secretKeys.length).toBeGreaterThanOrEqual(made.profiles / 2);
    for (const key of secretKeys) expect(source).toContain(`config.requireSecret(${JSON.stringify(key)})`);
    // Reads only: one for the connections, one each for syncs and rotations, one page of profiles.
    expect(await writes()).toEqual([]);
    const reads = (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
    expect(reads.length).toBeLessThanOrEqual(4);
  });

  it("writes the same files through another URL of the same service, and none names the URL", async () => {
    const other = emulator.url.replace("127.0.0.1", "localhost");
    expect(other).not.toBe(emulator.url);
    // Another user's project with the same install, and a directory of the same name (the project
    // is named after it; package.json names the tarball from there).
    const user = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-import-other-"));
    const again = path.join(user, "brownfield");
    try {
      installPacked(repoRoot, user);
      const r = await run("npx", ["--no", "secretops", "import", "--project", projectId, "--out", "brownfield"], {
        cwd: user,
        env: { ...env(), SECRETOPS_API_URL: other },
      });
      expect(r.code).toBe(0);
      compare(again, other);
    } finally {
      fs.rmSync(user, { recursive: true, force: true });
    }
  });

  /** The files written in `again` are those of the first import, and none names an endpoint. */
  function compare(again: string, other: string) {
    const files = fs.readdirSync(program()).sort();
    expect(fs.readdirSync(again).sort()).toEqual(files);
    for (const f of files) {
      const content = fs.readFileSync(path.join(program(), f), "utf8");
      expect([f, fs.readFileSync(path.join(again, f), "utf8")]).toEqual([f, content]);
      expect(content).not.toContain(emulator.url);
      expect(content).not.toContain(other);
      expect(content).not.toMatch(/localhost|127\.0\.0\.1/);
    }
  }

  it("depends on the package as the user installed it: the tarball, from the program's directory", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(program(), "package.json"), "utf8"));
    const pulumiVersion = require(require.resolve("@pulumi/pulumi/package.json", { paths: [dir] })).version;
    expect(pkg.dependencies).toEqual({
      "secretops-pulumi": `file:../${tarball}`,
      "@pulumi/pulumi": `^${pulumiVersion}`,
    });
    expect(pkg.devDependencies.typescript).toBe(PROGRAM_TYPESCRIPT);
    expect(PROGRAM_TYPESCRIPT).toBe(`~${NEWEST_TYPESCRIPT}`);
  });

  it("refuses to overwrite what it wrote unless --force, and checks its flags", async () => {
    const again = await secretops(["import", "--project", projectId, "--out", program()], { env: env(), cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/not overwriting .*imported\.ts.*--force/);
    const typo = await secretops(["import", "--project", projectId, "--kind", "vercell", "--out", dir], {
      env: env(),
      cwd: dir,
    });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(`--kind: "vercell" is neither a family`);
    expect(typo.stderr).toContain(`did you mean "vercel"?`);
    // Filters: one family, one name pattern, into an existing program (the module only).
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: existing\nruntime: nodejs\n");
    const some = await secretops(
      ["import", "--project", projectId, "--kind", "syncs", "--name", "brown-aws-*", "--module", "aws", "--out", dir],
      { env: env(), cwd: dir },
    );
    expect(some.code).toBe(0);
    expect(fs.existsSync(path.join(dir, "index.ts"))).toBe(false);
    const aws = fs.readFileSync(path.join(dir, "aws.ts"), "utf8");
    expect(aws).not.toContain("new secretops.AppConnection(");
    expect(aws).toMatch(/new secretops\.SecretSync\(\s*"brown-aws-parameter-store"/);
    expect(aws.split("new secretops.").length - 1).toBe(
      knownSyncDestinations.filter((d) => d.destination.startsWith("aws-")).length,
    );
    // Without the connections, a sync names its connection's id, with a comment saying why.
    expect(aws).toMatch(/\/\/ connectionId: a connection this import did not write/);
  });

  it("reads each project's connections when the token may not list the organization's", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-import-403-"));
    try {
      // The organization-wide list is refused (a fault's path has no query: this rule catches the
      // first list, which is that one).
      await admin.addFault({ method: "GET", path: "^/api/v1/app-connections$", kind: "status", status: 403, count: 1 });
      await admin.clearRequests();
      const r = await secretops(["import", "--project", projectId, "--kind", "connections", "--out", out], {
        env: env(),
        cwd: out,
      });
      expect(r.code).toBe(0);
      const source = fs.readFileSync(path.join(out, "imported.ts"), "utf8");
      expect(source.split("new secretops.AppConnection(").length - 1).toBe(made.connections);
      const lists = (await admin.requests())
        .filter((q) => q.path.startsWith("/api/v1/app-connections"))
        .map((q) => `${q.status} ${q.url}`);
      expect(lists).toEqual(["403 /api/v1/app-connections", `200 /api/v1/app-connections?projectId=${projectId}`]);
    } finally {
      await admin.clearFaults();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("installs with the npm install it prints, and compiles with the TypeScript it installs", async () => {
    // As printed: `cd brownfield && npm install` (npm's cache first, as a configured user's npm would).
    const install = await run("bash", ["-c", "cd brownfield && npm install"], {
      cwd: dir,
      env: { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" },
    });
    // npm may warn (an engine range, install scripts); it must not fail.
    expect(install.stderr).not.toMatch(/npm error/);
    expect(install.code).toBe(0);
    const installed = path.join(program(), "node_modules", "secretops-pulumi");
    expect(fs.realpathSync(installed).startsWith(fs.realpathSync(program()))).toBe(true);
    const ts = require(require.resolve("typescript/package.json", { paths: [program()] })) as { version: string };
    expect(ts.version).toBe(NEWEST_TYPESCRIPT);
    const tsc = await run(path.join(program(), "node_modules", ".bin", "tsc"), ["-p", "."], { cwd: program() });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  });

  it("pulumi up adopts every object with no write; the next preview shows no change", async () => {
    const config: ConfigMap = {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      "secretops:readsPerMinute": { value: "100000" },
      "secretops:writesPerMinute": { value: "100000" },
    };
    // Each secret as its user would set it: a value of the form its field takes (a canary here).
    const connections = await client.appConnections.listAll();
    for (const [i, m] of [...output.matchAll(/pulumi config set --secret (\S+)\s+# (\S+): (\S+)/g)].entries()) {
      const [, key, resource, secretPath] = m as unknown as [string, string, string, string];
      const connection = connections.find((c) => c.name === resource);
      const value = connection
        ? credentialCanaryValue(
            connection.app,
            connection.method,
            secretPath.split(".")[1]!,
            `${CANARY}-${i}`,
            sampleOf(connection.app, connection.method, secretPath.split(".")[1]!),
          )
        : `${CANARY}-${i}`;
      config[key] = { value, secret: true };
    }
    expect(Object.keys(config)).toHaveLength(4 + secretKeys.length);
    t = await createTestStack({ program: program(), config });
    await admin.clearRequests();
    const since = new Date().toISOString();
    const up = await t.stack.up();
    const resources = fs.readFileSync(path.join(program(), "imported.ts"), "utf8").split("new secretops.").length - 1;
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: resources + 1, update: 0, delete: 0 });
    expect(await writes()).toEqual([]);
    // The audit log agrees: reads only, no create or update event of any family.
    const events = new Set<string>();
    for await (const e of client.auditLogs.iterate({ projectId, startDate: since })) events.add(e.event.type);
    expect(events.size).toBeGreaterThan(0);
    for (const e of events) expect(e).not.toMatch(/^(create|update)-/);

    // The stack's outputs: every resource's id, by its variable, as the service knows the object.
    const ids = up.outputs.ids!.value as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(resources);
    expect(ids.brownPostgresConnection).toBe(connections.find((c) => c.name === "brown-postgres")!.id);
    const syncIds = new Set((await client.secretSyncs.listAll(projectId)).map((x) => x.id));
    expect(syncIds.has(ids.brownVercelSync!)).toBe(true);

    const preview = await t.stack.preview({ expectNoChanges: true } as never);
    expect(changeCounts(preview.changeSummary)).toMatchObject({ same: resources + 1 });
    for (const text of [up.stdout, preview.stdout, storedState(t), await cliStackExport(t)]) {
      expect(text).not.toContain(CANARY);
    }
  });

  it("writes a secret once its value changes after adoption: one PATCH", async () => {
    const key = secretKeys.find((k) => k.endsWith("ProfilePassphrase"))!;
    await t!.stack.setConfig(key, { value: `${CANARY}-changed`, secret: true });
    await admin.clearRequests();
    const up = await t!.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, create: 0, delete: 0 });
    expect((await writes()).map((r) => r.method)).toEqual(["PATCH"]);
    expect(up.stdout).not.toContain(CANARY);
  });

  it("shows no change once adoptExisting is removed, and destroy leaves every object in place", async () => {
    const file = path.join(program(), "imported.ts");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/\n\s*adoptExisting: true,/g, ""));
    const preview = await t!.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
    await admin.clearRequests();
    await t!.stack.destroy();
    expect(await writes()).toEqual([]);
    expect((await client.secretSyncs.listAll(projectId)).length).toBe(made.syncs);
    expect((await client.secretRotations.listAll(projectId)).length).toBe(made.rotations);
    expect((await client.appConnections.listAll({ projectId })).length).toBe(made.connections);
    const profiles = await client.certificateProfiles.list({ projectId, limit: 100 });
    expect(profiles.certificateProfiles.filter((p) => p.slug.startsWith("brown-"))).toHaveLength(made.profiles);
  });
});
