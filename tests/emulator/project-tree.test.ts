import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectEnvelope, ProjectEnvironmentEnvelope, apiPaths } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { seedFromFixtures } from "../../emulator/fixtures";
import { FX, expect422, expectError, start, uniq, waitFor, expectNotMember, type Api, type Json } from "./helpers";
import {
  akvSyncs,
  auditOf,
  createFolder,
  createProject,
  createSecret,
  folders,
  mysqlRotations,
  projects,
  rotationBody,
  secrets,
  syncBody,
} from "./tree-objects";

/**
 * Projects and environments over HTTP (docs/service-api.md §10): create with the default
 * environments, the caller's membership, slugs, delete protection, what a delete takes with it,
 * and persistence of the whole tree. Folders and secrets: folders-secrets.test.ts; CAs and
 * policies: certificate-authorities.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const environments = (projectId: string) => apiPaths.projectEnvironments(projectId);
const envIdOf = (p: Json, slug: string): string => p.environments.find((e: Json) => e.slug === slug).id;

describe("projects", () => {
  test("create: a slug from the name, dev/staging/prod with root folders, the caller a member, audited", async () => {
    const res = await api.post(projects, { projectName: "My Project", projectDescription: " about it " });
    expect(res.status).toBe(200);
    const p = ProjectEnvelope.parse(res.body).project;
    expect(p).toMatchObject({
      name: "My Project",
      description: "about it",
      orgId: FX.orgId,
      type: "secret-manager",
      hasDeleteProtection: false,
    });
    expect(res.body.project._id).toBe(p.id);
    expect(p.slug).toMatch(/^my-project-[a-z0-9]{4}$/);
    expect(p.environments!.map((e) => [e.name, e.slug])).toEqual([
      ["Development", "dev"],
      ["Staging", "staging"],
      ["Production", "prod"],
    ]);
    // The creator can use it at once: reads, and each environment's root folder takes secrets.
    expect((await api.get(`${projects}/${p.id}`)).body.project).toEqual(res.body.project);
    for (const environment of ["dev", "staging", "prod"])
      await createSecret(api, { projectId: p.id, environment, secretPath: "/" }, "K", "v");
    expect((await api.get(projects)).body.projects.map((x: Json) => x.id)).toContain(p.id);
    const [event] = await auditOf(api, p.id, "create-project");
    expect(event.event.metadata).toMatchObject({ projectId: p.id, name: "My Project", slug: p.slug });
  });

  test("create: a given slug, no environments, kmsKeyId and delete protection stored", async () => {
    const slug = uniq("given");
    const p = await createProject(api, {
      slug,
      shouldCreateDefaultEnvs: false,
      kmsKeyId: "kms-1",
      hasDeleteProtection: true,
      type: "cert-manager",
    });
    expect(p).toMatchObject({ slug, environments: [], hasDeleteProtection: true, type: "cert-manager" });
    expect((await api.get(projects, { query: { type: "cert-manager" } })).body.projects.map((x: Json) => x.id)).toEqual(
      expect.arrayContaining([p.id]),
    );
    const secretManagers = (await api.get(projects, { query: { type: "secret-manager" } })).body.projects;
    expect(secretManagers.map((x: Json) => x.id)).not.toContain(p.id);
    expect(secretManagers.map((x: Json) => x.id)).toContain(FX.projectId);
  });

  test("create: a slug taken in the organization, a named template, a bad slug", async () => {
    expectError(
      await api.post(projects, { projectName: "x", slug: "emulator-project" }),
      400,
      "BadRequest",
      'A project with the slug "emulator-project" already exists in your organization. Please choose a different name or slug.',
    );
    expectError(
      await api.post(projects, { projectName: "x", template: "my-template" }),
      404,
      "NotFound",
      'Could not find project template with Name "my-template"',
    );
    expect((await api.post(projects, { projectName: "x", template: "default" })).status).toBe(200);
    expect422(await api.post(projects, { projectName: "x", slug: "abc" }), ["slug"]);
  });

  test("the read by slug answers the project alone; unknown ids and slugs, other projects", async () => {
    const p = await createProject(api);
    const bySlug = await api.get(`${projects}/slug/${p.slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual(p);
    expectError(await api.get(`${projects}/slug/no-such-project`), 404, "NotFound");
    const unknown = "00000000-0000-4000-8000-00000000dead";
    expectError(await api.get(`${projects}/${unknown}`), 404, "NotFound", `Project with ID '${unknown}' not found`);
    expectNotMember(await api.get(`${projects}/${FX.restrictedProjectId}`));
    expect((await api.get(projects)).body.projects.map((x: Json) => x.id)).not.toContain(FX.restrictedProjectId);
  });

  test("PATCH: name, description, slug and flags; a slug taken refused", async () => {
    const p = await createProject(api);
    const slug = `${uniq("renamed")}_x`;
    const res = await api.patch(`${projects}/${p.id}`, {
      name: "Renamed",
      description: "new",
      slug,
      autoCapitalization: true,
      hasDeleteProtection: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({
      name: "Renamed",
      description: "new",
      slug,
      autoCapitalization: true,
      hasDeleteProtection: true,
    });
    expect(res.body.project).not.toHaveProperty("environments");
    expectError(
      await api.patch(`${projects}/${p.id}`, { slug: "emulator-project" }),
      400,
      "BadRequest",
      'Failed to update project. A project with the slug "emulator-project" already exists in your organization. Please choose a different slug.',
    );
    expect((await auditOf(api, p.id, "update-project")).length).toBe(1);
  });

  test("DELETE: refused under delete protection, then deleted; unknown after", async () => {
    const p = await createProject(api, { hasDeleteProtection: true });
    expectError(await api.delete(`${projects}/${p.id}`), 403, "ForbiddenError", "Project delete protection is enabled");
    await api.patch(`${projects}/${p.id}`, { hasDeleteProtection: false });
    const res = await api.delete(`${projects}/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ id: p.id, slug: p.slug });
    expectError(await api.get(`${projects}/${p.id}`), 404, "NotFound", `Project with ID '${p.id}' not found`);
    expect((await api.get(projects)).body.projects.map((x: Json) => x.id)).not.toContain(p.id);
    expect((await auditOf(api, p.id, "delete-project")).length).toBe(1);
  });

  test("DELETE takes everything in the project with it", async () => {
    const p = await createProject(api);
    const pki = await createProject(api, { type: "cert-manager" });
    const place = { projectId: p.id, environment: "dev", secretPath: "/app" };
    await createFolder(api, { projectId: p.id, environment: "dev", name: "app" });
    await createSecret(api, place, "IN_PROJECT", "v");
    const sync = (await api.post(akvSyncs, syncBody(p.id, "dev", "/app"))).body.secretSync;
    const rotation = (await api.post(mysqlRotations, rotationBody(p.id, "dev", "/app"))).body.secretRotation;
    const policy = (await api.post(apiPaths.certificatePolicies, { projectId: pki.id, name: "p" })).body
      .certificatePolicy;
    const ca = (
      await api.post(apiPaths.internalCertificateAuthorities, {
        projectId: pki.id,
        name: "root",
        configuration: { type: "root", commonName: "root", notAfter: "2040-01-01T00:00:00Z" },
      })
    ).body;
    const profile = (
      await api.post(apiPaths.certificateProfiles, {
        projectId: pki.id,
        certificatePolicyId: policy.id,
        caId: ca.id,
        slug: "prof",
        enrollmentType: "acme",
      })
    ).body.certificateProfile;
    const pg = FX.connection("postgres");
    const connection = (
      await api.post(apiPaths.appConnections("postgres"), {
        name: uniq("in-project"),
        method: pg.method,
        credentials: pg.credentials,
        projectId: p.id,
      })
    ).body.appConnection;
    for (const x of [sync, rotation, policy, ca, profile, connection]) expect(x?.id).toBeDefined();

    expect((await api.delete(`${projects}/${p.id}`)).status).toBe(200);
    expect((await api.delete(`${projects}/${pki.id}`)).status).toBe(200);
    for (const path of [
      `${akvSyncs}/${sync.id}`,
      `${mysqlRotations}/${rotation.id}`,
      `${apiPaths.certificatePolicies}/${policy.id}`,
      `${apiPaths.internalCertificateAuthorities}/${ca.id}`,
      `${apiPaths.certificateProfiles}/${profile.id}`,
      `${apiPaths.appConnections("postgres")}/${connection.id}`,
    ])
      expect([path, (await api.get(path)).status]).toEqual([path, 404]);
    expectError(await api.get(`${secrets}/IN_PROJECT`, { query: place }), 404, "NotFound");
  });
});

test("a project's type decides what it holds: 400 naming both types, after the 404 and 403", async () => {
  const secrets = await createProject(api);
  const pki = await createProject(api, { type: "cert-manager" });
  const refusal = (type: string, wanted: string) =>
    `The project is of type ${type}. Operations of type ${wanted} are not allowed.`;
  const root = { name: "root", configuration: { type: "root", commonName: "r", notAfter: "2040-01-01T00:00:00Z" } };
  expectError(
    await api.post(apiPaths.internalCertificateAuthorities, { projectId: secrets.id, ...root }),
    400,
    "BadRequest",
    refusal("secret-manager", "cert-manager"),
  );
  expectError(
    await api.post(apiPaths.certificatePolicies, { projectId: secrets.id, name: "p" }),
    400,
    "BadRequest",
    refusal("secret-manager", "cert-manager"),
  );
  expectError(
    await api.post(environments(pki.id), { name: "QA", slug: "qa" }),
    400,
    "BadRequest",
    refusal("cert-manager", "secret-manager"),
  );
  expectError(
    await api.post(folders, { projectId: pki.id, environment: "dev", name: "app" }),
    400,
    "BadRequest",
    refusal("cert-manager", "secret-manager"),
  );
  expectError(
    await api.post(akvSyncs, syncBody(pki.id, "dev", "/")),
    400,
    "BadRequest",
    refusal("cert-manager", "secret-manager"),
  );
  // The type is checked before the membership (`getProjectPermission`, docs/service-api.md §20):
  // a project of another type is 400 even to a non-member, one of the right type 403.
  expectError(
    await api.post(apiPaths.certificatePolicies, { projectId: FX.restrictedProjectId, name: "p" }),
    400,
    "BadRequest",
    refusal("secret-manager", "cert-manager"),
  );
  expectError(
    await api.post(folders, { projectId: FX.restrictedPkiProjectId, environment: "dev", name: "app" }),
    400,
    "BadRequest",
    refusal("cert-manager", "secret-manager"),
  );
  expectNotMember(await api.post(folders, { projectId: FX.restrictedProjectId, environment: "dev", name: "app" }));
  // App connections take a project of any type.
  const pg = FX.connection("postgres");
  const body = { name: uniq("in-pki"), method: pg.method, credentials: pg.credentials, projectId: pki.id };
  expect((await api.post(apiPaths.appConnections("postgres"), body)).status).toBe(200);
});

describe("environments", () => {
  test("create goes last with a root folder; a place asked for moves the others along", async () => {
    const p = await createProject(api);
    const res = await api.post(environments(p.id), { name: "QA", slug: "qa" });
    expect(res.status).toBe(200);
    const created = ProjectEnvironmentEnvelope.parse(res.body);
    expect(created).toMatchObject({
      message: "Successfully created new environment",
      projectId: p.id,
      environment: { name: "QA", slug: "qa", position: 4, projectId: p.id },
    });
    await createSecret(api, { projectId: p.id, environment: "qa" }, "AT_ROOT", "v");
    const first = (await api.post(environments(p.id), { name: "First", slug: "first", position: 1 })).body.environment;
    expect(first.position).toBe(1);
    const project = (await api.get(`${projects}/${p.id}`)).body.project;
    expect(project.environments.map((e: Json) => e.slug)).toEqual(["first", "dev", "staging", "prod", "qa"]);
    const dev = (await api.get(`${environments(p.id)}/${envIdOf(p, "dev")}`)).body.environment;
    expect(dev.position).toBe(2);
    expect((await auditOf(api, p.id, "create-environment")).length).toBe(2);
  });

  test("a slug taken, an unknown environment, another project's", async () => {
    const p = await createProject(api);
    expectError(
      await api.post(environments(p.id), { name: "Dev again", slug: "dev" }),
      400,
      "BadRequest",
      "Environment with slug already exists",
    );
    const unknown = "00000000-0000-4000-8000-00000000beef";
    expectError(
      await api.get(`${environments(p.id)}/${unknown}`),
      404,
      "NotFound",
      `Environment with id '${unknown}' in project with ID '${p.id}' not found`,
    );
    const dev = envIdOf(p, "dev");
    expectError(await api.get(`${environments(FX.projectId)}/${dev}`), 404, "NotFound");
    expectNotMember(await api.get(`${environments(FX.restrictedProjectId)}/${dev}`));
    expect((await api.get(`${environments(p.id)}/${dev}`)).body).toEqual({
      environment: expect.objectContaining({ id: dev, slug: "dev", name: "Development", position: 1 }),
    });
    expect((await auditOf(api, p.id, "get-environment")).length).toBe(1);
  });

  test("PATCH: name, slug and place; a slug taken refused; syncs follow the slug", async () => {
    const p = await createProject(api);
    const prod = envIdOf(p, "prod");
    const sync = (await api.post(akvSyncs, syncBody(p.id, "prod", "/"))).body.secretSync;
    const res = await api.patch(`${environments(p.id)}/${prod}`, { name: "Live", slug: "live", position: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: "Successfully updated environment",
      projectId: p.id,
      environment: { id: prod, name: "Live", slug: "live", position: 1 },
    });
    const project = (await api.get(`${projects}/${p.id}`)).body.project;
    expect(project.environments.map((e: Json) => e.slug)).toEqual(["live", "dev", "staging"]);
    expect((await api.get(`${akvSyncs}/${sync.id}`)).body.secretSync.environment).toMatchObject({ slug: "live" });
    expectError(
      await api.patch(`${environments(p.id)}/${prod}`, { slug: "dev" }),
      400,
      "BadRequest",
      "Environment with slug already exists",
    );
    // Back to the end: the others move up again.
    await api.patch(`${environments(p.id)}/${prod}`, { position: 3 });
    const again = (await api.get(`${projects}/${p.id}`)).body.project;
    expect(again.environments.map((e: Json) => e.slug)).toEqual(["dev", "staging", "live"]);
  });

  test("DELETE takes folders and secrets; syncs and rotations stay with no folder, and the sync job fails", async () => {
    const p = await createProject(api);
    const staging = envIdOf(p, "staging");
    const place = { projectId: p.id, environment: "staging", secretPath: "/deep/er" };
    const folder = await createFolder(api, { projectId: p.id, environment: "staging", name: "er", path: "/deep" });
    await createSecret(api, place, "GONE", "v");
    const sync = (await api.post(akvSyncs, syncBody(p.id, "staging", "/deep/er"))).body.secretSync;
    const rotation = (await api.post(mysqlRotations, rotationBody(p.id, "staging", "/deep/er"))).body.secretRotation;

    const res = await api.delete(`${environments(p.id)}/${staging}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: "Successfully deleted environment",
      projectId: p.id,
      environment: { id: staging, slug: "staging" },
    });
    expectError(await api.get(`${environments(p.id)}/${staging}`), 404, "NotFound");
    expectError(await api.get(`${folders}/${folder.id}`), 404, "NotFound");
    expectError(await api.get(`${secrets}/GONE`, { query: place }), 404, "NotFound");
    const orphan = (await api.get(`${akvSyncs}/${sync.id}`)).body.secretSync;
    expect(orphan).toMatchObject({ folderId: null, folder: null, environment: null });
    expect((await api.get(`${mysqlRotations}/${rotation.id}`)).body.secretRotation).toMatchObject({ folderId: null });
    await api.post(`${akvSyncs}/${sync.id}/sync-secrets`);
    const failed = await waitFor(
      async () => (await api.get(`${akvSyncs}/${sync.id}`)).body.secretSync,
      (s) => s.syncStatus === "failed",
    );
    expect(failed.lastSyncMessage).toBe(
      "Invalid Secret Sync source configuration: folder no longer exists. Please update source environment and secret path.",
    );
    expect((await auditOf(api, p.id, "delete-environment")).length).toBe(1);
  });
});

describe("persistence (--data)", () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-tree-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the tree survives a restart: projects, environments, folders, secrets, CAs, policies, pushes", async () => {
    const file = join(dir, "tree.json");
    const first = await start({ data: file });
    const a = first.api;
    const p = await createProject(a);
    const pki = await createProject(a, { type: "cert-manager" });
    await a.post(environments(p.id), { name: "QA", slug: "qa", position: 2 });
    const folder = await createFolder(a, { projectId: p.id, environment: "qa", name: "db", path: "/app" });
    const place = { projectId: p.id, environment: "qa", secretPath: "/app/db" };
    const secret = await createSecret(a, place, "DB_URL", "postgres://canary-persisted");
    const root = (
      await a.post(apiPaths.internalCertificateAuthorities, {
        projectId: pki.id,
        name: "root",
        configuration: { type: "root", commonName: "root", notAfter: "2040-01-01T00:00:00Z" },
      })
    ).body;
    const policy = (
      await a.post(apiPaths.certificatePolicies, { projectId: pki.id, name: "p", validity: { max: "1y" } })
    ).body.certificatePolicy;
    const sync = (await a.post(akvSyncs, syncBody(p.id, "qa", "/app/db", { isAutoSyncEnabled: true }))).body.secretSync;
    const { EmulatorAdmin } = await import("../../emulator");
    const pushed = await waitFor(
      () => new EmulatorAdmin(first.emu.url).pushedSecrets(sync.id),
      (x) => x !== undefined,
    );
    const before = {
      project: (await a.get(`${projects}/${p.id}`)).body,
      folder: (await a.get(`${folders}/${folder.id}`)).body,
      secret: (await a.get(`${secrets}/DB_URL`, { query: place })).body,
      ca: (await a.get(`${apiPaths.internalCertificateAuthorities}/${root.id}`)).body,
      csr: (await a.get(`${apiPaths.internalCertificateAuthorities}/${root.id}/csr`)).status,
      policy: (await a.get(`${apiPaths.certificatePolicies}/${policy.id}`)).body,
    };
    expect(before.secret.secret).toMatchObject({ id: secret.id, secretValue: "postgres://canary-persisted" });
    await first.emu.stop();

    const second = await start({ data: file });
    try {
      const b = second.api;
      expect((await b.get(`${projects}/${p.id}`)).body).toEqual(before.project);
      expect((await b.get(`${folders}/${folder.id}`)).body).toEqual(before.folder);
      expect((await b.get(`${secrets}/DB_URL`, { query: place })).body).toEqual(before.secret);
      expect((await b.get(`${apiPaths.internalCertificateAuthorities}/${root.id}`)).body).toEqual(before.ca);
      expect((await b.get(`${apiPaths.certificatePolicies}/${policy.id}`)).body).toEqual(before.policy);
      expect(await new EmulatorAdmin(second.emu.url).pushedSecrets(sync.id)).toEqual(pushed);
      // The root still signs: its key survived too.
      const inter = (
        await b.post(apiPaths.internalCertificateAuthorities, {
          projectId: pki.id,
          name: "inter",
          configuration: { type: "intermediate", commonName: "inter" },
        })
      ).body;
      const { csr } = (await b.get(`${apiPaths.internalCertificateAuthorities}/${inter.id}/csr`)).body;
      const signed = await b.post(`${apiPaths.internalCertificateAuthorities}/${root.id}/sign-intermediate`, {
        csr,
        notAfter: "2035-01-01T00:00:00Z",
      });
      expect(signed.status).toBe(200);
    } finally {
      await second.emu.stop();
    }
  });

  test("a data file of an older emulator (no positions, folder names, secret ids, CA configurations) loads", async () => {
    const seed = seedFromFixtures(undefined);
    const old = {
      ...seed,
      projects: seed.projects.map(({ id, orgId, name, slug, type }) => ({ id, orgId, name, slug, type })),
      environments: seed.environments.map(({ id, projectId, name, slug }) => ({ id, projectId, name, slug })),
      folders: seed.folders.map(({ id, projectId, environmentId, path }) => ({ id, projectId, environmentId, path })),
      secrets: seed.secrets.map(({ folderId, key, value }) => ({ folderId, key, value })),
      certificateAuthorities: seed.certificateAuthorities.map(({ id, projectId, name, type }) => ({
        id,
        projectId,
        name,
        type,
      })),
      certificatePolicies: seed.certificatePolicies.map(({ id, projectId, name }) => ({ id, projectId, name })),
      auditLogs: [],
    };
    const file = join(dir, "old.json");
    writeFileSync(file, JSON.stringify(old));
    const { emu: e, api: b } = await start({ data: file });
    try {
      const { environment, secretPath, key } = FX.existingSecret;
      const got = await b.get(`${secrets}/${key}`, { query: { projectId: FX.projectId, environment, secretPath } });
      expect(got.body.secret).toMatchObject({ secretKey: key, secretValue: "existing-value", version: 1 });
      const listed = await b.get(folders, { query: { projectId: FX.projectId, environment: "dev", path: "/app" } });
      expect(listed.body.folders.map((f: Json) => f.name)).toEqual(["db"]);
      const project = (await b.get(`${projects}/${FX.projectId}`)).body.project;
      expect(project.environments.map((x: Json) => x.slug)).toEqual(["dev", "staging", "prod"]);
      const ca = (await b.get(`${apiPaths.internalCertificateAuthorities}/${FX.internalCaId}`)).body;
      expect(ca).toMatchObject({ status: "active", configuration: { type: "root" } });
      const policy = (await b.get(`${apiPaths.certificatePolicies}/${FX.policyId}`)).body.certificatePolicy;
      expect(policy).toMatchObject({ name: "emulator-policy", subject: null });
    } finally {
      await e.stop();
    }
  });
});
