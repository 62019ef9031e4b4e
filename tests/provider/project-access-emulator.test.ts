import { EmulatorAdmin, startEmulator } from "../../emulator";
import { configure } from "../../provider/config";
import { projectIdentityMembershipDefinition } from "../../provider/project-identity-membership";
import { projectRoleDefinition } from "../../provider/project-role";
import { provider } from "../../provider/provider-process";
import { SecretOpsClient } from "../../sdk";

// ProjectRole and ProjectIdentityMembership through the provider process's steps, against the
// emulator's routes (docs/service-api.md §19): licensed for custom roles, then unlicensed for the
// plan gate. The engine's own test of the same is tests/engine/project-access.test.ts.

type Plain = Record<string, unknown>;
type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** Points the provider process at an emulator, as the engine's `configure` does. */
function pointAt(e: Emulator): SecretOpsClient {
  const settings: Record<string, string> = {
    "secretops:apiUrl": e.url,
    "secretops:token": e.token,
    "secretops:readsPerMinute": "100000",
  };
  configure({ get: (key: string) => settings[key] });
  return new SecretOpsClient({ baseUrl: e.url, token: e.token }, { rateLimit: false });
}

const roles = () => provider("ProjectRole");
const memberships = () => provider("ProjectIdentityMembership");

/** check then create, as `up` does for a new resource; the failures of check fail the test. */
async function made(p: ReturnType<typeof provider>, name: string, args: Plain) {
  const { inputs, failures } = await p.check!({}, { ...args, __resourceName: name });
  expect(failures ?? []).toEqual([]);
  const { id, outs } = await p.create(inputs);
  return { id, outs: outs as Plain, inputs };
}

/** check, diff, and the update when diff asks for one (in place), as `up` does. */
async function changed(p: ReturnType<typeof provider>, name: string, id: string, olds: Plain, args: Plain) {
  const { inputs, failures } = await p.check!(olds, { ...args, __resourceName: name });
  expect(failures ?? []).toEqual([]);
  const diff = await p.diff!(id, olds, inputs);
  if (!diff.changes) return { diff, outs: olds };
  const { outs } = await p.update!(id, olds, inputs);
  return { diff, outs: outs as Plain };
}

const readRule = {
  subject: "secrets",
  action: ["read"],
  conditions: { environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } },
};

describe("project roles and identity memberships against the emulator (licensed)", () => {
  let emulator: Emulator;
  let admin: EmulatorAdmin;
  let client: SecretOpsClient;
  let projectId: string;

  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false, plan: "licensed", admin: true });
    admin = new EmulatorAdmin(emulator.url);
    client = pointAt(emulator);
    projectId = emulator.summary.projects[0]!.id;
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  const identity = (name: string) =>
    client.identities.create({ name, organizationId: emulator.summary.orgId, role: "no-access" });

  it("a role and a membership: made, no change after, a rename followed, one list per family on refresh", async () => {
    const role = await made(roles(), "ci-reader", {
      projectId,
      slug: "ci-reader",
      name: "CI reader",
      permissions: [readRule, { subject: "secret-folders", action: ["read"] }],
    });
    const auditor = await made(roles(), "auditor", {
      projectId,
      slug: "auditor",
      name: "Auditor",
      permissions: [{ subject: "audit-logs", action: ["read"] }],
    });
    expect(role.outs.slug).toBe("ci-reader");
    expect((await client.projectRoles.getBySlug(projectId, "ci-reader")).id).toBe(role.id);

    const ci = await identity("ci");
    const deployer = await identity("deployer");
    const member = await made(memberships(), "ci-member", {
      projectId,
      identityId: ci.id,
      roles: [{ role: "ci-reader" }],
    });
    await made(memberships(), "deployer-member", { projectId, identityId: deployer.id, roles: [{ role: "member" }] });
    expect(member.outs.roles).toEqual([{ role: "ci-reader" }]);
    expect(member.outs.identityName).toBe("ci");

    // The same permissions in another order: no change.
    const same = await changed(roles(), "ci-reader", role.id, role.outs, {
      projectId,
      slug: "ci-reader",
      name: "CI reader",
      permissions: [
        { ...readRule, conditions: { secretPath: { $glob: "/app/**" }, environment: { $eq: "prod" } } },
        { subject: "secret-folders", action: ["read"], inverted: false },
      ],
    });
    expect(same.diff.changes).toBe(false);

    // A refresh of the four: one list of roles and one of memberships, nothing read one by one.
    await admin.clearRequests();
    const refreshed = await Promise.all([
      roles().read!(role.id, role.outs),
      roles().read!(auditor.id, auditor.outs),
      memberships().read!(member.id, member.outs),
    ]);
    const gets = (await admin.requests()).filter((r) => r.method === "GET").map((r) => r.path);
    expect(gets.filter((p) => /\/roles\b/.test(p))).toHaveLength(1);
    expect(gets.filter((p) => /membership/.test(p))).toHaveLength(1);
    expect(refreshed[0]!.props.permissions).toEqual(role.outs.permissions);

    // Renamed: one PATCH of the role; the membership then names it anew, in one PATCH of its list.
    await admin.clearRequests();
    const renamed = await changed(roles(), "ci-reader", role.id, role.outs, {
      projectId,
      slug: "ci-reader-renamed",
      name: "CI reader",
      permissions: [readRule, { subject: "secret-folders", action: ["read"] }],
    });
    expect(renamed.diff).toMatchObject({ changes: true, replaces: [] });
    expect(renamed.outs.slug).toBe("ci-reader-renamed");
    const moved = await changed(memberships(), "ci-member", member.id, member.outs, {
      projectId,
      identityId: ci.id,
      roles: [{ role: "ci-reader-renamed" }],
    });
    expect(moved.diff).toMatchObject({ changes: true, replaces: [] });
    expect(moved.outs.roles).toEqual([{ role: "ci-reader-renamed" }]);
    const writes = (await admin.requests()).filter((r) => r.method !== "GET");
    expect(writes.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);

    // After the rename, a refresh reads the role by its new slug (its updatedAt moved only by our write: kept).
    const after = await roles().read!(role.id, renamed.outs);
    expect(after.props.slug).toBe("ci-reader-renamed");
    expect(after.props.permissions).toEqual(renamed.outs.permissions);
  });

  it("a role changed out of band is read by its slug; a temporary role's times are the service's", async () => {
    const role = await made(roles(), "drift", {
      projectId,
      slug: "drift",
      name: "Drift",
      permissions: [{ subject: "secrets", action: ["read"] }],
    });
    await client.projectRoles.update(projectId, role.id, {
      permissions: [{ subject: "secrets", action: ["read", "edit"] }],
    });
    const read = await roles().read!(role.id, role.outs);
    expect(read.props.permissions).toEqual([{ subject: "secrets", action: ["edit", "read"] }]);

    const temp = await identity("temp");
    const start = "2026-12-01T10:00:00Z";
    const m = await made(memberships(), "temp-member", {
      projectId,
      identityId: temp.id,
      roles: [
        { role: "viewer" },
        {
          role: "member",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start,
        },
      ],
    });
    expect(m.outs.temporaryAccessEndTimes).toEqual({ member: "2026-12-01T11:00:00.000Z" });
    const again = await memberships().check!(m.inputs, {
      ...m.inputs,
      roles: [
        {
          role: "member",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start,
        },
        { role: "viewer", isTemporary: false },
      ],
      __resourceName: "temp-member",
    });
    expect((await memberships().diff!(m.id, m.outs, again.inputs)).changes).toBe(false);
  });

  it("a membership whose identity is deleted is gone; its delete, and a role's in a deleted project, are done", async () => {
    const gone = await identity("gone");
    const m = await made(memberships(), "gone-member", { projectId, identityId: gone.id, roles: [{ role: "viewer" }] });
    await client.identities.delete(gone.id);
    expect((await memberships().read!(m.id, m.outs)).id).toBe("");
    // The definitions' deletes: the steps keep what a resource of this process still holds.
    await expect(projectIdentityMembershipDefinition.delete(client, m.id, m.outs as never)).resolves.toBeUndefined();

    const project = await client.projects.create({ projectName: "Doomed", type: "secret-manager" });
    const role = await made(roles(), "doomed", {
      projectId: project.id,
      slug: "doomed",
      name: "Doomed",
      permissions: [{ subject: "secrets", action: ["read"] }],
    });
    const other = await identity("doomed-member");
    const dm = await made(memberships(), "doomed-member", {
      projectId: project.id,
      identityId: other.id,
      roles: [{ role: "doomed" }],
    });
    await client.projects.delete(project.id);
    expect((await roles().read!(role.id, role.outs)).id).toBe("");
    expect((await memberships().read!(dm.id, dm.outs)).id).toBe("");
    await expect(projectIdentityMembershipDefinition.delete(client, dm.id, dm.outs as never)).resolves.toBeUndefined();
    // The role's delete answers 404 (its project is gone), which the steps take as done.
    await expect(projectRoleDefinition.delete(client, role.id, role.outs as never)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("imports a role by <projectId>/<slug> and a membership by <projectId>/<identityId>, with their own ids", async () => {
    const role = await made(roles(), "imported", {
      projectId,
      slug: "imported",
      name: "Imported",
      permissions: [readRule],
    });
    const who = await identity("imported-member");
    const m = await made(memberships(), "imported-member", {
      projectId,
      identityId: who.id,
      roles: [{ role: "imported" }],
    });
    const r = await roles().read!("imported", { projectId });
    expect(r.id).toBe(role.id);
    expect(r.props.permissions).toEqual(role.outs.permissions);
    const i = await memberships().read!(who.id, { projectId });
    expect(i.id).toBe(m.id);
    expect(i.props.roles).toEqual([{ role: "imported" }]);
  });
});

describe("the plan gate (unlicensed)", () => {
  let emulator: Emulator;
  let client: SecretOpsClient;

  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false });
    client = pointAt(emulator);
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("a custom role's create and its assignment fail with the service's words; a built-in role is assigned", async () => {
    const projectId = emulator.summary.projects[0]!.id;
    const { inputs } = await roles().check!(
      {},
      { projectId, slug: "ci-reader", name: "CI", permissions: [readRule], __resourceName: "ci-reader" },
    );
    await expect(roles().create(inputs)).rejects.toThrow(/Failed to create custom role due to plan RBAC restriction/);
    const ci = await client.identities.create({
      name: "ci",
      organizationId: emulator.summary.orgId,
      role: "no-access",
    });
    const member = await memberships().check!(
      {},
      { projectId, identityId: ci.id, roles: [{ role: "ci-reader" }], __resourceName: "ci-member" },
    );
    await expect(memberships().create(member.inputs)).rejects.toThrow(
      "roles: Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.",
    );
    // Another identity: the program's one membership per identity and project holds for `ci`.
    const other = await client.identities.create({
      name: "viewer",
      organizationId: emulator.summary.orgId,
      role: "no-access",
    });
    const viewer = await made(memberships(), "ci-viewer", {
      projectId,
      identityId: other.id,
      roles: [{ role: "viewer" }],
    });
    expect(viewer.outs.roles).toEqual([{ role: "viewer" }]);
  });
});
