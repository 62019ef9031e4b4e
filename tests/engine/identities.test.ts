import * as fs from "node:fs";
import * as path from "node:path";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * Machine identities through the engine (issue 46): an identity, its universal auth and a client
 * secret, made by a TypeScript program (tests/engine/programs/identities). The client id and secret
 * from the stack's outputs log in; the secret is in no state file, export, or output of `up` and
 * `preview` but encrypted; a refresh and a no-change `up` keep it; a new description replaces it
 * and revokes the old one; a rename is one PATCH; a gated trusted IP fails naming its field; an
 * identity deleted out of band is found gone, and destroy succeeds; preview needs no credentials.
 */
jest.setTimeout(15 * 60_000);

let emulator: Emulator;
let admin: EmulatorAdmin;
let client: SecretOpsClient;
let t: TestStack;
const surfaces: string[] = [];

const baseConfig = () => ({
  "secretops:apiUrl": { value: emulator.url },
  "secretops:token": { value: emulator.token, secret: true },
  "identities:organizationId": { value: emulator.summary.orgId },
});

interface Outputs {
  identityId: string;
  clientId: string;
  clientSecretId: string;
  clientSecret: string;
}
async function outputs(): Promise<Outputs> {
  const o = await t.stack.outputs();
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.value])) as unknown as Outputs;
}

/** A login with universal auth, as a consumer of the outputs would. */
const login = (clientId: string, clientSecret: string) =>
  new SecretOpsClient(
    { baseUrl: emulator.url, universalAuth: { clientId, clientSecret } },
    { rateLimit: false },
  ).login();

/** Every file of the stack's backend: its state, history and backups. */
function stateFiles(): string[] {
  return fs
    .readdirSync(t.stateDir, { recursive: true, encoding: "utf8" })
    .map((f) => path.join(t.stateDir, f))
    .filter((p) => fs.statSync(p).isFile())
    .map((p) => fs.readFileSync(p, "utf8"));
}

/** The secret's value appears nowhere but encrypted. */
async function expectNowhere(value: string): Promise<void> {
  expect(value).toMatch(/^[0-9a-f]{64}$/);
  const exported = await cliStackExport(t);
  expect(exported).toContain("IdentityClientSecret");
  for (const surface of [exported, ...stateFiles(), ...surfaces]) expect(surface).not.toContain(value);
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  admin = new EmulatorAdmin(emulator.url);
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  t = await createTestStack({ program: "identities", config: baseConfig() });
});

afterAll(async () => {
  await t?.dispose({ destroy: false });
  await emulator?.stop();
});

test("previews the three classes without credentials, making no API call", async () => {
  const bare = await createTestStack({
    program: "identities",
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "identities:organizationId": { value: emulator.summary.orgId },
    },
  });
  try {
    await admin.clearRequests();
    const preview = await bare.stack.preview();
    expect(preview.changeSummary).toEqual({ create: 4 });
    expect((await admin.requests()).filter((r) => r.path.startsWith("/api/"))).toEqual([]);
  } finally {
    await bare.dispose({ destroy: false });
  }
});

test("up makes the identity, its universal auth and a client secret that logs in", async () => {
  const up = await t.stack.up();
  surfaces.push(up.stdout, up.stderr);
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 4 });
  expect(up.outputs.clientSecret!.secret).toBe(true);
  const o = await outputs();
  expect(await client.identities.get(o.identityId)).toMatchObject({ name: "ci", role: "member" });
  expect((await client.identityAuths.get("universal-auth", o.identityId)).clientId).toBe(o.clientId);
  await expect(login(o.clientId, o.clientSecret)).resolves.toBeDefined();
  const preview = await t.stack.preview({ expectNoChanges: true });
  surfaces.push(preview.stdout, preview.stderr);
  await expectNowhere(o.clientSecret);
});

test("a refresh and a no-change up keep the client secret", async () => {
  const before = await outputs();
  const refresh = await t.stack.refresh();
  surfaces.push(refresh.stdout, refresh.stderr);
  expect((await outputs()).clientSecret).toBe(before.clientSecret);
  const preview = await t.stack.preview({ expectNoChanges: true });
  surfaces.push(preview.stdout);
  const up = await t.stack.up();
  surfaces.push(up.stdout, up.stderr);
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  const after = await outputs();
  expect(after.clientSecret).toBe(before.clientSecret);
  await expect(login(after.clientId, after.clientSecret)).resolves.toBeDefined();
  await expectNowhere(after.clientSecret);
});

test("a rename of the identity is one PATCH: same id, same client id", async () => {
  const before = await outputs();
  await t.stack.setConfig("identities:identityName", { value: "ci-renamed" });
  await admin.clearRequests();
  const up = await t.stack.up();
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
  const writes = (await admin.requests()).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"));
  expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /api/v1/identities/${before.identityId}`]);
  const after = await outputs();
  expect([after.identityId, after.clientId, after.clientSecretId]).toEqual([
    before.identityId,
    before.clientId,
    before.clientSecretId,
  ]);
  expect((await client.identities.get(after.identityId)).name).toBe("ci-renamed");
});

test("a new description replaces the client secret and revokes the old one", async () => {
  const before = await outputs();
  await t.stack.setConfig("identities:secretDescription", { value: "ci, rotated" });
  const up = await t.stack.up();
  surfaces.push(up.stdout, up.stderr);
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ replace: 1, update: 0 });
  const after = await outputs();
  expect(after.clientSecretId).not.toBe(before.clientSecretId);
  expect(after.clientSecret).not.toBe(before.clientSecret);
  const old = await client.identityAuths
    .getClientSecret(before.identityId, before.clientSecretId)
    .catch((e: { status?: number }) => (e.status === 404 ? undefined : Promise.reject(e)));
  if (old) expect(old.isClientSecretRevoked).toBe(true);
  await expect(login(before.clientId, before.clientSecret)).rejects.toMatchObject({ status: 401 });
  await expect(login(after.clientId, after.clientSecret)).resolves.toBeDefined();
  await expectNowhere(after.clientSecret);
  await expectNowhere(before.clientSecret);
});

test("a trusted IP the unlicensed plan refuses fails the up, naming the field, with the service's words", async () => {
  await t.stack.setConfig("identities:trustedIp", { value: "10.0.0.0/8" });
  const failed = await t.stack.up().then(
    () => undefined,
    (e: Error) => e.message,
  );
  expect(failed).toContain(
    "accessTokenTrustedIps: Failed to add IP access range to service token due to plan restriction. Upgrade plan to add IP access range.",
  );
  await t.stack.removeConfig("identities:trustedIp");
  const preview = await t.stack.preview({ expectNoChanges: true });
  expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
});

test("destroy revokes everything: the client secret no longer logs in", async () => {
  const o = await outputs();
  const destroy = await t.stack.destroy();
  expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(4);
  await expect(client.identities.get(o.identityId)).rejects.toMatchObject({ status: 404 });
  await expect(login(o.clientId, o.clientSecret)).rejects.toMatchObject({ status: 401 });
});

test("an identity deleted out of band: refresh finds it and its login and secret gone, destroy succeeds", async () => {
  await t.stack.up();
  const o = await outputs();
  await client.identities.delete(o.identityId);
  await t.stack.refresh();
  const exported = JSON.parse(await cliStackExport(t)) as { deployment: { resources?: { type: string }[] } };
  expect((exported.deployment.resources ?? []).map((r) => r.type).filter((x) => x.includes("secretops"))).toEqual([]);
  const destroy = await t.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
});

test("an identity deleted out of band: destroy without a refresh takes each 404 as done", async () => {
  await t.stack.up();
  const o = await outputs();
  await client.identities.delete(o.identityId);
  const destroy = await t.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(4);
});
