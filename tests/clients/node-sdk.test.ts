import * as path from "node:path";
import { InfisicalSDK } from "@infisical/sdk";
import { TIMEOUTS, runAsync } from "../../scripts/run-sync";
import { changeCounts, createTestStack, type TestStack } from "../engine/harness";
import { FIXTURE_LOGIN, upClientsTree, type ClientsTree, type ClientsTreeOutputs } from "./clients-tree";

/**
 * The vendor's Node client (`@infisical/sdk`, pinned in package.json) against the emulator, as a
 * user runs it (issue 48): a program made through this package builds a project, a folder /app in
 * dev with two secrets and a machine identity with universal auth, a member of the project. The
 * client logs in as that identity (and as the fixture's identity, which has universal auth too),
 * reads what the program wrote, and writes: what it writes, `pulumi refresh` finds as drift.
 * The routes it calls are listed in docs/emulator.md ("Clients tested against the emulator").
 */
jest.setTimeout(15 * 60_000);

let emulator: ClientsTree["emulator"];
let t: TestStack;
let out: ClientsTreeOutputs;

const login = (creds: { clientId: string; clientSecret: string }) =>
  new InfisicalSDK({ siteUrl: emulator.url }).auth().universalAuth.login(creds);

beforeAll(async () => {
  ({ emulator, t, out } = await upClientsTree("node-sdk"));
});
afterAll(async () => {
  await t?.dispose();
  await emulator?.stop();
});

describe.each([
  ["the identity the program made", () => ({ clientId: out.clientId, clientSecret: out.clientSecret })],
  ["the fixture's identity", () => FIXTURE_LOGIN],
])("@infisical/sdk logged in as %s", (_name, creds) => {
  it("lists and gets what the program wrote", async () => {
    const sdk = await login(creds());
    expect(sdk.auth().getAccessToken()).toEqual(expect.any(String));
    const where = { projectId: out.projectId, environment: out.environment, secretPath: out.secretPath };
    const list = await sdk.secrets().listSecrets(where);
    expect(Object.fromEntries(list.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
      DB_URL: "postgres://db.internal/app",
      API_KEY: "key-one",
    });
    const one = await sdk.secrets().getSecret({ ...where, secretName: "DB_URL" });
    expect(one).toMatchObject({ secretKey: "DB_URL", secretValue: "postgres://db.internal/app", type: "shared" });
  });
  it("lists the folder the program made", async () => {
    const sdk = await login(creds());
    const folders = await sdk
      .folders()
      .listFolders({ projectId: out.projectId, environment: out.environment, path: "/" });
    expect(folders.map((f) => f.name)).toContain("app");
  });
});

describe("what @infisical/sdk writes, a refresh finds", () => {
  it("creates, updates and deletes secrets; refresh shows the drift", async () => {
    const sdk = await login({ clientId: out.clientId, clientSecret: out.clientSecret });
    const where = { projectId: out.projectId, environment: out.environment, secretPath: out.secretPath };
    const created = await sdk.secrets().createSecret("FROM_SDK", { ...where, secretValue: "sdk-value" });
    expect(created.secret).toMatchObject({ secretKey: "FROM_SDK", secretValue: "sdk-value" });
    const updated = await sdk.secrets().updateSecret("API_KEY", { ...where, secretValue: "key-from-sdk" });
    expect(updated.secret).toMatchObject({ secretKey: "API_KEY", secretValue: "key-from-sdk" });
    await sdk.secrets().deleteSecret("DB_URL", where);

    const list = await sdk.secrets().listSecrets(where);
    expect(Object.fromEntries(list.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
      API_KEY: "key-from-sdk",
      FROM_SDK: "sdk-value",
    });
    await expect(sdk.secrets().getSecret({ ...where, secretName: "DB_URL" })).rejects.toThrow(/404/);

    // The refresh reads the changed value (an update) and the deleted secret (gone from state);
    // the preview after it puts both back.
    const refresh = await t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges)).toMatchObject({ update: 1, delete: 1 });
    const preview = await t.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ update: 1, create: 1 });
    await t.stack.up();
    const after = await sdk.secrets().listSecrets(where);
    expect(Object.fromEntries(after.secrets.map((s) => [s.secretKey, s.secretValue]))).toEqual({
      API_KEY: "key-one",
      DB_URL: "postgres://db.internal/app",
      FROM_SDK: "sdk-value",
    });
  });

  // 5.0.2 has no folder update or delete: create and list are all it calls.
  it("creates a folder the program then lists beside its own", async () => {
    const sdk = await login({ clientId: out.clientId, clientSecret: out.clientSecret });
    const folder = await sdk.folders().create({
      projectId: out.projectId,
      environment: out.environment,
      path: "/",
      name: "made-by-sdk",
    });
    expect(folder).toMatchObject({ name: "made-by-sdk" });
    const folders = await sdk
      .folders()
      .listFolders({ projectId: out.projectId, environment: out.environment, path: "/" });
    expect(folders.map((f) => f.name).sort()).toEqual(["app", "made-by-sdk"]);
  });
});

describe("examples/app-reads-secrets", () => {
  it("the app logs in with the stack's outputs and reads its secret through @infisical/sdk", async () => {
    const dir = path.join(__dirname, "..", "..", "examples", "app-reads-secrets");
    const example = await createTestStack({
      program: dir,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops-app-reads-secrets:projectSlug": { value: `app-reads-${process.pid}` },
      },
    });
    try {
      await example.stack.up();
      const outputs = Object.fromEntries(Object.entries(await example.stack.outputs()).map(([k, v]) => [k, v.value]));
      // The README's second command: the outputs as `pulumi stack output --json --show-secrets` prints them.
      const printed = await runAsync(process.execPath, [path.join(dir, "app.mjs")], {
        timeoutMs: TIMEOUTS.quick,
        env: { PATH: process.env.PATH ?? "", SITE_URL: emulator.url, STACK_OUTPUTS: JSON.stringify(outputs) },
        cwd: dir,
      });
      expect(printed.trim()).toBe("DATABASE_URL has 26 characters");
    } finally {
      await example.dispose();
    }
  });
});
