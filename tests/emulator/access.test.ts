import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiPaths } from "../../sdk/schemas";
import { seedFromFixtures } from "../../emulator/fixtures";
import { newIdentity } from "../../emulator/identity-records";
import type { StoreSnapshot } from "../../emulator/store";
import type { StoredIdentityMembership, StoredMembershipRole, StoredProjectRole } from "../../emulator/types";
import { FX, expectError, expectNotMember, start, uniq, type Api, type Json, type Res } from "./helpers";
import type { RunningEmulator } from "../../emulator";

/**
 * Project access as the service decides it (docs/service-api.md §20): identities with built-in,
 * custom and temporary roles in the fixture project, put into a data file the emulator starts from.
 */

const secrets = apiPaths.secrets;
const folders = apiPaths.secretFolders;
const now = new Date().toISOString();
const HOUR = 3600_000;

/** A role of a membership: built-in, or custom with its role's id; temporary with an end time. */
function role(
  slug: string,
  over: Partial<
    Pick<StoredMembershipRole, "customRoleId" | "temporaryAccessStartTime" | "temporaryAccessEndTime">
  > = {},
): StoredMembershipRole {
  const temporary = over.temporaryAccessEndTime !== undefined;
  return {
    id: randomUUID(),
    role: slug,
    customRoleId: over.customRoleId ?? null,
    isTemporary: temporary,
    temporaryMode: temporary ? "relative" : null,
    temporaryRange: temporary ? "1h" : null,
    temporaryAccessStartTime: over.temporaryAccessStartTime ?? null,
    temporaryAccessEndTime: over.temporaryAccessEndTime ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

function customRole(slug: string, permissions: unknown[]): StoredProjectRole {
  return {
    id: randomUUID(),
    projectId: FX.projectId,
    slug,
    name: slug,
    description: null,
    permissions,
    createdAt: now,
    updatedAt: now,
  };
}

/** May read secrets in `prod` under `/app/**` and nothing else (the issue's CI reader). */
const ciReader = customRole("ci-reader", [
  {
    subject: "secrets",
    action: ["read"],
    conditions: { environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } },
  },
]);

/** Describes, reads and creates secrets in `dev` and `staging`, except in `/app/db`. */
const devWriterConditions = { environment: { $in: ["dev", "staging"] }, secretPath: { $ne: "/app/db" } };
const devWriter = customRole("dev-writer", [
  { subject: "secrets", action: ["describeSecret", "readValue", "create"], conditions: devWriterConditions },
]);

/** Reads secrets in the environment its identity's metadata names (the service's handlebars templating). */
const ownEnvReader = customRole("own-env-reader", [
  { subject: "secrets", action: ["read"], conditions: { environment: { $eq: "{{identity.metadata.env}}" } } },
]);

/** Identity name → its roles in the fixture project (none: not a member). */
const members: Record<string, StoredMembershipRole[] | null> = {
  viewer: [role("viewer")],
  member: [role("member")],
  noAccess: [role("no-access")],
  ciReader: [role("custom", { customRoleId: ciReader.id })],
  ownEnvReader: [role("custom", { customRoleId: ownEnvReader.id })],
  devWriter: [role("custom", { customRoleId: devWriter.id })],
  expired: [role("viewer", { temporaryAccessEndTime: new Date(Date.now() - HOUR).toISOString() })],
  current: [role("viewer", { temporaryAccessEndTime: new Date(Date.now() + HOUR).toISOString() })],
  notYetStarted: [
    role("viewer", {
      temporaryAccessStartTime: new Date(Date.now() + HOUR).toISOString(),
      temporaryAccessEndTime: new Date(Date.now() + 2 * HOUR).toISOString(),
    }),
  ],
  outsider: null,
};

const tokenOf = (name: string) => `test-access-token-${name}`;

/** The default fixtures plus one identity per entry of `members`, each with a static token. */
function accessSeed(): StoreSnapshot {
  const seed = seedFromFixtures(undefined);
  seed.projectRoles = [ciReader, devWriter, ownEnvReader];
  for (const [name, roles] of Object.entries(members)) {
    const id = randomUUID();
    const metadata = [{ id: randomUUID(), key: "env", value: "staging" }];
    seed.identities.push(newIdentity({ id, orgId: FX.orgId, name, role: "member", metadata }, now));
    seed.accessTokens.push({ token: tokenOf(name), identityId: id, expiresAt: null });
    if (roles) {
      const m: StoredIdentityMembership = {
        id: randomUUID(),
        projectId: FX.projectId,
        identityId: id,
        roles,
        createdAt: now,
        updatedAt: now,
      };
      seed.identityMemberships!.push(m);
    }
  }
  return seed;
}

let dir: string;
let emu: RunningEmulator;
let api: Api;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "emu-access-"));
  const file = join(dir, "access.json");
  writeFileSync(file, JSON.stringify({ ...accessSeed(), auditLogs: [] }));
  ({ emu, api } = await start({ data: file }));
  // The admin (the fixture's default identity) makes the places and secrets the others try.
  for (const [environment, path, name] of [
    ["prod", "/app", "web"],
    ["prod", "/", "other"],
  ] as const) {
    expect((await api.post(folders, { projectId: FX.projectId, environment, path, name })).status).toBe(200);
  }
  for (const [environment, secretPath, key] of [
    ["prod", "/app/web", "WEB_KEY"],
    ["prod", "/other", "OTHER_KEY"],
    ["staging", "/app", "STAGING_KEY"],
    ["dev", "/app/db", "DB_KEY"],
  ] as const) {
    const body = { projectId: FX.projectId, environment, secretPath, secretValue: `${key}-value` };
    expect((await api.post(`${secrets}/${key}`, body)).status).toBe(200);
  }
});

afterAll(async () => {
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

const as = (name: string) => ({ token: tokenOf(name) });
const place = (environment: string, secretPath: string) => ({ projectId: FX.projectId, environment, secretPath });
const list = (name: string, environment: string, secretPath: string) =>
  api.get(secrets, { query: place(environment, secretPath), ...as(name) });
const read = (name: string, key: string, environment: string, secretPath: string) =>
  api.get(`${secrets}/${key}`, { query: place(environment, secretPath), ...as(name) });
const create = (name: string, key: string, environment: string, secretPath: string) =>
  api.post(`${secrets}/${key}`, { ...place(environment, secretPath), secretValue: "v" }, as(name));

/** CASL's refusal: `PermissionDenied`, the action and subject in the message, the caller's rules in `details`. */
function expectDenied(res: Res, action: string, subject: string, details: unknown[] = []): void {
  expectError(res, 403, "PermissionDenied", `You are not allowed to ${action} on ${subject}`);
  expect(res.body.details).toEqual(details);
}

describe("built-in roles (default-roles.ts)", () => {
  test("admin: the fixture's default identity may do everything in its projects", async () => {
    const key = uniq("ADMIN").toUpperCase().replace(/-/g, "_");
    expect((await api.post(`${secrets}/${key}`, { ...place("prod", "/"), secretValue: "v" })).status).toBe(200);
    expect((await api.delete(`${secrets}/${key}`, { body: place("prod", "/") })).status).toBe(200);
    const env = await api.post(apiPaths.projectEnvironments(FX.projectId), { name: "QA", slug: uniq("qa") });
    expect(env.status).toBe(200);
    expect((await api.delete(`${apiPaths.projectEnvironments(FX.projectId)}/${env.body.environment.id}`)).status).toBe(
      200,
    );
  });

  test("viewer: reads secrets, folders and environments; writes nothing", async () => {
    const listed = await list("viewer", "prod", "/app/web");
    expect(listed.status).toBe(200);
    expect(listed.body.secrets.map((s: Json) => [s.secretKey, s.secretValue])).toEqual([["WEB_KEY", "WEB_KEY-value"]]);
    expect((await api.get(folders, { query: { ...place("prod", "/"), path: "/" }, ...as("viewer") })).status).toBe(200);
    expectDenied(await create("viewer", "NEW", "prod", "/app/web"), "create", "secrets");
    expectDenied(
      await api.post(folders, { projectId: FX.projectId, environment: "dev", name: "x" }, as("viewer")),
      "create",
      "secret-folders",
    );
    expectDenied(
      await api.post(apiPaths.projectEnvironments(FX.projectId), { name: "QA", slug: "qa-viewer" }, as("viewer")),
      "create",
      "environments",
    );
    expectDenied(
      await api.patch(`${apiPaths.projects}/${FX.projectId}`, { description: "x" }, as("viewer")),
      "edit",
      "settings",
    );
  });

  test("member: writes secrets and environments; may not delete the project", async () => {
    const key = uniq("MEMBER").toUpperCase().replace(/-/g, "_");
    expect((await create("member", key, "dev", "/app")).status).toBe(200);
    expect((await api.delete(`${secrets}/${key}`, { body: place("dev", "/app"), ...as("member") })).status).toBe(200);
    const env = await api.post(
      apiPaths.projectEnvironments(FX.projectId),
      { name: "QA", slug: uniq("qa") },
      as("member"),
    );
    expect(env.status).toBe(200);
    expectDenied(await api.delete(`${apiPaths.projects}/${FX.projectId}`, as("member")), "delete", "workspace");
  });

  test("no-access: a member that may do nothing but see the project", async () => {
    expect((await api.get(`${apiPaths.projects}/${FX.projectId}`, as("noAccess"))).status).toBe(200);
    expectDenied(await list("noAccess", "dev", "/app"), "describeSecret", "secrets");
    expectDenied(await create("noAccess", "X", "dev", "/app"), "create", "secrets");
  });
});

describe("a project's identities and their login methods (identity-ua-service.ts)", () => {
  test("a member may attach a method but not revoke it nor read its client secrets", async () => {
    const made = await api.post(apiPaths.projectIdentities.replace(":projectId", FX.projectId), { name: uniq("ci") });
    expect(made.status).toBe(200);
    const ua = apiPaths.identityAuth("universal-auth").replace(":identityId", made.body.identity.id);
    expect((await api.post(ua, {}, as("member"))).status).toBe(200);
    expectDenied(await api.get(`${ua}/client-secrets`, as("member")), "get-token", "identity");
    expectDenied(await api.delete(ua, as("member")), "revoke-auth", "identity");
    expectDenied(await api.post(ua, {}, as("viewer")), "edit", "identity");
    expect((await api.delete(ua)).status).toBe(200);
  });
});

describe("custom roles: conditions on environment and secret path", () => {
  test("$eq and $glob: reads prod under /app/** and nothing else", async () => {
    const got = await read("ciReader", "WEB_KEY", "prod", "/app/web");
    expect(got.status).toBe(200);
    expect(got.body.secret).toMatchObject({ secretKey: "WEB_KEY", secretValue: "WEB_KEY-value" });
    expect((await list("ciReader", "prod", "/app/web")).body.secrets).toHaveLength(1);
    expectDenied(await create("ciReader", "NEW", "prod", "/app/web"), "create", "secrets");
    expectDenied(await list("ciReader", "dev", "/app"), "describeSecret", "secrets");
    expectDenied(await read("ciReader", "OTHER_KEY", "prod", "/other"), "describeSecret", "secrets");
    // Folders are another subject, which the role does not name.
    expectDenied(
      await api.get(folders, { query: { ...place("prod", "/"), path: "/app" }, ...as("ciReader") }),
      "read",
      "secret-folders",
    );
  });

  test("$in and $ne: dev and staging except /app/db; a refusal lists the caller's conditioned rules", async () => {
    expect((await list("devWriter", "staging", "/app")).body.secrets.map((s: Json) => s.secretKey)).toEqual([
      "STAGING_KEY",
    ]);
    const key = uniq("DEV").toUpperCase().replace(/-/g, "_");
    expect((await create("devWriter", key, "dev", "/app")).status).toBe(200);
    const rule = {
      action: ["describeSecret", "readValue", "create"],
      inverted: false,
      subject: "secrets",
      conditions: devWriterConditions,
    };
    expectDenied(await list("devWriter", "dev", "/app/db"), "describeSecret", "secrets", [rule]);
    expectDenied(await create("devWriter", "NEW", "prod", "/app"), "create", "secrets", [rule]);
    expectDenied(await list("devWriter", "prod", "/app"), "describeSecret", "secrets", [rule]);
  });
  test("{{identity.metadata.<key>}} in a condition is the identity's own value", async () => {
    expect((await list("ownEnvReader", "staging", "/app")).body.secrets.map((s: Json) => s.secretKey)).toEqual([
      "STAGING_KEY",
    ]);
    expectDenied(await list("ownEnvReader", "prod", "/app/web"), "describeSecret", "secrets");
  });
});

describe("temporary roles (permission-service.ts getProjectPermission)", () => {
  test("a role past its end time grants nothing; the identity stays a member", async () => {
    expectDenied(await list("expired", "prod", "/app/web"), "describeSecret", "secrets");
    expect((await api.get(`${apiPaths.projects}/${FX.projectId}`, as("expired"))).status).toBe(200);
  });

  test("a role before its end time grants its rules", async () => {
    expect((await list("current", "prod", "/app/web")).status).toBe(200);
  });

  test("the service looks at the end time only, not the start", async () => {
    expect((await list("notYetStarted", "prod", "/app/web")).status).toBe(200);
  });
});

describe("non-members", () => {
  test("the service's 403 body, and the project is not listed", async () => {
    expectNotMember(await list("outsider", "prod", "/app/web"));
    expectNotMember(await api.get(`${apiPaths.projects}/${FX.projectId}`, as("outsider")));
    const listed = await api.get(apiPaths.projects, as("outsider"));
    expect(listed.body.projects.map((p: Json) => p.id)).not.toContain(FX.projectId);
  });

  test("a project's creator becomes its admin; the others are not members", async () => {
    const created = await api.post(
      apiPaths.projects,
      { projectName: uniq("made-by-viewer"), type: "secret-manager" },
      as("viewer"),
    );
    expect(created.status).toBe(200);
    const id = created.body.project.id as string;
    const body = { projectId: id, environment: "dev", secretPath: "/", secretValue: "v" };
    expect((await api.post(`${secrets}/MINE`, body, as("viewer"))).status).toBe(200);
    expect((await api.delete(`${apiPaths.projects}/${id}`, as("viewer"))).status).toBe(200);
    const other = await api.post(apiPaths.projects, { projectName: uniq("made-by-viewer") }, as("viewer"));
    expectNotMember(await api.get(`${apiPaths.projects}/${other.body.project.id}`));
  });
});

describe("older data files", () => {
  test("identities' projectIds stand for admin memberships when the file has none", async () => {
    const seed = seedFromFixtures(undefined);
    const { identityMemberships: _none, ...old } = seed;
    old.identities[0] = { ...old.identities[0]!, projectIds: [FX.projectId] };
    const file = join(dir, "old.json");
    writeFileSync(file, JSON.stringify({ ...old, auditLogs: [] }));
    const e = await start({ data: file });
    try {
      expect((await e.api.post(`${secrets}/OLD`, { ...place("prod", "/"), secretValue: "v" })).status).toBe(200);
      expectNotMember(await e.api.get(`${apiPaths.projects}/${FX.pkiProjectId}`));
    } finally {
      await e.emu.stop();
    }
  });
});
