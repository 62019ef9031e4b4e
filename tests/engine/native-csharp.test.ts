import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { repoRoot } from "./harness";
import { languagesBinDir } from "./native";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

/**
 * The C# SDK generated from schema.json (`pulumi package gen-sdk --language dotnet`), checked for
 * shape only: this machine has no .NET SDK to compile it, and no registry it reaches ships one
 * (scripts/engine/languages.sh builds the dotnet host for code generation only). Java has no
 * language host here at all: its source, github.com/pulumi/pulumi-java/pkg, is refused by the
 * module proxy (scripts/engine/languages.sh).
 */
jest.setTimeout(5 * 60_000);

let sdk: string;
const read = (file: string) => fs.readFileSync(path.join(sdk, file), "utf8");

beforeAll(() => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-native-csharp-"));
  sdk = path.join(out, "dotnet");
  runSync(
    path.join(languagesBinDir(), "pulumi"),
    ["package", "gen-sdk", path.join(repoRoot, "schema.json"), "--language", "dotnet", "-o", out],
    {
      timeoutMs: TIMEOUTS.install,
      env: {
        ...process.env,
        PATH: [languagesBinDir(), process.env.PATH].join(path.delimiter),
        PULUMI_HOME: path.join(out, ".pulumi-home"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
      },
    },
  );
});

afterAll(() => {
  if (sdk) fs.rmSync(path.dirname(sdk), { recursive: true, force: true });
});

test("one class per resource, on its type token", () => {
  for (const cls of [
    "SecretSync",
    "GenericSecretSync",
    "SecretRotation",
    "CertificateProfile",
    "AppConnection",
    "AppConnectionSettings",
  ]) {
    expect(read(`${cls}.cs`)).toContain(`[SecretopsResourceType("secretops:index:${cls}")]`);
  }
  expect(read("GetAuditLogs.cs")).toContain('"secretops:index:getAuditLogs"');
});

test("each kind's object is an args class, and the secret args are secret outputs", () => {
  expect(read(path.join("Inputs", "SecretSyncVercelDestinationConfigArgs.cs"))).toContain(
    "public sealed class SecretSyncVercelDestinationConfigArgs",
  );
  const connection = read("AppConnection.cs");
  expect(connection).toMatch(/AdditionalSecretOutputs =\s*\{\s*"credentials",/);
  expect(connection).toMatch(/ReplaceOnChanges =\s*\{[^}]*"app"/);
});

test("the project carries the package's version", () => {
  const version = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
  const project = fs.readdirSync(sdk).find((f) => f.endsWith(".csproj"))!;
  expect(read(project)).toContain(`<Version>${version}</Version>`);
});
