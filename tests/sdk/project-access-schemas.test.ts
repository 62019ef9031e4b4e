import { SecretOpsClient } from "../../sdk";
import {
  IdentityMembershipCreateSchema,
  IdentityMembershipRecordSchema,
  IdentityMembershipUpdateSchema,
  ProjectRoleCreateSchema,
  ProjectRoleRecordSchema,
  ProjectRoleUpdateSchema,
  formatIssueList,
  identityMembershipRules,
  issuesFromZod,
  msDuration,
} from "../../sdk/schemas";
import { type Recorded, type StubServer, startStub } from "./helpers/stub-server";

/** Project roles and identity memberships: the bodies as the service takes them, and what each client method sends. */

const errorsOf = (r: { success: boolean; error?: { issues: unknown[] } }) =>
  formatIssueList(issuesFromZod(r.error!.issues as never));

const readSecretsInProd = {
  subject: "secrets",
  action: ["read"],
  conditions: { environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } },
};

describe("project role bodies", () => {
  test("a role with v2 permissions passes as sent", () => {
    const body = { slug: "ci-reader", name: "CI reader", permissions: [readSecretsInProd] };
    expect(ProjectRoleCreateSchema.parse(body)).toEqual(body);
    expect(ProjectRoleUpdateSchema.parse({ name: "CI" })).toEqual({ name: "CI" });
  });

  test.each(["admin", "member", "viewer", "no-access", "custom"])(
    "the reserved slug %s is refused naming slug",
    (slug) => {
      const r = ProjectRoleCreateSchema.safeParse({ slug, name: "x", permissions: [] });
      expect(r.success).toBe(false);
      expect(errorsOf(r)).toContain("slug: Please choose a different slug, the slug you have entered is reserved");
      expect(ProjectRoleUpdateSchema.safeParse({ slug }).success).toBe(false);
    },
  );

  test("a bad slug, an empty action list and a typo are each named", () => {
    const r = ProjectRoleCreateSchema.safeParse({
      slug: "CI_reader",
      name: "x",
      permissions: [{ subject: "secrets", action: [], condition: {} }],
    });
    const text = errorsOf(r);
    expect(text).toContain("slug:");
    expect(text).toContain("permissions.0.action: must have at least 1 action");
    expect(text).toContain("condition");
  });

  test("the list answer (no permissions) and the slug answer both read", () => {
    const base = { id: "r1", projectId: "p1", slug: "ci", name: "CI", createdAt: "t", updatedAt: "t" };
    expect(ProjectRoleRecordSchema.parse(base).permissions).toBeUndefined();
    expect(
      ProjectRoleRecordSchema.parse({ ...base, permissions: [{ ...readSecretsInProd, inverted: false }] }),
    ).toMatchObject({ permissions: [{ subject: "secrets", inverted: false }] });
  });
});

describe("identity membership bodies", () => {
  test("permanent and temporary roles pass; an empty list is refused", () => {
    const roles = [
      { role: "viewer" },
      {
        role: "ci-reader",
        isTemporary: true as const,
        temporaryMode: "relative" as const,
        temporaryRange: "1h",
        temporaryAccessStartTime: "2026-01-01T00:00:00Z",
      },
    ];
    expect(IdentityMembershipCreateSchema.parse({ roles })).toEqual({ roles });
    expect(errorsOf(IdentityMembershipUpdateSchema.safeParse({ roles: [] }))).toContain(
      "roles: must have at least 1 role",
    );
  });

  test("a list of temporary roles only breaks the service's rule, in its words", () => {
    const temporary = {
      role: "viewer",
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "1h",
      temporaryAccessStartTime: "2026-01-01T00:00:00Z",
    };
    const body = IdentityMembershipCreateSchema.parse({ roles: [temporary] });
    expect(identityMembershipRules(body)).toEqual([
      { path: "roles", message: "Identity must have at least one permanent role" },
    ]);
    expect(
      identityMembershipRules(IdentityMembershipUpdateSchema.parse({ roles: [temporary, { role: "viewer" }] })),
    ).toEqual([]);
  });

  test("a temporary role needs a positive ms range and an ISO start", () => {
    const r = IdentityMembershipCreateSchema.safeParse({
      roles: [
        {
          role: "viewer",
          isTemporary: true,
          temporaryMode: "relative",
          temporaryRange: "soon",
          temporaryAccessStartTime: "yesterday",
        },
      ],
    });
    expect(r.success).toBe(false);
    expect(errorsOf(r)).toMatch(/Temporary range must be a positive number|temporaryRange/);
  });

  test("ms ranges read as the service's ms does", () => {
    expect(msDuration("1h")).toBe(3_600_000);
    expect(msDuration("2 days")).toBe(172_800_000);
    expect(msDuration("500")).toBe(500);
    expect(msDuration("1.5m")).toBe(90_000);
    expect(msDuration("soon")).toBeNaN();
    expect(msDuration("-1h")).toBeLessThan(0);
  });

  test("a record without roles (create/delete answer) reads as no roles", () => {
    expect(
      IdentityMembershipRecordSchema.parse({ id: "m1", identityId: "i1", createdAt: "t", updatedAt: "t" }).roles,
    ).toEqual([]);
  });
});

describe("client", () => {
  let stub: StubServer;
  let client: SecretOpsClient;
  beforeEach(async () => {
    stub = await startStub();
    client = new SecretOpsClient(
      { baseUrl: stub.url, token: "t" },
      { rateLimit: false, retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );
  });
  afterEach(() => stub.close());
  const sent = (r: Recorded) => ({ method: r.method, url: r.url, body: r.body ? JSON.parse(r.body) : undefined });
  const role = { id: "r1", projectId: "p1", slug: "ci", name: "CI", createdAt: "t", updatedAt: "t" };
  const membership = {
    id: "m1",
    identityId: "i1",
    createdAt: "t",
    updatedAt: "t",
    roles: [{ id: "x", role: "custom", customRoleId: "r1", customRoleSlug: "ci", isTemporary: false }],
    identity: { id: "i1", name: "ci", authMethods: [] },
  };

  test("project roles: each method's route and body", async () => {
    stub.queue({ status: 200, body: { roles: [role] } });
    expect(await client.projectRoles.list("p1")).toHaveLength(1);
    stub.queue({ status: 200, body: { role } });
    await client.projectRoles.getBySlug("p1", "ci");
    stub.queue({ status: 200, body: { role } });
    await client.projectRoles.create("p1", { slug: "ci", name: "CI", permissions: [readSecretsInProd] });
    stub.queue({ status: 200, body: { role } });
    await client.projectRoles.update("p1", "r1", { name: "CI 2" });
    stub.queue({ status: 200, body: { role } });
    await client.projectRoles.delete("p1", "r1");
    expect(stub.requests.map(sent)).toEqual([
      { method: "GET", url: "/api/v1/projects/p1/roles", body: undefined },
      { method: "GET", url: "/api/v1/projects/p1/roles/slug/ci", body: undefined },
      {
        method: "POST",
        url: "/api/v1/projects/p1/roles",
        body: { slug: "ci", name: "CI", permissions: [readSecretsInProd] },
      },
      { method: "PATCH", url: "/api/v1/projects/p1/roles/r1", body: { name: "CI 2" } },
      { method: "DELETE", url: "/api/v1/projects/p1/roles/r1", body: undefined },
    ]);
  });

  test("identity memberships: one list call; create and PATCH read the membership back", async () => {
    stub.queue({ status: 200, body: { identityMemberships: [membership], totalCount: 1 } });
    const [m] = await client.identityMemberships.list("p1");
    expect(m).toMatchObject({ projectId: "p1", roles: [{ role: "custom", customRoleSlug: "ci" }] });
    stub.queue({ status: 200, body: { identityMembership: { ...membership, roles: undefined } } });
    stub.queue({ status: 200, body: { identityMembership: membership } });
    expect((await client.identityMemberships.create("p1", "i1", { roles: [{ role: "ci" }] })).roles).toHaveLength(1);
    stub.queue({ status: 200, body: { roles: membership.roles } });
    stub.queue({ status: 200, body: { identityMembership: membership } });
    await client.identityMemberships.update("p1", "i1", { roles: [{ role: "viewer" }] });
    stub.queue({ status: 200, body: { identityMembership: { ...membership, roles: undefined } } });
    expect(await client.identityMemberships.delete("p1", "i1")).toMatchObject({ id: "m1", roles: [] });
    // The service's rule is checked before sending: no request goes out.
    const before = stub.requests.length;
    await expect(
      client.identityMemberships.update("p1", "i1", {
        roles: [
          {
            role: "viewer",
            isTemporary: true,
            temporaryMode: "relative",
            temporaryRange: "1h",
            temporaryAccessStartTime: "2026-01-01T00:00:00Z",
          },
        ],
      }),
    ).rejects.toThrow("Identity must have at least one permanent role");
    expect(stub.requests.length).toBe(before);
    const base = "/api/v1/projects/p1/identity-memberships";
    expect(stub.requests.map(sent)).toEqual([
      { method: "GET", url: `${base}?offset=0&limit=20000`, body: undefined },
      { method: "POST", url: `${base}/i1`, body: { roles: [{ role: "ci" }] } },
      { method: "GET", url: `${base}/i1`, body: undefined },
      { method: "PATCH", url: `${base}/i1`, body: { roles: [{ role: "viewer" }] } },
      { method: "GET", url: `${base}/i1`, body: undefined },
      { method: "DELETE", url: `${base}/i1`, body: undefined },
    ]);
  });
});
