import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { changeCounts, createTestStack, repoRoot, type TestStack } from "./harness";
import { languagesBinDir, nativeEnv, pluginBinDir } from "./native";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * examples/go on the Go SDK generated from schema.json (`pulumi package gen-sdk --language go`),
 * its modules from the Go module proxy (as scripts/ensure-pulumi.sh builds the engine): the
 * program compiles under the engine's Go host and its preview, through the native provider,
 * plans the sync and the profile. A Go program sees the typed args at compile time.
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
    "module github.com/secretops/secretops-pulumi/sdk\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 v3.259.0\n",
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

test("examples/go compiles under the engine and previews the sync and the profile", async () => {
  let t: TestStack | undefined;
  try {
    t = await createTestStack({
      program,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
      },
      env: { ...nativeEnv(plugin.dir), ...goEnv() },
    });
    const preview = await t.stack.preview();
    // The two resources, and the stack.
    expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 3, update: 0, replace: 0, delete: 0 });
    expect(preview.stdout).toContain("secretops:index:SecretSync");
    expect(preview.stdout).toContain("secretops:index:CertificateProfile");
  } finally {
    await t?.dispose();
  }
});
