import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SecretOpsClient } from "../../sdk";
import { SecretOpsApiError } from "../../sdk/errors";
import type { RunningEmulator } from "../../emulator";
import { FX, expectError, start, uniq, type Api } from "./helpers";

/**
 * Project roles and identity memberships (docs/service-api.md §19) over real HTTP: roles' CRUD
 * and slug uniqueness, the plan gates on the unlicensed and a licensed plan, memberships with
 * permanent and temporary roles, the PATCH that replaces the role list, a role in use, and the
 * cascades of an identity's and a project's deletion.
 */

let unlicensed: RunningEmulator;
let licensed: RunningEmulator;
let api: Api;
let lApi: Api;
let client: SecretOpsClient;
let lClient: SecretOpsClient;

beforeAll(async () => {
  ({ emu: unlicensed, api } = await start());
  ({ emu: licensed, api: lApi } = await start({ plan: "licensed" }));
  client = new SecretOpsClient({ baseUrl: unlicensed.url, token: unlicensed.token }, { retry: false });
  lClient = new SecretOpsClient({ baseUrl: licensed.url, token: licensed.token }, { retry: false });
});
afterAll(async () => {
  await unlicensed.stop();
  await licensed.stop();
});

async function expectFailure(p: Promise<unknown>, status: number, message: string) {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof SecretOpsApiError)) throw e;
    expect(`${e.status} ${e.message}`).toBe(`${status} ${message}`);
    return;
  }
  throw new Error("expected the call to fail");
}

const readProdApp = {
  subject: "secrets",
  action: ["read"],
  conditions: { environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } },
};
const rolesPath = (projectId: string) => `/api/v1/projects/${projectId}/roles`;
const membershipPath = (projectId: string, identityId: string) =>
  `/api/v1/projects/${projectId}/identity-memberships/${identityId}`;

const newIdentity = async (c: SecretOpsClient, name = uniq("ci")) =>
  (await c.identities.create({ name, organizationId: FX.orgId })).id;

describe("the unlicensed plan", () => {
  test("refuses a custom role's create and update with the service's words", async () => {
    const res = await api.post(rolesPath(FX.projectId), { slug: "ci-reader", name: "CI", permissions: [readProdApp] });
    expectError(
      res,
      400,
      "BadRequest",
      "Failed to create custom role due to plan RBAC restriction. Upgrade to Infisical Enterprise plan to create custom roles.",
    );
    const patch = await api.patch(`${rolesPath(FX.projectId)}/any-id`, { name: "x" });
    expectError(
      patch,
      400,
      "BadRequest",
      "Failed to update custom role due to plan RBAC restriction. Upgrade to Infisical Enterprise plan to update custom roles.",
    );
  });

  test("lists the built-in roles, without permissions", async () => {
    const roles = await client.projectRoles.list(FX.projectId);
    expect(roles.map((r) => r.slug)).toEqual(["admin", "member", "viewer", "no-access"]);
    expect(roles.every((r) => r.permissions === undefined)).toBe(true);
  });

  test("a built-in role is assigned; a custom slug is refused at create and PATCH", async () => {
    const identityId = await newIdentity(client);
    const m = await client.identityMemberships.create(FX.projectId, identityId, { roles: [{ role: "viewer" }] });
    expect(m.roles).toEqual([expect.objectContaining({ role: "viewer", customRoleId: null, isTemporary: false })]);
    const refusal =
      "Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.";
    const other = await newIdentity(client);
    await expectFailure(
      client.identityMemberships.create(FX.projectId, other, { roles: [{ role: "ci-reader" }] }),
      400,
      refusal,
    );
    expectError(
      await api.patch(membershipPath(FX.projectId, identityId), { roles: [{ role: "ci-reader" }] }),
      400,
      "BadRequest",
      refusal,
    );
  });
});

describe("project roles on a licensed plan", () => {
  test("create, read by slug with permissions, list, rename, delete", async () => {
    const slug = uniq("reader");
    const role = await lClient.projectRoles.create(FX.projectId, {
      slug,
      name: "Reader",
      description: "reads prod",
      permissions: [readProdApp],
    });
    expect(role).toMatchObject({ projectId: FX.projectId, slug, name: "Reader", description: "reads prod" });
    expect((await lClient.projectRoles.getBySlug(FX.projectId, slug)).permissions).toEqual([readProdApp]);
    const listed = await lClient.projectRoles.list(FX.projectId);
    const inList = listed.find((r) => r.slug === slug);
    expect(inList).toMatchObject({ id: role.id, name: "Reader" });
    expect(inList).not.toHaveProperty("permissions");

    const renamed = await lClient.projectRoles.update(FX.projectId, role.id, { slug: `${slug}-2`, name: "R2" });
    expect(renamed).toMatchObject({ id: role.id, slug: `${slug}-2`, name: "R2", permissions: [readProdApp] });
    await expectFailure(lClient.projectRoles.getBySlug(FX.projectId, slug), 404, `Role with slug ${slug} not found`);

    expect((await lClient.projectRoles.delete(FX.projectId, role.id)).id).toBe(role.id);
    // Each write is an audit event with the service's type and the role's id.
    const events = await lClient.auditLogs.list({
      projectId: FX.projectId,
      eventType: ["create-project-role", "update-project-role", "delete-project-role"],
    });
    const ofRole = events.filter((e) => (e.event.metadata as { roleId?: string }).roleId === role.id);
    expect(ofRole.map((e) => e.event.type).sort()).toEqual([
      "create-project-role",
      "delete-project-role",
      "update-project-role",
    ]);
    await expectFailure(lClient.projectRoles.delete(FX.projectId, role.id), 404, `Role with ${role.id} not found`);
  });

  test("a slug is unique in its project, and a built-in slug is reserved", async () => {
    const slug = uniq("dup");
    const a = await lClient.projectRoles.create(FX.projectId, { slug, name: "A", permissions: [] });
    await expectFailure(
      lClient.projectRoles.create(FX.projectId, { slug, name: "B", permissions: [] }),
      400,
      `Role with ${slug} already exists`,
    );
    const b = await lClient.projectRoles.create(FX.projectId, { slug: `${slug}-b`, name: "B", permissions: [] });
    await expectFailure(
      lClient.projectRoles.update(FX.projectId, b.id, { slug }),
      400,
      `Role with ${slug} already exists`,
    );
    // The same slug as its own is no conflict.
    expect((await lClient.projectRoles.update(FX.projectId, a.id, { slug })).slug).toBe(slug);

    const reserved = await lApi.post(rolesPath(FX.projectId), { slug: "admin", name: "x", permissions: [] });
    expect(reserved.status).toBe(422);
    expect(JSON.stringify(reserved.body)).toContain(
      "Please choose a different slug, the slug you have entered is reserved",
    );
  });

  test("a built-in role by slug; an unknown built-in-looking slug and another project's role are not found", async () => {
    expect(await lClient.projectRoles.getBySlug(FX.projectId, "viewer")).toMatchObject({
      slug: "viewer",
      name: "Viewer",
    });
    expectError(
      await lApi.get(`${rolesPath(FX.projectId)}/slug/custom`),
      400,
      "BadRequest",
      "Role with slug custom not found",
    );
    const role = await lClient.projectRoles.create(FX.projectId, { slug: uniq("mine"), name: "M", permissions: [] });
    const pki = await lApi.delete(`${rolesPath(FX.pkiProjectId)}/${role.id}`);
    expectError(pki, 404, "NotFound", `Role with ${role.id} not found`);
  });
});

describe("identity memberships on a licensed plan", () => {
  test("a custom and a temporary role; the answer names the custom role; one membership per identity", async () => {
    const slug = uniq("ci-reader");
    const role = await lClient.projectRoles.create(FX.projectId, {
      slug,
      name: "CI reader",
      permissions: [readProdApp],
    });
    const identityId = await newIdentity(lClient, uniq("ci"));
    const start = "2026-01-01T00:00:00.000Z";
    const m = await lClient.identityMemberships.create(FX.projectId, identityId, {
      roles: [
        { role: slug },
        {
          role: "viewer",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "1h",
          temporaryAccessStartTime: start,
        },
      ],
    });
    expect(m).toMatchObject({ identityId, projectId: FX.projectId, identity: { id: identityId } });
    expect(m.roles).toEqual([
      expect.objectContaining({
        role: "custom",
        customRoleId: role.id,
        customRoleSlug: slug,
        customRoleName: "CI reader",
      }),
      expect.objectContaining({
        role: "viewer",
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: start,
        temporaryAccessEndTime: "2026-01-01T01:00:00.000Z",
      }),
    ]);

    // The create answer is the row without roles.
    const other = await newIdentity(lClient);
    const raw = await lApi.post(membershipPath(FX.projectId, other), { roles: [{ role: "member" }] });
    expect(raw.status).toBe(200);
    expect(Object.keys(raw.body.identityMembership).sort()).toEqual([
      "createdAt",
      "id",
      "identityId",
      "projectId",
      "updatedAt",
    ]);

    await expectFailure(
      lClient.identityMemberships.create(FX.projectId, identityId, { roles: [{ role: "viewer" }] }),
      400,
      "Identity is already a member",
    );
    const listed = await lClient.identityMemberships.list(FX.projectId);
    expect(listed.filter((x) => x.identityId === identityId)).toHaveLength(1);

    // A role in use cannot be deleted.
    await expectFailure(
      lClient.projectRoles.delete(FX.projectId, role.id),
      400,
      "Role is assigned to 1 identity membership. Re-assign membership role to delete this role.",
    );
  });

  test("PATCH replaces the whole role list and answers the roles only", async () => {
    const identityId = await newIdentity(lClient);
    await lClient.identityMemberships.create(FX.projectId, identityId, {
      roles: [{ role: "viewer" }, { role: "member" }],
    });
    const res = await lApi.patch(membershipPath(FX.projectId, identityId), { roles: [{ role: "admin" }] });
    expect(res.status).toBe(200);
    expect(res.body.roles).toEqual([
      expect.objectContaining({ role: "admin", isTemporary: false, projectMembershipId: expect.any(String) }),
    ]);
    expect((await lClient.identityMemberships.get(FX.projectId, identityId)).roles.map((r) => r.role)).toEqual([
      "admin",
    ]);
  });

  test("the service's refusals: no permanent role, unknown custom role, no membership, unknown identity", async () => {
    const identityId = await newIdentity(lClient);
    const temporary = {
      role: "viewer",
      isTemporary: true as const,
      temporaryMode: "relative" as const,
      temporaryRange: "1d",
      temporaryAccessStartTime: "2026-01-01T00:00:00Z",
    };
    // The SDK checks this rule before sending; the service's answer, sent raw:
    expectError(
      await lApi.post(membershipPath(FX.projectId, identityId), { roles: [temporary] }),
      400,
      "BadRequest",
      "Identity must have at least one permanent role",
    );
    await expectFailure(
      lClient.identityMemberships.create(FX.projectId, identityId, { roles: [{ role: "nope-role" }] }),
      404,
      "One or more custom roles not found",
    );
    await expectFailure(
      lClient.identityMemberships.update(FX.projectId, identityId, { roles: [{ role: "viewer" }] }),
      400,
      "Identity doesn't have membership",
    );
    expectError(
      await lApi.delete(membershipPath(FX.projectId, identityId)),
      400,
      "BadRequest",
      "Identity doesn't have membership",
    );
    expectError(
      await lApi.get(membershipPath(FX.projectId, identityId)),
      404,
      "NotFound",
      "Identity membership not found",
    );
    const ghost = "00000000-0000-4000-8000-000000000000";
    expectError(
      await lApi.post(membershipPath(FX.projectId, ghost), { roles: [{ role: "viewer" }] }),
      400,
      "BadRequest",
      `Identity ${ghost} is missing organization membership`,
    );
    expectError(
      await lApi.delete(membershipPath(FX.projectId, await newIdentity(lClient))),
      400,
      "BadRequest",
      "Identity doesn't have membership",
    );
    // The default identity is the fixture project's admin (a fixture's `projectIds`).
    expectError(
      await lApi.delete(membershipPath(FX.projectId, FX.identityId)),
      400,
      "BadRequest",
      "You can't delete your own membership",
    );
  });

  test("delete; an identity's deletion takes its memberships", async () => {
    const gone = await newIdentity(lClient);
    await lClient.identityMemberships.create(FX.projectId, gone, { roles: [{ role: "viewer" }] });
    expect((await lClient.identityMemberships.delete(FX.projectId, gone)).roles).toEqual([]);
    await expectFailure(lClient.identityMemberships.get(FX.projectId, gone), 404, "Identity membership not found");

    const identityId = await newIdentity(lClient);
    await lClient.identityMemberships.create(FX.projectId, identityId, { roles: [{ role: "viewer" }] });
    await lClient.identities.delete(identityId);
    expect((await lClient.identityMemberships.list(FX.projectId)).some((m) => m.identityId === identityId)).toBe(false);
  });

  test("a project's deletion takes its roles and memberships; the data file keeps the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), "project-access-"));
    const file = join(dir, "state.json");
    try {
      const { emu } = await start({ plan: "licensed", data: file });
      const c = new SecretOpsClient({ baseUrl: emu.url, token: emu.token }, { retry: false });
      const project = await c.projects.create({ projectName: uniq("rbac") });
      const role = await c.projectRoles.create(project.id, { slug: "ci", name: "CI", permissions: [readProdApp] });
      const kept = await c.projectRoles.create(FX.projectId, { slug: "kept", name: "Kept", permissions: [] });
      const member = await newIdentity(c);
      await c.identityMemberships.create(project.id, member, { roles: [{ role: "ci" }] });
      const keptMembership = await c.identityMemberships.create(FX.projectId, member, { roles: [{ role: "kept" }] });
      await c.projects.delete(project.id);
      await emu.stop();
      const state = JSON.parse(readFileSync(file, "utf8"));
      expect(state.projectRoles.map((r: { id: string }) => r.id)).toEqual([kept.id]);
      // The member's; the others are the fixture's admins of its projects.
      const members = state.identityMemberships.filter((m: { identityId: string }) => m.identityId === member);
      expect(members.map((m: { id: string }) => m.id)).toEqual([keptMembership.id]);
      expect(members[0].roles[0]).toMatchObject({ role: "custom", customRoleId: kept.id });
      expect(state.identityMemberships.some((m: { projectId: string }) => m.projectId === project.id)).toBe(false);
      expect(role.projectId).toBe(project.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
