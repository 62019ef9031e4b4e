import { dynamicProvider } from "../../provider/dynamic-provider";
import { normalRoles, projectIdentityMembershipDefinition } from "../../provider/project-identity-membership";
import { normalPermissions, projectRoleDefinition } from "../../provider/project-role";
import { programResources } from "../../provider/program-resources";
import { UNKNOWN } from "../../provider/values";
import type { SecretOpsClient } from "../../sdk";
import { SecretOpsApiError } from "../../sdk/errors";

// check and diff need no server: they run in preview, before any API call. The API calls run
// against a stand-in client that answers as the service does (docs/service-api.md §19).

type Args = Record<string, unknown>;

const role = dynamicProvider(projectRoleDefinition);
const membership = dynamicProvider(projectIdentityMembershipDefinition);

/** Runs `check` as the engine does at preview: each resource with its name. */
const check = (provider: ReturnType<typeof dynamicProvider>, name: string, args: Args) =>
  provider.check!({}, { ...args, __resourceName: name });

const refusal = (status: number, message: string, method: "GET" | "POST" | "PATCH" | "DELETE" = "POST") =>
  new SecretOpsApiError({ status, error: "BadRequest", message, method, path: "/api/v1/x" });

/** The outputs a definition reports for the service's object (what state holds after a step). */
function outputsOf(def: { reported: object; computed: object }, remote: unknown): Args {
  return Object.fromEntries(
    Object.entries({ ...def.reported, ...def.computed })
      .map(([k, read]) => [k, (read as (r: unknown) => unknown)(remote)])
      .filter(([, v]) => v !== undefined),
  );
}

const T0 = "2026-12-01T10:00:00.000Z";
const T1 = "2026-12-01T11:00:00.000Z";

describe("ProjectRole's check", () => {
  const base = { projectId: "p1", name: "CI reader", permissions: [{ subject: "secrets", action: ["read"] }] };

  it.each(["admin", "member", "viewer", "no-access"])("refuses the built-in slug %s, naming slug", async (slug) => {
    const { failures } = await check(role, `r-${slug}`, { ...base, slug });
    expect(failures).toEqual([{ property: "slug", reason: expect.stringContaining(slug) }]);
    expect(failures![0]!.reason).toContain("reserved");
  });

  it("refuses a rule without actions and an unknown field of a rule, naming their paths", async () => {
    const { failures } = await check(role, "bad", {
      ...base,
      slug: "bad",
      permissions: [
        { subject: "secrets", action: [] },
        { subject: "secrets", action: ["read"], invert: true },
      ],
    });
    expect(failures?.map((f) => f.property)).toEqual(["permissions.0.action", "permissions.1"]);
  });

  it("refuses a second role of the program with the same slug in one project, naming both", async () => {
    const args = { ...base, projectId: "p-dup", slug: "ci" };
    expect((await check(role, "ci-a", args)).failures ?? []).toEqual([]);
    expect((await check(role, "ci-b", args)).failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^slug: ProjectRole "ci-b" and ProjectRole "ci-a" of this program/),
      },
    ]);
    expect((await check(role, "ci-c", { ...args, projectId: "p-other" })).failures ?? []).toEqual([]);
  });

  it("waits for a slug not known yet at preview", async () => {
    expect((await check(role, "later", { ...base, slug: UNKNOWN })).failures ?? []).toEqual([]);
  });

  it("has its outputs, id and slug among them, and no secret", () => {
    expect(programResources.ProjectRole.outputs).toEqual(
      expect.arrayContaining(["projectId", "slug", "name", "permissions", "updatedAt"]),
    );
    expect(programResources.ProjectRole.secrets).toEqual([]);
  });
});

describe("ProjectRole's permissions: equal ones never diff (the vendor Terraform provider's #348)", () => {
  // The permissions of the vendor's issue #348: conditions on environment and secret path.
  const declared = {
    projectId: "p1",
    slug: "ci-reader",
    name: "CI reader",
    permissions: [
      {
        subject: "secrets",
        action: ["read", "create", "edit"],
        conditions: { environment: { $in: ["prod", "dev"] }, secretPath: { $glob: "/app/**", $ne: "/app/private" } },
      },
      { subject: "secret-folders", action: ["read"], conditions: { environment: "prod" } },
    ],
  };
  // The same permissions as another writer (or the service) spells them: actions, condition keys,
  // operators and `$in` values in another order, `inverted: false` filled in, a subject as a list.
  const reordered = [
    {
      subject: ["secrets"],
      action: ["edit", "read", "create"],
      conditions: { secretPath: { $ne: "/app/private", $glob: "/app/**" }, environment: { $in: ["dev", "prod"] } },
      inverted: false,
    },
    { subject: "secret-folders", action: "read", conditions: { environment: "prod" }, inverted: false },
  ];

  it("reads both spellings as one", () => {
    expect(normalPermissions(reordered)).toEqual(normalPermissions(declared.permissions));
    expect(JSON.stringify(normalPermissions(reordered))).toBe(JSON.stringify(normalPermissions(declared.permissions)));
    expect(normalPermissions(reordered)[0]).toEqual({
      subject: "secrets",
      action: ["create", "edit", "read"],
      conditions: { environment: { $in: ["dev", "prod"] }, secretPath: { $glob: "/app/**", $ne: "/app/private" } },
    });
  });

  it("keeps what the service keeps apart: a bare value and $eq, an inverted rule, the rules' order", () => {
    const bare = normalPermissions([{ subject: "secrets", action: ["read"], conditions: { environment: "prod" } }]);
    const eq = normalPermissions([
      { subject: "secrets", action: ["read"], conditions: { environment: { $eq: "prod" } } },
    ]);
    expect(bare).not.toEqual(eq);
    expect(normalPermissions([{ subject: "secrets", action: ["read"], inverted: true }])[0]!.inverted).toBe(true);
    const two = [
      { subject: "secrets", action: ["read"] },
      { subject: "secrets", action: ["read"], inverted: true, conditions: { environment: "prod" } },
    ];
    expect(normalPermissions(two).map((r) => r.inverted)).toEqual([undefined, true]);
  });

  it("shows no change after an up or a refresh that read them in another order", async () => {
    const { inputs, failures } = await check(role, "ci-348", declared);
    expect(failures ?? []).toEqual([]);
    // What the service answers to the create (and to a read by slug), in its own spelling.
    const remote = {
      id: "role-1",
      projectId: "p1",
      slug: "ci-reader",
      name: "CI reader",
      description: null,
      permissions: reordered,
      createdAt: T0,
      updatedAt: T0,
    };
    const outs = outputsOf(projectRoleDefinition, remote);
    expect(await role.diff!("role-1", outs, inputs)).toMatchObject({ changes: false, replaces: [] });
    // The program reorders its own actions and operators: still no change.
    const again = (
      await check(role, "ci-348", {
        ...declared,
        permissions: [declared.permissions[1], declared.permissions[0]].reverse().map((p) => ({
          ...p,
          action: [...p!.action].reverse(),
        })),
      })
    ).inputs;
    expect(await role.diff!("role-1", outs, again)).toMatchObject({ changes: false });
  });

  it("a real change of permissions, slug or name is one PATCH in place; a new project replaces", async () => {
    const remote = {
      id: "role-1",
      projectId: "p1",
      slug: "ci-reader",
      name: "CI reader",
      permissions: declared.permissions,
      createdAt: T0,
      updatedAt: T0,
    };
    const outs = outputsOf(projectRoleDefinition, remote);
    const widened = (
      await check(role, "ci-348", {
        ...declared,
        permissions: [{ ...declared.permissions[0]!, action: ["read", "delete"] }, declared.permissions[1]],
      })
    ).inputs;
    expect(await role.diff!("role-1", outs, widened)).toMatchObject({ changes: true, replaces: [] });
    const renamed = (await check(role, "ci-348", { ...declared, slug: "ci-reader-2", name: "CI" })).inputs;
    expect(await role.diff!("role-1", outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const moved = (await check(role, "ci-348", { ...declared, projectId: "p2" })).inputs;
    expect(await role.diff!("role-1", outs, moved)).toMatchObject({ replaces: ["projectId"] });

    const sent: unknown[] = [];
    const client = {
      projectRoles: {
        update: async (projectId: string, roleId: string, body: Args) => {
          sent.push([projectId, roleId, body]);
          return { ...remote, ...body, updatedAt: T1 };
        },
      },
    } as unknown as SecretOpsClient;
    const updated = await projectRoleDefinition.update(
      client,
      "role-1",
      { slug: "ci-reader-2", name: "CI" },
      outs as never,
    );
    expect(sent).toEqual([["p1", "role-1", { slug: "ci-reader-2", name: "CI" }]]);
    expect(updated.slug).toBe("ci-reader-2");
  });
});

describe("ProjectRole's refresh", () => {
  /** A stand-in client: the project's list (without permissions), and reads by slug, counted. */
  function stand(roles: { id: string; slug: string; updatedAt: string; permissions: unknown[] }[]) {
    const calls = { list: 0, bySlug: [] as string[] };
    const full = (r: (typeof roles)[number]) => ({ ...r, projectId: "p1", name: r.slug, createdAt: T0 });
    const client = {
      projectRoles: {
        list: async () => {
          calls.list++;
          return [
            { id: "builtin-admin", slug: "admin", name: "Admin", createdAt: T0, updatedAt: T0 },
            ...roles.map(({ permissions: _none, ...r }) => ({
              ...full({ ...r, permissions: [] }),
              permissions: undefined,
            })),
          ];
        },
        getBySlug: async (_p: string, slug: string) => {
          calls.bySlug.push(slug);
          const r = roles.find((x) => x.slug === slug);
          if (!r) throw refusal(404, `Role with slug ${slug} not found`, "GET");
          return full(r);
        },
      },
    } as unknown as SecretOpsClient;
    return { client, calls };
  }
  const rules = [{ subject: "secrets", action: ["read"] }];

  it("lists the project's roles once for all; reads by slug only the role whose updatedAt moved", async () => {
    const { client, calls } = stand([
      { id: "r1", slug: "one", updatedAt: T0, permissions: rules },
      { id: "r2", slug: "two", updatedAt: T1, permissions: [{ subject: "secrets", action: ["edit", "read"] }] },
      { id: "r3", slug: "three", updatedAt: T0, permissions: rules },
    ]);
    const state = (id: string, slug: string) =>
      ({ projectId: "p1", slug, updatedAt: T0, permissions: normalPermissions(rules) }) as never;
    const [one, two, three] = await Promise.all([
      projectRoleDefinition.read(client, "r1", state("r1", "one")),
      projectRoleDefinition.read(client, "r2", state("r2", "two")),
      projectRoleDefinition.read(client, "r3", state("r3", "three")),
    ]);
    expect(calls.list).toBe(1);
    expect(calls.bySlug).toEqual(["two"]);
    expect(one!.permissions).toEqual(normalPermissions(rules));
    expect(normalPermissions(two!.permissions ?? [])).toEqual([{ subject: "secrets", action: ["edit", "read"] }]);
    expect(three!.id).toBe("r3");
  });

  it("finds a role gone when neither the list nor its slug has it", async () => {
    const { client, calls } = stand([]);
    const gone = await projectRoleDefinition.read(client, "r9", {
      projectId: "p1",
      slug: "nine",
      updatedAt: T0,
    } as never);
    expect(gone).toBeUndefined();
    expect(calls.bySlug).toEqual(["nine"]);
  });

  it("imports by <projectId>/<slug>: the role's own id, with its permissions; a built-in slug is refused", async () => {
    const { client } = stand([{ id: "r1", slug: "one", updatedAt: T0, permissions: rules }]);
    const imported = await projectRoleDefinition.read(client, "one", { projectId: "p1" } as never);
    expect(imported).toMatchObject({ id: "r1", slug: "one", permissions: rules });
    await expect(projectRoleDefinition.read(client, "admin", { projectId: "p1" } as never)).rejects.toThrow(
      /built-in role/,
    );
    expect(projectRoleDefinition.importPrefix).toBe("projectId");
    expect(projectRoleDefinition.importKey).toBe("slug");
  });
});

describe("ProjectIdentityMembership's check", () => {
  it("refuses a second membership of one identity in one project, naming both", async () => {
    const args = { projectId: "p-dup", identityId: "i-dup", roles: [{ role: "viewer" }] };
    expect((await check(membership, "ci-member", args)).failures ?? []).toEqual([]);
    const { failures } = await check(membership, "ci-member-again", { ...args, roles: [{ role: "member" }] });
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^identityId: ProjectIdentityMembership "ci-member-again" and ProjectIdentityMembership "ci-member" of this program both make this identity a member of this project/,
        ),
      },
    ]);
    // The identity in another project, or another identity in the project: no clash.
    expect((await check(membership, "other-project", { ...args, projectId: "p-2" })).failures ?? []).toEqual([]);
    expect((await check(membership, "other-identity", { ...args, identityId: "i-2" })).failures ?? []).toEqual([]);
  });

  it("refuses roles the service refuses, before any write: none, temporary only, a bad range", async () => {
    const base = { projectId: "p1", identityId: "i1" };
    expect((await check(membership, "m0", { ...base, roles: [] })).failures).toEqual([
      { property: "roles", reason: "must have at least 1 role" },
    ]);
    const temporary = {
      role: "viewer",
      isTemporary: true,
      temporaryMode: "relative",
      temporaryRange: "1h",
      temporaryAccessStartTime: "2026-12-01T10:00:00Z",
    };
    expect((await check(membership, "m1", { ...base, roles: [temporary] })).failures).toEqual([
      { property: "roles", reason: "Identity must have at least one permanent role" },
    ]);
    const bad = await check(membership, "m2", {
      ...base,
      roles: [{ role: "member" }, { ...temporary, temporaryRange: "soon" }],
    });
    expect(JSON.stringify(bad.failures)).toContain("Temporary range must be a positive number");
  });

  it("waits for a role's slug not known yet at preview (a ProjectRole made by the same up)", async () => {
    const { failures } = await check(membership, "later", {
      projectId: "p1",
      identityId: "i-later",
      roles: [{ role: UNKNOWN }],
    });
    expect(failures ?? []).toEqual([]);
  });
});

describe("ProjectIdentityMembership's roles", () => {
  const temporary = {
    role: "viewer",
    isTemporary: true,
    temporaryMode: "relative",
    temporaryRange: "1h",
    temporaryAccessStartTime: "2026-12-01T10:00:00Z",
  };
  /** The service's GET answer: a custom role as `custom` with its slug, the temporary one with its end. */
  const remote = {
    id: "m-1",
    identityId: "i1",
    projectId: "p1",
    identity: { id: "i1", name: "ci" },
    roles: [
      {
        id: "mr-2",
        role: "viewer",
        customRoleId: null,
        customRoleSlug: null,
        isTemporary: true,
        temporaryMode: "relative",
        temporaryRange: "1h",
        temporaryAccessStartTime: "2026-12-01T10:00:00.000Z",
        temporaryAccessEndTime: "2026-12-01T11:00:00.000Z",
      },
      { id: "mr-1", role: "custom", customRoleId: "role-1", customRoleSlug: "ci-reader", isTemporary: false },
    ],
    createdAt: T0,
    updatedAt: T0,
  };

  it("reports a custom role by its slug and shows no change after an up, whatever the order", async () => {
    const { inputs, failures } = await check(membership, "ci", {
      projectId: "p1",
      identityId: "i1",
      roles: [{ role: "ci-reader", isTemporary: false }, temporary],
    });
    expect(failures ?? []).toEqual([]);
    const outs = outputsOf(projectIdentityMembershipDefinition, remote);
    expect(outs.roles).toEqual(normalRoles([{ role: "ci-reader" }, temporary]));
    expect(outs.identityName).toBe("ci");
    expect(outs.temporaryAccessEndTimes).toEqual({ viewer: "2026-12-01T11:00:00.000Z" });
    expect(await membership.diff!("m-1", outs, inputs)).toMatchObject({ changes: false, replaces: [] });
  });

  it("a change of roles is one PATCH of the whole list; a new project or identity replaces", async () => {
    const outs = outputsOf(projectIdentityMembershipDefinition, remote);
    const news = (await check(membership, "ci", { projectId: "p1", identityId: "i1", roles: [{ role: "admin" }] }))
      .inputs;
    expect(await membership.diff!("m-1", outs, news)).toMatchObject({ changes: true, replaces: [] });
    for (const [field, value] of [
      ["projectId", "p2"],
      ["identityId", "i2"],
    ]) {
      const moved = (
        await check(membership, `ci-${field}`, {
          projectId: "p1",
          identityId: "i1",
          roles: [{ role: "admin" }],
          [field!]: value,
        })
      ).inputs;
      expect(await membership.diff!("m-1", outs, moved)).toMatchObject({ replaces: [field] });
    }

    const sent: unknown[] = [];
    const client = {
      identityMemberships: {
        update: async (projectId: string, identityId: string, body: Args) => {
          sent.push([projectId, identityId, body]);
          return { ...remote, roles: [{ id: "mr-3", role: "admin", isTemporary: false }], updatedAt: T1 };
        },
      },
    } as unknown as SecretOpsClient;
    const updated = await projectIdentityMembershipDefinition.update(
      client,
      "m-1",
      { roles: [{ role: "admin" }] },
      outs as never,
    );
    expect(sent).toEqual([["p1", "i1", { roles: [{ role: "admin" }] }]]);
    expect(updated.roles.map((r) => r.role)).toEqual(["admin"]);
  });
});

describe("ProjectIdentityMembership's reads and writes", () => {
  const outs = { projectId: "p1", identityId: "i1", roles: [{ role: "viewer" }] } as never;

  it("takes a membership, identity or project gone (404, or the service's 400) as gone, and its delete as done", async () => {
    const answers = [
      refusal(404, "Identity membership not found", "GET"),
      refusal(404, "Project with ID 'p1' not found", "GET"),
      refusal(400, "Identity doesn't have membership", "GET"),
    ];
    const deletes = [
      refusal(400, "Identity doesn't have membership", "DELETE"),
      refusal(404, "Project not found", "DELETE"),
    ];
    const client = {
      identityMemberships: {
        get: async () => {
          throw answers.shift();
        },
        delete: async () => {
          throw deletes.shift();
        },
      },
    } as unknown as SecretOpsClient;
    for (let i = 0; i < 3; i++)
      expect(await projectIdentityMembershipDefinition.read(client, "m-1", outs)).toBeUndefined();
    await expect(projectIdentityMembershipDefinition.delete(client, "m-1", outs)).resolves.toBeUndefined();
    await expect(projectIdentityMembershipDefinition.delete(client, "m-1", outs)).resolves.toBeUndefined();
  });

  it("another membership in its place (made anew elsewhere) is not this one", async () => {
    const client = {
      identityMemberships: {
        get: async () => ({
          id: "m-other",
          identityId: "i1",
          projectId: "p1",
          roles: [],
          createdAt: T0,
          updatedAt: T0,
        }),
      },
    } as unknown as SecretOpsClient;
    expect(await projectIdentityMembershipDefinition.read(client, "m-1", outs)).toBeUndefined();
    // An import names the identity: the membership is found by it, whatever its id.
    const imported = await projectIdentityMembershipDefinition.read(client, "i1", { projectId: "p1" } as never);
    expect(imported?.id).toBe("m-other");
    expect(projectIdentityMembershipDefinition.importKey).toBe("identityId");
  });

  it("shows the plan gate's refusal of a custom role under roles, in the service's words", async () => {
    const message =
      "Failed to assign custom role to identity due to plan RBAC restriction. Upgrade to Infisical Enterprise to assign custom roles.";
    const client = {
      identityMemberships: {
        create: async () => {
          throw refusal(400, message);
        },
        update: async () => {
          throw refusal(400, message, "PATCH");
        },
      },
    } as unknown as SecretOpsClient;
    const args = { projectId: "p1", identityId: "i1", roles: [{ role: "ci-reader" }] };
    await expect(projectIdentityMembershipDefinition.create!(client, args as never)).rejects.toThrow(
      `roles: ${message}`,
    );
    await expect(
      projectIdentityMembershipDefinition.update(client, "m-1", { roles: [{ role: "ci-reader" }] }, outs),
    ).rejects.toThrow(`roles: ${message}`);
  });

  it("any other failure is the service's, unchanged", async () => {
    const client = {
      identityMemberships: {
        create: async () => {
          throw refusal(400, "Identity is already a member");
        },
      },
    } as unknown as SecretOpsClient;
    await expect(
      projectIdentityMembershipDefinition.create!(client, {
        projectId: "p1",
        identityId: "i1",
        roles: [{ role: "viewer" }],
      }),
    ).rejects.toThrow(/^Identity is already a member$/);
  });
});
