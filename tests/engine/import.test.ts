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
// Issue 40 (item 6): the project's tree too (the project, its environments, folders, secrets, CAs
// and policies), adopted with no write; secret values are never read, each one a config read.
// Issue 45 (item 10): `secretops verify` then looks for no event of what the up adopted as found,
// and still names an object a later up wrote whose event the audit log lacks.
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
/** The project's tree after seeding: the fixture's and the seeded. */
const tree = { environments: 0, folders: 0, secrets: 0, rotatedSecrets: 0 };
let projectId: string;
/** The fixture's cert-manager project: its CAs, policies and profiles (the service keeps them apart). */
let pkiProjectId: string;
/** The intermediate CA and the policy made beside the fixture's. */
let issuingCa: string;
let brownPolicy: string;

/** The org-level fixture connection of a kind (every kind has one). */
const fixtureConnection = (app: string) => emulator.summary.connections.find((c) => c.app === app && !c.projectId)!.id;

/** The sample credentials' value of a field (a required prefix, for instance). */
function sampleOf(app: string, method: string, field: string): unknown {
  const kind = (appConnectionKinds as unknown as Record<string, AppConnectionKind>)[app]!;
  return kind.examples[method]?.[field];
}

/**
 * The values the service holds of a project's secrets, by the resource name `secretops import`
 * gives each (`<environment><path>-<key>`, cli/import-program.ts).
 */
async function heldSecretValues(projectId: string): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  for (const { slug: environment } of (await client.projects.get(projectId)).environments!) {
    const folders = await client.secretFolders.list({ projectId, environment, path: "/", recursive: true });
    const paths = ["/", ...folders.flatMap((f) => (f.relativePath ? [f.relativePath] : []))];
    for (const secretPath of paths) {
      for (const s of await client.secrets.list({ projectId, environment, secretPath })) {
        const pathPart = secretPath === "/" ? "" : secretPath.replace(/\//g, "-");
        values.set(`${environment}${pathPart}-${s.secretKey}`, s.secretValue!);
      }
    }
  }
  return values;
}

/**
 * Beside the fixture's tree (three environments, each with /app, /app/db and /infra, and a secret):
 * an environment, three levels of folders and three secrets in every environment, one multi-line
 * and one with a comment; in the cert-manager project, an intermediate CA signed by the fixture's
 * root, and a policy with rules.
 */
async function seedTree(p: (typeof emulator.summary.projects)[number]) {
  await client.projectEnvironments.create(p.id, { name: "QA", slug: "qa" });
  const environments = [...p.environments, "qa"];
  for (const environment of environments) {
    const place = { projectId: p.id, environment };
    await client.secretFolders.create({ ...place, name: "brown", path: "/", description: "made in the web UI" });
    // The service makes /brown/nested on the way.
    await client.secretFolders.create({ ...place, name: "deep", path: "/brown/nested" });
    await client.secrets.create("API_KEY", { ...place, secretPath: "/", secretValue: `${SEEDED}-api-${environment}` });
    await client.secrets.create("DATABASE_URL", {
      ...place,
      secretPath: "/brown",
      secretValue: `postgres://app:${SEEDED}-db-${environment}@db:5432/app`,
      secretComment: "the primary database",
    });
    await client.secrets.create("SIGNING_KEY", {
      ...place,
      secretPath: "/brown/nested/deep",
      secretValue: `-----BEGIN KEY-----\n${SEEDED}-key-${environment}\n-----END KEY-----`,
      skipMultilineEncoding: true,
    });
  }
  tree.environments = environments.length;
  for (const environment of environments) {
    const place = { projectId: p.id, environment, path: "/", recursive: true };
    tree.folders += (await client.secretFolders.list(place)).length;
  }
  tree.secrets = 1 + environments.length * 3; // the fixture's EXISTING_SECRET and the seeded
  const root = emulator.summary.certificateAuthorities.find((x) => x.projectId === pkiProjectId)!.id;
  const notAfter = "2031-01-01T00:00:00Z";
  const issuing = await client.certificateAuthorities.create({
    projectId: pkiProjectId,
    name: "brown-issuing",
    configuration: { type: "intermediate", commonName: "Brown Issuing CA", notAfter, parentCaId: root },
  });
  await client.certificateAuthorities.signIntermediate(issuing.id, root, { notAfter, maxPathLength: -1 });
  issuingCa = issuing.id;
  const policy = await client.certificatePolicies.create({
    projectId: pkiProjectId,
    name: "brown-web",
    subject: [{ type: "common_name", allowed: ["*.brown.example.com"] }],
    keyUsages: { required: ["digital_signature"] },
    validity: { max: "90d" },
  });
  brownPolicy = policy.id;
}

async function seed() {
  const p = emulator.summary.projects[0]!;
  projectId = p.id;
  pkiProjectId = emulator.summary.certificatePolicies[0]!.projectId;
  await seedTree(p);
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
        // Half in a folder the program writes: they name it by variable.
        secretPath: made.syncs % 2 ? "/app" : "/",
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
    // It writes its mapped secrets: the rotation's, which the program leaves out.
    tree.rotatedSecrets += Object.keys(type.secretsMapping.shape).length;
    made.rotations++;
  }
  // 60 profiles of the four enrollment types.
  const policy = emulator.summary.certificatePolicies.find((x) => x.projectId === pkiProjectId)!;
  const ca = emulator.summary.certificateAuthorities.find((x) => x.projectId === pkiProjectId)!.id;
  const configs = [
    { enrollmentType: "api", apiConfig: { autoRenew: true, renewBeforeDays: 7 } },
    { enrollmentType: "est", estConfig: { disableBootstrapCaValidation: true, passphrase: `${SEEDED}-passphrase` } },
    { enrollmentType: "acme", acmeConfig: { skipDnsOwnershipVerification: true } },
    { enrollmentType: "scep", scepConfig: { challengePassword: `${SEEDED}-challenge` } },
  ];
  for (let i = 0; i < 60; i++) {
    await client.certificateProfiles.create({
      projectId: pkiProjectId,
      certificatePolicyId: i % 2 ? brownPolicy : policy.id,
      caId: i % 3 ? ca : issuingCa,
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

/** `npx secretops verify` in the generated program (its installed package), against a service. */
const npxVerify = (stack: TestStack, service: { url: string; token: string }) =>
  run(
    "npx",
    [
      "--no",
      "secretops",
      "verify",
      "--stack",
      stack.stack.name,
      "--api-url",
      service.url,
      "--token-env",
      "VERIFY_TOKEN",
    ],
    {
      cwd: stack.stack.workspace.workDir,
      env: {
        ...stack.envVars,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
        VERIFY_TOKEN: service.token,
      },
    },
  );

describe("secretops import", () => {
  let output: string;
  let secretKeys: string[];
  const program = () => path.join(dir, "brownfield");

  it("writes a typed program of every object, with the secrets as config reads and no secret value", async () => {
    await admin.clearRequests();
    const r = await npxSecretops(["import", "--project", projectId, "--project", pkiProjectId, "--out", "brownfield"]);
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
    // The tree: every environment (the template's too), folder and secret but the rotations' own,
    // the fixture's root CA and the intermediate, the fixture's policy and the seeded one.
    expect(count("Project")).toBe(2);
    expect(count("ProjectEnvironment")).toBe(tree.environments);
    expect(count("SecretFolder")).toBe(tree.folders);
    expect(count("Secret")).toBe(tree.secrets);
    expect(count("CertificateAuthority")).toBe(2);
    expect(count("CertificatePolicy")).toBe(2);
    const skippedSecrets = output.match(/^skipped: secrets .*: written by the rotation "brown-[^"]+": not written$/gm);
    expect(skippedSecrets).toHaveLength(tree.rotatedSecrets);
    // Every resource adopts its object; environments by default.
    const resources = source.split("new secretops.").length - 1;
    expect(source.split("adoptExisting: true").length - 1).toBe(resources - tree.environments);
    // Each resource names what it hangs on by variable, never by raw id.
    expect(source).toMatch(/connectionId: brownPostgresConnection\.id,/);
    expect(source).not.toMatch(/connectionId: "/);
    // Every resource of the project (the organization's connections have none; destinations'
    // configs have projects of their own, deeper).
    expect(new Set(source.match(/^ {4}projectId: .*/gm))).toEqual(
      new Set(["    projectId: emulatorProject.id,", "    projectId: emulatorPkiProject.id,"]),
    );
    expect(source).not.toMatch(/^const projectId/m);
    expect(source).toMatch(/environment: prodEnvironment\.slug,\n {4}secretPath: prodAppFolder\.secretPath,/);
    expect(source).toMatch(/name: "deep",\n {4}path: qaBrownNestedFolder\.secretPath,/);
    expect(source).toMatch(/secretPath: stagingBrownFolder\.secretPath,\n {4}secretName: "DATABASE_URL",/);
    expect(source).toContain("parentCaId: emulatorInternalCa.id,");
    expect(source).toContain("caId: brownIssuingCa.id,");
    expect(source).toContain("certificatePolicyId: brownWebPolicy.id,");
    // No secret the objects were made with.
    for (const secret of seededSecrets) expect(source).not.toContain(secret);
    expect(source).not.toMatch(/canary/i);
    secretKeys = [...output.matchAll(/pulumi config set --secret (\S+)/g)].map((m) => m[1]!);
    expect(secretKeys.length).toBeGreaterThanOrEqual(made.profiles / 2 + tree.secrets);
    for (const key of secretKeys) expect(source).toContain(`config.requireSecret(${JSON.stringify(key)})`);
    expect(secretKeys).toContain("devAppExistingSecret");
    // Reads only: the connections; each project; the secret-manager one's environments, each
    // environment's folders and each folder's secrets (the roots' too), without their values, its
    // syncs and rotations; the cert-manager one's CAs, a page of policies and one of profiles; and
    // each project's roles and identity memberships, one list each (the fixture has no custom
    // role, which would be read by its slug).
    expect(await writes()).toEqual([]);
    const reads = (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
    const secretLists = reads.filter((r) => r.path === "/api/v4/secrets");
    expect(secretLists).toHaveLength(tree.environments + tree.folders);
    for (const r of secretLists) expect(r.url).toContain("viewSecretValue=false");
    expect(reads).toHaveLength(
      1 + (1 + 2 * tree.environments + tree.environments + tree.folders + 2 + 2) + (1 + 3 + 2),
    );
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
      const args = ["import", "--project", projectId, "--project", pkiProjectId, "--out", "brownfield"];
      const r = await run("npx", ["--no", "secretops", ...args], {
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
    const again = await secretops(["import", "--project", projectId, "--project", pkiProjectId, "--out", program()], {
      env: env(),
      cwd: dir,
    });
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

    // One family of one environment reads that much: the project, the environment's folders, a
    // list per folder and its root, and the rotations (whose secrets are theirs).
    await admin.clearRequests();
    const prod = await secretops(
      [
        "import",
        "--project",
        projectId,
        "--kind",
        "secrets",
        "--environment",
        "prod",
        "--module",
        "prod",
        "--out",
        dir,
      ],
      { env: env(), cwd: dir },
    );
    expect(prod.code).toBe(0);
    const reads = (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
    const folders = await client.secretFolders.list({ projectId, environment: "prod", path: "/", recursive: true });
    expect(reads).toHaveLength(1 + 1 + (1 + folders.length) + 1);
    const secrets = fs.readFileSync(path.join(dir, "prod.ts"), "utf8");
    expect(secrets.split("new secretops.").length - 1).toBe(secrets.split("new secretops.Secret(").length - 1);
    expect(secrets.split("new secretops.Secret(").length - 1).toBe(3);
    // What is not written is named as the service knows it.
    expect(secrets).toContain('environment: "prod",\n    secretPath: "/brown",\n    secretName: "DATABASE_URL",');
    expect(secrets).toContain("projectId,\n");
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
      "secretops:secretsPerMinute": { value: "100000" },
    };
    const settings = Object.keys(config).length;
    // Each secret as its user would set it: a secret's value as the service holds it (docs/import.md:
    // an equal value is not written, another one is), any other secret a value of the form its field
    // takes (a canary here: the service never returns those, so adoption cannot compare them).
    const held = await heldSecretValues(projectId);
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
        : secretPath === "secretValue"
          ? held.get(resource)!
          : `${CANARY}-${i}`;
      expect(value).toBeDefined();
      config[key] = { value, secret: true };
    }
    expect(Object.keys(config)).toHaveLength(settings + secretKeys.length);
    t = await createTestStack({ program: program(), config });
    await admin.clearRequests();
    const since = new Date().toISOString();
    const up = await t.stack.up();
    const resources = fs.readFileSync(path.join(program(), "imported.ts"), "utf8").split("new secretops.").length - 1;
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: resources + 1, update: 0, delete: 0 });
    expect(await writes()).toEqual([]);
    // The audit log agrees: reads only, no create or update event of any family.
    const events = new Set<string>();
    for (const id of [projectId, pkiProjectId])
      for await (const e of client.auditLogs.iterate({ projectId: id, startDate: since })) events.add(e.event.type);
    expect(events.size).toBeGreaterThan(0);
    for (const e of events) expect(e).not.toMatch(/^(create|update)-/);

    // The stack's outputs: every resource's id, by its variable, as the service knows the object.
    const ids = up.outputs.ids!.value as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(resources);
    expect(ids.brownPostgresConnection).toBe(connections.find((c) => c.name === "brown-postgres")!.id);
    const syncIds = new Set((await client.secretSyncs.listAll(projectId)).map((x) => x.id));
    expect(syncIds.has(ids.brownVercelSync!)).toBe(true);
    expect(ids.emulatorProject).toBe(projectId);
    const qa = (await client.projects.get(projectId)).environments!.find((e) => e.slug === "qa")!;
    expect(ids.qaEnvironment).toBe(qa.id);
    expect(ids.brownIssuingCa).toBe(issuingCa);
    expect(ids.brownWebPolicy).toBe(brownPolicy);

    const preview = await t.stack.preview({ expectNoChanges: true } as never);
    expect(changeCounts(preview.changeSummary)).toMatchObject({ same: resources + 1 });
    for (const text of [up.stdout, preview.stdout, storedState(t), await cliStackExport(t)]) {
      expect(text).not.toContain(CANARY);
    }
  });

  it("secretops verify exits 0: the up adopted every object as found and wrote none", async () => {
    const r = await npxVerify(t!, emulator);
    expect(r.stderr).toBe("");
    const resources = fs.readFileSync(path.join(program(), "imported.ts"), "utf8").split("new secretops.").length - 1;
    expect(r.stdout).toBe(
      `${resources} secretops resources verified: each was adopted as found with no write (no event to look for)\n`,
    );
    expect(r.code).toBe(0);
  });

  it("writes a secret once its value changes after adoption: one PATCH", async () => {
    const key = secretKeys.find((k) => k.endsWith("ProfilePassphrase"))!;
    await t!.stack.setConfig(key, { value: `${CANARY}-changed`, secret: true });
    await admin.clearRequests();
    const up = await t!.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, create: 0, delete: 0 });
    expect((await writes()).map((r) => r.method)).toEqual(["PATCH"]);
    expect(up.stdout).not.toContain(CANARY);

    // verify now looks for the written profile's event: here it is; a service whose audit log
    // never saw it lacks it, and only it.
    const resources = fs.readFileSync(path.join(program(), "imported.ts"), "utf8").split("new secretops.").length - 1;
    const found = await npxVerify(t!, emulator);
    expect(found.stdout).toBe(
      `${resources} secretops resources verified: 1 has its create/update event, ` +
        `${resources - 1} were adopted as found with no write (no event to look for)\n`,
    );
    expect(found.code).toBe(0);
    const elsewhere = await startEmulator({ port: 0, rateLimits: false });
    try {
      const missing = await npxVerify(t!, elsewhere);
      expect(missing.code).toBe(1);
      expect(missing.stdout).toMatch(
        /^missing: CertificateProfile \S+ [0-9a-f-]{36}: no create-certificate-profile or update-certificate-profile event since \S+\n$/,
      );
      expect(missing.stderr).toContain(`1 of ${resources} secretops resources has no create/update event`);
    } finally {
      await elsewhere.stop();
    }
  });

  it("writes a Secret's value once it is set after adoption: one PATCH, and the service holds it", async () => {
    await t!.stack.setConfig("devAppExistingSecret", { value: `${CANARY}-value`, secret: true });
    await admin.clearRequests();
    const up = await t!.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, create: 0, delete: 0 });
    expect((await writes()).map((r) => `${r.method} ${r.path}`)).toEqual(["PATCH /api/v4/secrets/EXISTING_SECRET"]);
    const place = { projectId, environment: "dev", secretPath: "/app" };
    expect((await client.secrets.get("EXISTING_SECRET", place)).secretValue).toBe(`${CANARY}-value`);
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
    const profiles = await client.certificateProfiles.list({ projectId: pkiProjectId, limit: 100 });
    expect(profiles.certificateProfiles.filter((p) => p.slug.startsWith("brown-"))).toHaveLength(made.profiles);
    // The tree too: the project, every environment, folder and secret, the CAs and the policies.
    const environments = (await client.projects.get(projectId)).environments!;
    expect(environments).toHaveLength(tree.environments);
    let folders = 0;
    for (const { slug } of environments) {
      folders += (await client.secretFolders.list({ projectId, environment: slug, path: "/", recursive: true })).length;
    }
    expect(folders).toBe(tree.folders);
    const deep = { projectId, environment: "qa", secretPath: "/brown/nested/deep", viewSecretValue: false };
    expect((await client.secrets.list(deep)).map((x) => x.secretKey)).toEqual(["SIGNING_KEY"]);
    expect((await client.certificateAuthorities.list(pkiProjectId)).map((c) => c.id)).toContain(issuingCa);
    expect((await client.certificatePolicies.get(brownPolicy)).name).toBe("brown-web");
  });
});
