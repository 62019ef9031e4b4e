import * as fs from "node:fs";
import * as path from "node:path";
import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * An imported secret is never blanked, nor written again (issue 45), in TypeScript: a secret made
 * outside the program is taken over as `secretops import` declares it (`adoptExisting`), first
 * without its value, then with the value the service holds. Each `up` leaves the secret's version
 * at the service as it was; each preview after shows no change; the value (a canary) appears in
 * no state or output. Python's `pulumi import` of a secret: tests/engine/native-python.test.ts.
 */
jest.setTimeout(10 * 60_000);

const CANARY = "canary-imported-secret-value-2f81c4";
const PROJECT = "10000000-0000-4000-8000-000000000001";
const place = { projectId: PROJECT, environment: "staging", secretPath: "/" };

let emulator: Emulator;
let client: SecretOpsClient;
let t: TestStack;
let made: Awaited<ReturnType<SecretOpsClient["secrets"]["create"]>>;
const versionAtService = async () => (await client.secrets.getById(made.id)).version;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  made = await client.secrets.create("IMPORTED_KEY", { ...place, secretValue: CANARY, secretComment: "made outside" });
  t = await createTestStack({
    program: "adopted-secret",
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      "adopted-secret:projectId": { value: place.projectId },
      "adopted-secret:environment": { value: place.environment },
      "adopted-secret:secretPath": { value: place.secretPath },
      "adopted-secret:secretName": { value: "IMPORTED_KEY" },
      "adopted-secret:secretComment": { value: "made outside" },
    },
  });
});

afterAll(async () => {
  await t?.dispose({ destroy: false });
  await emulator?.stop();
});

test("taken over without its value: the up writes nothing, and the next preview shows no change", async () => {
  const up = await t.stack.up();
  expect(up.outputs.secretId!.value).toBe(made.id);
  // The stack and the secret.
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 2, update: 0, replace: 0 });
  expect(await versionAtService()).toBe(made.version);
  expect((await client.secrets.getById(made.id)).secretValue).toBe(CANARY);
  const preview = await t.stack.preview({ expectNoChanges: true });
  expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
});

test("given the value the service holds: the preview shows no change and the up writes nothing", async () => {
  await t.stack.setConfig("adopted-secret:value", { value: CANARY, secret: true });
  const preview = await t.stack.preview({ expectNoChanges: true });
  expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  const up = await t.stack.up();
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0 });
  expect(await versionAtService()).toBe(made.version);
  for (const surface of [await cliStackExport(t), up.stdout, up.stderr, preview.stdout]) {
    expect(surface).not.toContain(CANARY);
  }
  for (const f of fs.readdirSync(t.stateDir, { recursive: true, encoding: "utf8" })) {
    const p = path.join(t.stateDir, f);
    if (fs.statSync(p).isFile()) expect(fs.readFileSync(p, "utf8")).not.toContain(CANARY);
  }
});

test("destroy then deletes the secret it holds", async () => {
  await t.stack.destroy();
  await expect(client.secrets.getById(made.id)).rejects.toMatchObject({ status: 404 });
});

test("a new secret without a value fails preview naming the field and the rule; adopting nothing fails before any write", async () => {
  await t.stack.setConfig("adopted-secret:secretName", { value: "NEVER_MADE" });
  await t.stack.removeConfig("adopted-secret:value");
  await t.stack.setConfig("adopted-secret:adopt", { value: "false" });
  const refused = (p: Promise<unknown>) =>
    p.then(
      () => "no error",
      (e: Error) => e.message,
    );
  expect(await refused(t.stack.preview())).toContain(
    "secretops:Secret resource 'imported' has a problem: secretValue: is required to create a secret",
  );
  // Adopting, nothing is found to take over: the create refuses in the same words, before any write.
  await t.stack.setConfig("adopted-secret:adopt", { value: "true" });
  expect(await refused(t.stack.up())).toContain("secretValue: is required to create a secret");
  await expect(client.secrets.get("NEVER_MADE", place)).rejects.toMatchObject({ status: 404 });
});
