import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { certificateAuthorityDefinition } from "../../provider/certificate-authority";
import { certificatePolicyDefinition } from "../../provider/certificate-policy";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { projectEnvironmentDefinition } from "../../provider/project-environment";
import { secretDefinition } from "../../provider/secret";
import { secretFolderDefinition } from "../../provider/secret-folder";
import { nativeProvider } from "../../provider/native-provider";
import { UNKNOWN } from "../../provider/values";

/**
 * Duplicates at the first preview (issue 45): a key part not known yet (a folder's `secretPath`
 * on a new stack) stands in the `uniqueIn` key as the Output it comes from, which the resource
 * class registers beside the args (`__outputOrigins`, provider/program-side.ts). Two resources
 * given one Output are refused at preview, naming both; two different Outputs never are.
 */

type Args = Record<string, unknown>;

describe("the resource classes register each Output arg's origin beside the args", () => {
  // Under Pulumi's mocks in a process of its own (the SDK's closure serialization cannot run in jest).
  const program = path.join(__dirname, "programs", "output-origins.js");
  const run = (): Record<string, Record<string, string> | null> => {
    const { stdout } = spawnSync(process.execPath, [program], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    return JSON.parse(stdout.trim().split("\n")[0]!) as Record<string, Record<string, string> | null>;
  };

  it("gives one Output read twice one token, a new Output another, and literals none", () => {
    const o = run();
    const [a, b, c] = [o.a!, o.b!, o.c!];
    expect(Object.keys(a).sort()).toEqual(["projectId", "secretPath"]);
    expect(b).toEqual(a);
    expect(c.projectId).toBe(a.projectId);
    expect(c.secretPath).not.toBe(a.secretPath);
    // The folder's projectId is the project's id: the same Output as the secrets'.
    expect(o.db).toEqual({ projectId: a.projectId });
    expect(o.d).toBeNull();
    expect(o.app).toBeNull();
  });
});

/** Runs `check` as the engine does at preview: each resource with its name and its origins. */
function checker(provider: ReturnType<typeof dynamicProvider>) {
  return async (name: string, args: Args, origins: Record<string, string> = {}) => {
    const result = await provider.check!({}, { ...args, __resourceName: name, __outputOrigins: origins });
    return { failures: result.failures ?? [], inputs: result.inputs };
  };
}

describe("check refuses two resources whose key comes from one Output, naming both", () => {
  const secret = checker(dynamicProvider(secretDefinition));
  const inFolder = { projectId: UNKNOWN, environment: "dev", secretPath: UNKNOWN, secretValue: "v" };
  const fromFolder = { projectId: "1", secretPath: "2" };

  it("Secret: one key in one declared folder, at preview", async () => {
    const first = await secret("dup-a", { ...inFolder, secretName: "API_KEY" }, fromFolder);
    expect(first.failures).toEqual([]);
    // The origins are never stored, nor sent: they are not in the inputs.
    expect(first.inputs).not.toHaveProperty("__outputOrigins");
    expect(first.inputs).not.toHaveProperty("__resourceName");
    expect((await secret("dup-b", { ...inFolder, secretName: "API_KEY" }, fromFolder)).failures).toEqual([
      {
        property: "",
        reason:
          'secretName: Secret "dup-b" and Secret "dup-a" of this program both declare this secretName in one folder, which holds one; give one of them another secretName',
      },
    ]);
  });

  it("Secret: another key, another folder's Output, or a literal path is no refusal", async () => {
    await secret("keys-a", { ...inFolder, secretName: "ONE" }, { projectId: "11", secretPath: "12" });
    expect(
      (await secret("keys-b", { ...inFolder, secretName: "TWO" }, { projectId: "11", secretPath: "12" })).failures,
    ).toEqual([]);
    // Two Outputs may resolve to one path: never refused at preview (up checks the values).
    expect(
      (await secret("keys-c", { ...inFolder, secretName: "ONE" }, { projectId: "11", secretPath: "13" })).failures,
    ).toEqual([]);
    // A literal path beside an unknown one: unknown whether they are the same.
    expect(
      (await secret("keys-d", { ...inFolder, secretPath: "/db", secretName: "ONE" }, { projectId: "11" })).failures,
    ).toEqual([]);
    // An unknown part with no origin (the native plugin's checks): no key.
    expect((await secret("keys-e", { ...inFolder, secretName: "ONE" })).failures).toEqual([]);
    expect((await secret("keys-f", { ...inFolder, secretName: "ONE" })).failures).toEqual([]);
  });

  it("Secret: at up the values are known, and the known key still clashes whatever the origins", async () => {
    const known = { projectId: "p-up", environment: "dev", secretPath: "/db", secretValue: "v", secretName: "K" };
    expect((await secret("up-a", known, { projectId: "21", secretPath: "22" })).failures).toEqual([]);
    expect((await secret("up-b", known, { projectId: "23", secretPath: "24" })).failures).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(/^secretName: Secret "up-b" and Secret "up-a" of this program/),
      }),
    ]);
  });

  it("SecretFolder: one name under one parent folder's Output", async () => {
    const folder = checker(dynamicProvider(secretFolderDefinition));
    const under = { projectId: UNKNOWN, environment: UNKNOWN, path: UNKNOWN, name: "db" };
    const origins = { projectId: "31", environment: "32", path: "33" };
    expect((await folder("db-a", under, origins)).failures).toEqual([]);
    expect((await folder("db-b", under, origins)).failures).toEqual([
      {
        property: "",
        reason:
          'name: SecretFolder "db-b" and SecretFolder "db-a" of this program both declare this name in one parent path, which holds one; give one of them another name',
      },
    ]);
    // The default parent `/` beside an unknown one: no refusal.
    expect(
      (await folder("db-c", { ...under, path: undefined }, { projectId: "31", environment: "32" })).failures,
    ).toEqual([]);
  });

  it("ProjectEnvironment: one slug in one project's id", async () => {
    const environment = checker(dynamicProvider(projectEnvironmentDefinition));
    const env = { projectId: UNKNOWN, name: "Staging", slug: "staging" };
    expect((await environment("stg-a", env, { projectId: "41" })).failures).toEqual([]);
    expect((await environment("stg-b", env, { projectId: "41" })).failures).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /^slug: ProjectEnvironment "stg-b" and ProjectEnvironment "stg-a" of this program both declare this slug in one project/,
        ),
      }),
    ]);
    expect((await environment("stg-c", env, { projectId: "42" })).failures).toEqual([]);
  });

  it("CertificatePolicy and CertificateAuthority: one name in one project's id", async () => {
    const policy = checker(dynamicProvider(certificatePolicyDefinition));
    const p = { projectId: UNKNOWN, name: "web", validity: { max: "30d" } };
    expect((await policy("pol-a", p, { projectId: "51" })).failures).toEqual([]);
    expect((await policy("pol-b", p, { projectId: "51" })).failures).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /^name: CertificatePolicy "pol-b" and CertificatePolicy "pol-a" of this program both declare this name in one project/,
        ),
      }),
    ]);
    const ca = checker(dynamicProvider(certificateAuthorityDefinition));
    const root = {
      projectId: UNKNOWN,
      name: "root",
      configuration: { type: "root", commonName: "Root", notAfter: "2036-01-01T00:00:00Z" },
    };
    expect((await ca("ca-a", root, { projectId: "52" })).failures).toEqual([]);
    expect((await ca("ca-b", root, { projectId: "52" })).failures).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /^name: CertificateAuthority "ca-b" and CertificateAuthority "ca-a" of this program both declare this name in one project/,
        ),
      }),
    ]);
  });
});

describe("the native plugin's check: the engine sends values only", () => {
  // provider/native-provider.ts: the engine's Check carries no dependencies, so an unknown value
  // has no origin there; a key is known at preview only when all its parts are.
  const provider = nativeProvider();
  const urn = (name: string) => `urn:pulumi:dev::proj::secretops:index:Secret::${name}`;
  const check = async (name: string, args: Args) => (await provider.check!(urn(name), {}, args)).failures ?? [];
  const secretArgs = { projectId: "p-native", environment: "dev", secretName: "API_KEY", secretValue: "v" };

  it("refuses a duplicate whose key is known at preview, naming both", async () => {
    expect(await check("native-a", { ...secretArgs, secretPath: "/backend" })).toEqual([]);
    expect(await check("native-b", { ...secretArgs, secretPath: "/backend" })).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(
          /^secretName: Secret "native-b" and Secret "native-a" of this program both declare/,
        ),
      }),
    ]);
  });

  it("cannot tell two unknown paths apart from one: no refusal at preview", async () => {
    expect(await check("native-c", { ...secretArgs, secretPath: UNKNOWN })).toEqual([]);
    expect(await check("native-d", { ...secretArgs, secretPath: UNKNOWN })).toEqual([]);
  });
});
