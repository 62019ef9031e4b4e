import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { startEmulator } from "../../emulator";
import { changeCounts, cliStackExport, createTestStack, repoRoot, type TestStack } from "./harness";
import { exampleSecretConfig, languagesBinDir, nativeEnv, nativeLifecycleTests, pluginBinDir } from "./native";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * examples/python under the real engine, as its users run it: the Python SDK generated from
 * schema.json (`pulumi package gen-sdk`), installed with pip into the program's venv beside
 * `pulumi` from PyPI, through the native provider against the emulator. up, a no-change preview,
 * the connection's password changed in place (masked), refresh, destroy; a typo'd destination
 * field refused at preview in the dynamic path's words; no secret in `pulumi stack export`.
 */
jest.setTimeout(20 * 60_000);

const PROJECT = "10000000-0000-4000-8000-000000000001";
const CANARY_ONE = "canary-python-orders-db-password-2f81c9";
const CANARY_TWO = "canary-python-orders-db-password-b4e07d";
/** The Python SDK from PyPI at the CLI's version (scripts/engine/languages.sh), and what pip builds the generated SDK with. */
const PYTHON_PACKAGES = ["pulumi==3.259.0", "parver", "wheel"];

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: SecretOpsClient;
let plugin: ReturnType<typeof pluginBinDir>;
let work: string;

const run = (file: string, args: string[]) =>
  runSync(file, args, {
    timeoutMs: TIMEOUTS.install,
    env: {
      ...process.env,
      PATH: [languagesBinDir(), process.env.PATH].join(path.delimiter),
      PULUMI_HOME: path.join(work, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    },
  });

/** A copy of examples/python (its __main__.py edited by `edit`) with its venv: the SDK and `pulumi` installed. */
function pythonProgram(name: string, edit: (text: string) => string = (t) => t): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  for (const file of ["Pulumi.yaml", "requirements.txt", "__main__.py"]) {
    const text = fs.readFileSync(path.join(repoRoot, "examples", "python", file), "utf8");
    fs.writeFileSync(path.join(dir, file), file === "__main__.py" ? edit(text) : text);
  }
  run(path.join(languagesBinDir(), "python3"), ["-m", "venv", path.join(dir, "venv")]);
  const pip = path.join(dir, "venv", "bin", "pip");
  run(pip, ["install", "--quiet", "--disable-pip-version-check", ...PYTHON_PACKAGES]);
  run(pip, [
    "install",
    "--quiet",
    "--disable-pip-version-check",
    "--no-deps",
    "--no-build-isolation",
    path.join(work, "sdk", "python"),
  ]);
  return dir;
}

/**
 * The stack's environment: the program's venv first on PATH. The Python host built here (sdk
 * v3.68's, scripts/engine/language-hosts.go) runs `python3` from PATH and does not see the
 * `virtualenv` option, which this CLI passes in a form that host predates.
 */
const envOf = (program: string) => {
  const env = nativeEnv(plugin.dir);
  return { ...env, PATH: [path.join(program, "venv", "bin"), env.PATH].join(path.delimiter) };
};

const configFor = (password: string) => ({
  "secretops:apiUrl": { value: emulator.url },
  "secretops:token": { value: emulator.token, secret: true },
  ...exampleSecretConfig("secretops-python", password),
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 100 });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  plugin = pluginBinDir();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-python-"));
  const schema = path.join(repoRoot, "schema.json");
  run(path.join(languagesBinDir(), "pulumi"), [
    "package",
    "gen-sdk",
    schema,
    "--language",
    "python",
    "-o",
    path.join(work, "sdk"),
  ]);
});

afterAll(async () => {
  plugin?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  await emulator?.stop();
});

test("the generated SDK carries the package's version", () => {
  const setup = fs.readFileSync(path.join(work, "sdk", "python", "setup.py"), "utf8");
  const version = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
  expect(setup).toContain(`VERSION = "${version}"`);
});

describe("examples/python on the generated SDK", () => {
  let t: TestStack;

  beforeAll(async () => {
    const program = pythonProgram("program");
    t = await createTestStack({ program, config: configFor(CANARY_ONE), env: envOf(program) });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  nativeLifecycleTests({
    stack: () => t,
    client: () => client,
    token: () => emulator.token,
    passwordKey: "secretops-python:ordersDbPassword",
    canaries: [CANARY_ONE, CANARY_TWO],
  });
});

test("a typo'd destination field (a dict, which Python does not check) is refused at preview, naming it", async () => {
  const typo = (text: string) =>
    text.replace(
      /destination_config=secretops\.SecretSyncVercelDestinationConfigArgs\([^)]*\)/,
      `destination_config={"app": "prj_web", "appName": "web", "env": "production", "teemId": "team_platform"}`,
    );
  expect(typo("destination_config=secretops.SecretSyncVercelDestinationConfigArgs(\n  app=1\n)")).toContain("teemId");
  const program = pythonProgram("typo", typo);
  const t = await createTestStack({ program, config: configFor(CANARY_ONE), env: envOf(program) });
  try {
    const failed = await t.stack.preview().then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toContain(
      `secretops:index:SecretSync resource 'web-to-vercel' has a problem: destinationConfig: unknown field "teemId" (did you mean "teamId"?)`,
    );
    expect(failed).not.toContain(CANARY_ONE);
  } finally {
    await t.dispose();
  }
});

test("a Secret `pulumi import` prints leaves its value out: the preview shows no change and no up writes it", async () => {
  const CANARY_VALUE = "canary-python-imported-secret-7c30d2";
  const made = await client.secrets.create("PY_IMPORTED", {
    projectId: PROJECT,
    environment: "staging",
    secretPath: "/app",
    secretValue: CANARY_VALUE,
    secretComment: "made outside",
  });
  const version = async () => (await client.secrets.getById(made.id)).version;
  const program = pythonProgram("imported-secret", () => "import pulumi\nimport secretops_pulumi as secretops\n");
  const t = await createTestStack({ program, config: configFor(CANARY_ONE), env: envOf(program) });
  try {
    const result = await t.stack.import({
      resources: [{ type: "secretops:index:Secret", name: "imported-secret", id: made.id }],
      generateCode: true,
      protect: false,
    });
    expect(result.summary.resourceChanges?.import).toBe(1);
    expect(result.generatedCode).toContain('secret_name="PY_IMPORTED"');
    expect(result.generatedCode).not.toContain("secret_value");
    // The import's check of the inputs it read passes: no warning that they failed to validate.
    expect(result.stdout + result.stderr).not.toContain("failed to validate");
    const main = path.join(program, "__main__.py");
    fs.appendFileSync(main, `\n${result.generatedCode}`);
    await t.stack.preview({ expectNoChanges: true });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
    expect(await version()).toBe(made.version);

    // The program then gives the value the service holds, from secret config: still nothing to write.
    await t.stack.setConfig("secretops-python:importedValue", { value: CANARY_VALUE, secret: true });
    const code = fs.readFileSync(main, "utf8");
    fs.writeFileSync(
      main,
      code.replace(
        'secret_name="PY_IMPORTED"',
        'secret_name="PY_IMPORTED",\n    secret_value=pulumi.Config().require_secret("importedValue")',
      ),
    );
    await t.stack.preview({ expectNoChanges: true });
    const again = await t.stack.up();
    expect(changeCounts(again.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0 });
    expect(await version()).toBe(made.version);
    for (const surface of [await cliStackExport(t), up.stdout, again.stdout, result.stdout, result.generatedCode]) {
      expect(surface).not.toContain(CANARY_VALUE);
    }
    await t.stack.destroy();
    await expect(client.secrets.getById(made.id)).rejects.toMatchObject({ status: 404 });
  } finally {
    await t.dispose({ destroy: false });
  }
});

describe("Python dicts for the args whose type depends on the kind", () => {
  const VERCEL_CONNECTION = "50000000-0000-4000-8000-000000000012";

  test("a program passing snake_case dicts (as the Args classes spell them) applies, then previews no change", async () => {
    const dicts = (text: string) =>
      text
        .replace(
          /sync_options=secretops\.SecretSyncVercelSyncOptionsArgs\([^)]*\)/,
          `sync_options={"initial_sync_behavior": "overwrite-destination", "disable_secret_deletion": True}`,
        )
        .replace(
          /destination_config=secretops\.SecretSyncVercelDestinationConfigArgs\([^)]*\)/,
          `destination_config={"app": "prj_web", "app_name": "web", "env": "production", "team_id": "team_platform"}`,
        );
    expect(dicts(fs.readFileSync(path.join(repoRoot, "examples", "python", "__main__.py"), "utf8"))).toContain(
      `"team_id": "team_platform"`,
    );
    const program = pythonProgram("dicts", dicts);
    const t = await createTestStack({ program, config: configFor(CANARY_ONE), env: envOf(program) });
    try {
      const up = await t.stack.up();
      const sync = await client.secretSyncs.get("vercel", String(up.outputs.syncId!.value));
      expect(sync.destinationConfig).toMatchObject({ appName: "web", teamId: "team_platform" });
      expect(sync.syncOptions).toMatchObject({
        initialSyncBehavior: "overwrite-destination",
        disableSecretDeletion: true,
      });
      await t.stack.preview({ expectNoChanges: true });
    } finally {
      await t.dispose();
    }
  });

  test("the code `pulumi import` prints for Python, pasted into the program, previews no change", async () => {
    const made = await client.secretSyncs.create("vercel", {
      name: "imported-into-python",
      projectId: PROJECT,
      connectionId: VERCEL_CONNECTION,
      environment: "staging",
      secretPath: "/app",
      syncOptions: { initialSyncBehavior: "import-prioritize-destination", disableSecretDeletion: true },
      destinationConfig: { app: "prj_imported", appName: "imported", env: "preview", branch: "main", teamId: "team_1" },
    });
    const program = pythonProgram("imported", () => "import pulumi\nimport secretops_pulumi as secretops\n");
    const t = await createTestStack({ program, config: configFor(CANARY_ONE), env: envOf(program) });
    try {
      const result = await t.stack.import({
        resources: [{ type: "secretops:index:SecretSync", name: "imported", id: `vercel/${made.id}` }],
        generateCode: true,
        protect: false,
      });
      expect(result.summary.resourceChanges?.import).toBe(1);
      // Python code, with the kind's objects as dicts: sync_options with snake_case keys (what the
      // provider refused before), destination_config as the schema leaves it (any object).
      expect(result.generatedCode).toContain("secretops.SecretSync(");
      expect(result.generatedCode).toMatch(/"initial_sync_behavior": "import-prioritize-destination"/);
      expect(result.generatedCode).toMatch(/"disable_secret_deletion": True/);
      fs.appendFileSync(path.join(program, "__main__.py"), `\n${result.generatedCode}`);
      await t.stack.preview({ expectNoChanges: true });
      expect((await client.secretSyncs.get("vercel", made.id)).updatedAt).toBe(made.updatedAt);
    } finally {
      await t.dispose();
    }
  });
});
