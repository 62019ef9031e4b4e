import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, cliStackExport, createTestStack, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * Who may read what, through the engine (issue 47), on a licensed emulator (custom roles need the
 * RBAC feature). tests/engine/programs/project-access makes a project with secrets in dev and prod,
 * a CI identity with universal auth and a client secret, and a custom role reading secrets in prod
 * under /app/** only, assigned to the identity. Logged in with the client id and secret from the
 * stack's outputs, the identity reads prod:/app/web and nothing else; widening the role to dev opens
 * dev. A role with conditions previews no change after `up`; a refresh reads each family once; a
 * renamed role keeps its membership; a duplicate membership and a built-in slug are refused at
 * preview; preview needs no credentials; what is deleted out of band is found gone.
 */
jest.setTimeout(20 * 60_000);

let emulator: Emulator;
let admin: EmulatorAdmin;
let client: SecretOpsClient;
let t: TestStack;

const baseConfig = (e: Emulator, slug: string) => ({
  "secretops:apiUrl": { value: e.url },
  "secretops:token": { value: e.token, secret: true },
  "project-access:organizationId": { value: e.summary.orgId },
  "project-access:projectSlug": { value: slug },
});

interface Outputs {
  outProjectId: string;
  identityId: string;
  clientId: string;
  clientSecret: string;
  roleId: string;
  membershipId: string;
}
async function outputs(): Promise<Outputs> {
  const o = await t.stack.outputs();
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.value])) as unknown as Outputs;
}

/** The CI identity's own client, logged in with universal auth from the stack's outputs. */
async function asIdentity(): Promise<SecretOpsClient> {
  const o = await outputs();
  const c = new SecretOpsClient(
    { baseUrl: emulator.url, universalAuth: { clientId: o.clientId, clientSecret: o.clientSecret } },
    { rateLimit: false },
  );
  await c.login();
  return c;
}

/** The status a read or write answers: 200, or the error's status. */
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: { status?: number }) => e.status ?? -1,
  );

const place = async (environment: string, secretPath: string) => ({
  projectId: (await outputs()).outProjectId,
  environment,
  secretPath,
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, plan: "licensed" });
  admin = new EmulatorAdmin(emulator.url);
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  t = await createTestStack({ program: "project-access", config: baseConfig(emulator, "access-app") });
});

afterAll(async () => {
  await t?.dispose({ destroy: false });
  await emulator?.stop();
});

test("previews every new class without credentials, making no API call", async () => {
  const bare = await createTestStack({
    program: "project-access",
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "project-access:organizationId": { value: emulator.summary.orgId },
    },
  });
  try {
    await admin.clearRequests();
    const preview = await bare.stack.preview();
    for (const name of ["ci-reader", "auditor", "ci-member", "deployer-member"]) expect(preview.stdout).toContain(name);
    expect(changeCounts(preview.changeSummary).create).toBeGreaterThanOrEqual(20);
    expect((await admin.requests()).filter((r) => r.path.startsWith("/api/"))).toEqual([]);
  } finally {
    await bare.dispose({ destroy: false });
  }
});

test("the CI identity reads prod:/app/web and nothing else; a role with conditions previews no change", async () => {
  const up = await t.stack.up();
  expect(up.summary.result).toBe("succeeded");
  await t.stack.preview({ expectNoChanges: true });

  const ci = await asIdentity();
  const prodWeb = await place("prod", "/app/web");
  expect((await ci.secrets.get("DB_URL", prodWeb)).secretValue).toBe("postgres://prod.db.internal/app");
  // It may not write there, nor read dev, nor read prod outside /app.
  expect(await statusOf(ci.secrets.create("NEW_KEY", { ...prodWeb, secretValue: "x" }))).toBe(403);
  expect(await statusOf(ci.secrets.get("DB_URL", await place("dev", "/app/web")))).toBe(403);
  expect(await statusOf(ci.secrets.get("TOKEN", await place("prod", "/other")))).toBe(403);
  // The refusal is the service's body.
  const refusal = await ci.secrets.get("TOKEN", await place("prod", "/other")).catch((e: unknown) => e);
  expect(JSON.stringify(refusal)).toContain("PermissionDenied");
  // Nothing the identity tried was written.
  await expect(client.secrets.get("NEW_KEY", prodWeb)).rejects.toMatchObject({ status: 404 });

  // A refresh finds nothing changed, conditions included.
  await t.stack.refresh();
  await t.stack.preview({ expectNoChanges: true });
});

test("a refresh reads the project's roles and memberships with one list call per family", async () => {
  await admin.clearRequests();
  await t.stack.refresh();
  const reads = (await admin.requests()).filter((r) => r.method === "GET");
  const roleReads = reads.filter((r) => /\/roles\b/.test(r.path));
  const membershipReads = reads.filter((r) => /membership/.test(r.path));
  // Two roles and two memberships in the program: one call each.
  expect(roleReads).toHaveLength(1);
  expect(membershipReads).toHaveLength(1);
});

test("widening the role to dev is one update; then a no-change preview, and dev reads", async () => {
  const before = await outputs();
  await t.stack.setConfig("project-access:devAccess", { value: "true" });
  const up = await t.stack.up();
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
  expect((await outputs()).roleId).toBe(before.roleId);
  await t.stack.preview({ expectNoChanges: true });
  const ci = await asIdentity();
  expect((await ci.secrets.get("DB_URL", await place("dev", "/app/web"))).secretValue).toBe(
    "postgres://dev.db.internal/app",
  );
  expect(await statusOf(ci.secrets.get("TOKEN", await place("dev", "/other")))).toBe(403);
});

test("a role renamed while a membership uses it: the membership keeps its access", async () => {
  const before = await outputs();
  await t.stack.setConfig("project-access:roleSlug", { value: "ci-reader-renamed" });
  const up = await t.stack.up();
  expect(up.summary.result).toBe("succeeded");
  const after = await outputs();
  expect(after.membershipId).toBe(before.membershipId);
  await t.stack.preview({ expectNoChanges: true });
  const ci = await asIdentity();
  expect(await statusOf(ci.secrets.get("DB_URL", await place("prod", "/app/web")))).toBe(200);
});

test("two memberships of one identity in one project are refused at preview, naming both", async () => {
  await t.stack.setConfig("project-access:duplicateMembership", { value: "true" });
  try {
    const failed = await t.stack.preview().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toContain("ci-member");
    expect(failed).toContain("ci-member-again");
  } finally {
    await t.stack.removeConfig("project-access:duplicateMembership");
  }
});

test("a built-in role's slug is refused at preview, naming the field", async () => {
  await t.stack.setConfig("project-access:roleSlug", { value: "admin" });
  try {
    await admin.clearRequests();
    const failed = await t.stack.preview().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/slug: .*admin/);
    expect((await admin.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  } finally {
    await t.stack.setConfig("project-access:roleSlug", { value: "ci-reader-renamed" });
  }
  await t.stack.preview({ expectNoChanges: true });
});

test("a membership whose identity is deleted out of band: refresh finds it gone; destroy succeeds", async () => {
  const o = await outputs();
  await client.identities.delete(o.identityId);
  await t.stack.refresh();
  const exported = JSON.parse(await cliStackExport(t)) as {
    deployment: { resources?: { type: string; urn: string }[] };
  };
  const left = (exported.deployment.resources ?? []).map((r) => r.urn);
  expect(left.some((u) => u.endsWith("::ci-member"))).toBe(false);
  expect(left.some((u) => u.endsWith("::deployer-member"))).toBe(true);
  const destroy = await t.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  await expect(client.projects.get(o.outProjectId)).rejects.toMatchObject({ status: 404 });
});

test("a membership whose project is deleted out of band: destroy without a refresh takes each 404 as done", async () => {
  await t.stack.removeConfig("project-access:roleSlug");
  await t.stack.up();
  const o = await outputs();
  await client.projects.delete(o.outProjectId);
  const destroy = await t.stack.destroy();
  expect(destroy.summary.result).toBe("succeeded");
  // The identities, which the project did not hold, are gone by the destroy too.
  await expect(client.identities.get(o.identityId)).rejects.toMatchObject({ status: 404 });
});

test("on the unlicensed plan, a custom role and its assignment fail the up with the service's words, naming each resource", async () => {
  const unlicensed = await startEmulator({ port: 0, rateLimits: false });
  const u = await createTestStack({
    program: "project-access",
    // The membership names the role by its slug, so both are tried in the one up.
    config: { ...baseConfig(unlicensed, "access-unlicensed"), "project-access:memberRole": { value: "ci-reader" } },
  });
  try {
    // The engine starts no new step after a failure unless told to go on: both are tried.
    const failed = await u.stack.up({ continueOnError: true }).then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toContain("ci-member");
    expect(failed).toContain(
      "roles: Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.",
    );
    expect(failed).toContain("ci-reader");
    expect(failed).toContain("Failed to create custom role due to plan RBAC restriction");
    // The membership with a built-in role is made: only the custom role is refused.
    const c = new SecretOpsClient({ baseUrl: unlicensed.url, token: unlicensed.token }, { rateLimit: false });
    const project = await c.projects.getBySlug("access-unlicensed");
    const members = await c.identityMemberships.list(project.id);
    expect(members.map((m) => m.identity?.name).sort()).toEqual(expect.arrayContaining(["deployer"]));
    expect(members.map((m) => m.identity?.name)).not.toContain("ci");
  } finally {
    await u.dispose({ destroy: true });
    await unlicensed.stop();
  }
});
