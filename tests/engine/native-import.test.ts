import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { startEmulator } from "../../emulator";
import { changeCounts, createTestStack, pulumiBinDir, storedState, type TestStack } from "./harness";
import { nativeEnv, pluginBinDir } from "./native";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * `pulumi import` through the native provider: a sync made outside any stack is adopted by its
 * `<destination>/<id>`, the command prints the program's code for it, and a program holding that
 * code previews with no changes. Nothing is written to the service.
 */
jest.setTimeout(10 * 60_000);

const PROJECT = "10000000-0000-4000-8000-000000000001";
const VERCEL_CONNECTION = "50000000-0000-4000-8000-000000000012";
const HEADER = "name: secretops-import\nruntime: yaml\n";

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: SecretOpsClient;
let plugin: ReturnType<typeof pluginBinDir>;
let programDir: string;
let t: TestStack;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 100 });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  plugin = pluginBinDir();
  programDir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-import-"));
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), `${HEADER}resources: {}\n`);
  t = await createTestStack({
    program: programDir,
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
    },
    env: nativeEnv(plugin.dir),
  });
});

afterAll(async () => {
  await t?.dispose();
  plugin?.dispose();
  fs.rmSync(programDir, { recursive: true, force: true });
  await emulator?.stop();
});

test("pulumi import adopts a sync made outside any stack, prints its code, and the next preview shows no changes", async () => {
  const made = await client.secretSyncs.create("vercel", {
    name: "made-outside",
    projectId: PROJECT,
    connectionId: VERCEL_CONNECTION,
    environment: "staging",
    secretPath: "/app",
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    destinationConfig: { app: "prj_out", appName: "out", env: "production", teamId: "team_platform" },
    isAutoSyncEnabled: false,
  });
  const result = await t.stack.import({
    resources: [{ type: "secretops:index:SecretSync", name: "made-outside", id: `vercel/${made.id}` }],
    generateCode: true,
    protect: false,
  });
  expect(result.summary.resourceChanges?.import).toBe(1);
  expect(result.generatedCode).toContain("type: secretops:SecretSync");
  expect(result.generatedCode).toContain("destination: vercel");
  expect(result.generatedCode).toContain("teamId: team_platform");
  // The state holds the service's id, not the import id.
  const resource = JSON.parse(storedState(t)).checkpoint.latest.resources.find(
    (r: { type: string }) => r.type === "secretops:index:SecretSync",
  );
  expect(resource.id).toBe(made.id);

  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), HEADER + result.generatedCode);
  const preview = await t.stack.preview({ expectNoChanges: true });
  expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  expect((await client.secretSyncs.get("vercel", made.id)).updatedAt).toBe(made.updatedAt);
});

test("an import id without its destination is refused, saying what it takes", async () => {
  const failed = await t.stack
    .import({
      resources: [{ type: "secretops:index:SecretSync", name: "no-kind", id: "0b5f2a1e-0000-4000-8000-000000000000" }],
    })
    .then(
      () => undefined,
      (e: Error) => e.message,
    );
  expect(failed).toContain("import id: a SecretSync is imported as <destination>/<id>");
});

test("importing a connection says which secret the service never returns and the program must set", async () => {
  const [postgres] = await client.appConnections.list("postgres");
  const result = await t.stack.import({
    resources: [{ type: "secretops:index:AppConnection", name: "imported-pg", id: `postgres/${postgres!.id}` }],
    generateCode: true,
    protect: false,
  });
  expect(result.summary.resourceChanges?.import).toBe(1);
  // The engine shows check's failure on the imported inputs as a warning on the resource.
  expect(result.stdout + result.stderr).toContain(
    "secretops:index:AppConnection resource 'imported-pg' has a problem: credentials.password: is required",
  );
  expect(result.generatedCode).toContain("username: ");
  expect(result.generatedCode).not.toMatch(/^\s*password:/m);
  // The connection is the fixture's, which its rotations use: the stack forgets it rather than delete it.
  const urn = `urn:pulumi:${t.stack.name}::secretops-import::secretops:index:AppConnection::imported-pg`;
  runSync(path.join(pulumiBinDir(), "pulumi"), ["state", "delete", urn, "--yes", "--stack", t.stack.name], {
    cwd: programDir,
    env: { ...process.env, ...t.envVars },
    timeoutMs: TIMEOUTS.install,
  });
});
