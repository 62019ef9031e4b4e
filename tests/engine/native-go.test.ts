import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { startEmulator } from "../../emulator";
import { changeCounts, cliStackExport, createTestStack, repoRoot, type TestStack } from "./harness";
import { languagesBinDir, nativeEnv, pluginBinDir } from "./native";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * examples/go on the Go SDK generated from schema.json (`pulumi package gen-sdk --language go`),
 * its modules from the Go module proxy (as scripts/ensure-pulumi.sh builds the engine): the
 * program compiles under the engine's Go host, previews the sync and the profile through the
 * native provider, makes them, changes one in place and destroys them, each checked at the
 * service. A Go program sees the typed args at compile time.
 */
jest.setTimeout(20 * 60_000);

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let plugin: ReturnType<typeof pluginBinDir>;
let work: string;
let program: string;

/** Go's settings as scripts/ensure-pulumi.sh sets them: the module proxy, no toolchain download. */
function goEnv(): Record<string, string> {
  const proxy = runSync("go", ["env", "GOPROXY"], { timeoutMs: TIMEOUTS.quick })
    .split(/[,|]/)
    .map((p) => p.trim())
    .find((p) => p && p !== "direct" && p !== "off");
  return { GOPROXY: proxy ?? "https://proxy.golang.org", GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
}

const run = (file: string, args: string[], cwd?: string) =>
  runSync(file, args, {
    cwd,
    timeoutMs: TIMEOUTS.build,
    env: {
      ...process.env,
      ...goEnv(),
      PATH: [languagesBinDir(), process.env.PATH].join(path.delimiter),
      PULUMI_HOME: path.join(work, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
    },
  });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  plugin = pluginBinDir();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-go-"));
  program = path.join(work, "program");
  fs.mkdirSync(program);
  for (const file of ["Pulumi.yaml", "go.mod", "main.go"]) {
    fs.copyFileSync(path.join(repoRoot, "examples", "go", file), path.join(program, file));
  }
  // The SDK where the example's go.mod points (./sdk), a module of its own.
  const sdk = path.join(program, "sdk");
  run(path.join(languagesBinDir(), "pulumi"), [
    "package",
    "gen-sdk",
    path.join(repoRoot, "schema.json"),
    "--language",
    "go",
    "-o",
    sdk,
  ]);
  fs.writeFileSync(
    path.join(sdk, "go.mod"),
    "module github.com/secretops/secretops-pulumi/sdk\n\ngo 1.25.11\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.259.0\n",
  );
  run("go", ["mod", "tidy"], sdk);
  run("go", ["mod", "tidy"], program);
});

afterAll(async () => {
  plugin?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  await emulator?.stop();
});

test("the generated Go SDK types each kind's object (the program compiles against them)", () => {
  const types = fs
    .readdirSync(path.join(program, "sdk", "go", "secretops"))
    .filter((f) => f.startsWith("pulumiTypes"))
    .map((f) => fs.readFileSync(path.join(program, "sdk", "go", "secretops", f), "utf8"))
    .join("\n");
  expect(types).toContain("type SecretSyncVercelDestinationConfigArgs struct");
  expect(types).toContain("type AppConnectionPostgresUsernameAndPasswordCredentialsArgs struct");
  run("go", ["vet", "."], program);
});

const RESOURCES = 9;
const CANARY_API_KEY = "canary-go-api-key-6d01f3";
const CANARY_VERCEL_TOKEN = "canary-go-vercel-token-b27e90";

describe("examples/go under the engine", () => {
  let t: TestStack;
  let client: SecretOpsClient;
  let ids: Record<string, string>;

  beforeAll(async () => {
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    t = await createTestStack({
      program,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops-go:apiKey": { value: CANARY_API_KEY, secret: true },
        "secretops-go:vercelToken": { value: CANARY_VERCEL_TOKEN, secret: true },
      },
      env: { ...nativeEnv(plugin.dir), ...goEnv() },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false });
  });

  test("compiles and previews the tree, the sync and the profile", async () => {
    const preview = await t.stack.preview();
    // Two projects, a folder, a secret, a connection, a sync, a CA, a policy, a profile, and the stack.
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: RESOURCES + 1, update: 0, replace: 0 });
    expect(preview.stdout).toContain("secretops:index:SecretSync");
    expect(preview.stdout).toContain("secretops:index:CertificateProfile");
  });

  test("up makes every object, and a second preview shows no change", async () => {
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(RESOURCES + 1);
    ids = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)]));
    expect(await client.secrets.getById(ids.secretId!)).toMatchObject({
      secretPath: "/app",
      secretValue: CANARY_API_KEY,
    });
    expect((await client.secretSyncs.get("vercel", ids.syncId!)).projectId).toBe(ids.projectId);
    expect((await client.certificateProfiles.get(ids.profileId!)).apiConfig).toMatchObject({ renewBeforeDays: 14 });
    await t.stack.preview({ expectNoChanges: true });
    const exported = await cliStackExport(t);
    for (const canary of [CANARY_API_KEY, CANARY_VERCEL_TOKEN]) expect(exported).not.toContain(canary);
  });

  test("an edit of the program is an update in place", async () => {
    const main = path.join(program, "main.go");
    fs.writeFileSync(
      main,
      fs.readFileSync(main, "utf8").replace("RenewBeforeDays: pulumi.Int(14)", "RenewBeforeDays: pulumi.Int(21)"),
    );
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
    expect(String(up.outputs.profileId!.value)).toBe(ids.profileId);
    expect((await client.certificateProfiles.get(ids.profileId!)).apiConfig).toMatchObject({ renewBeforeDays: 21 });
  });

  test("destroy removes every object", async () => {
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(RESOURCES + 1);
    await expect(client.secretSyncs.get("vercel", ids.syncId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.certificateProfiles.get(ids.profileId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.secrets.getById(ids.secretId!)).rejects.toMatchObject({ status: 404 });
    await expect(client.projects.get(ids.projectId!)).rejects.toMatchObject({ status: 404 });
  });
});
