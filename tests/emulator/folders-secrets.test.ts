import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { SecretEnvelope, SecretFolderEnvelope, SecretListEnvelope, apiPaths } from "../../sdk/schemas";
import { EmulatorAdmin, type RunningEmulator } from "../../emulator";
import { FX, expect422, expectError, start, uniq, waitFor, expectNotMember, type Api, type Json } from "./helpers";
import {
  akvSyncs,
  auditOf,
  createFolder,
  createProject,
  createSecret,
  folders,
  mysqlRotations,
  rotationBody,
  secrets,
  syncBody,
} from "./tree-objects";

/**
 * Folders and secrets over HTTP (docs/service-api.md §11, §12): paths and the parents a create
 * makes, renames and forced deletes, secret values (returned, hidden on request, never audited,
 * logged or in errors), and what a sync job pushed.
 */

const logLines: string[] = [];
let emu: RunningEmulator;
let api: Api;
let admin: EmulatorAdmin;
let projectId: string;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  ({ emu, api } = await start({ logger: { level: "trace", stream } }));
  admin = new EmulatorAdmin(emu.url);
  projectId = (await createProject(api)).id;
});
afterAll(() => emu.stop());

const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");
const dev = () => ({ projectId, environment: "dev" });
const list = async (path: string, recursive?: boolean) =>
  (await api.get(folders, { query: { ...dev(), path, recursive } })).body.folders as Json[];

describe("folders", () => {
  test("create makes the missing parents and answers the folder with its path; the root is never listed", async () => {
    const res = await api.post(folders, { ...dev(), name: "c", path: "/a/b", description: "leaf" });
    expect(res.status).toBe(200);
    const c = SecretFolderEnvelope.parse(res.body).folder;
    expect(c).toMatchObject({ name: "c", path: "/a/b/c", description: "leaf", version: 1 });
    expect((await list("/")).map((f) => f.name)).toEqual(["a"]);
    expect((await list("/a")).map((f) => [f.name, f.parentId])).toEqual([["b", expect.any(String)]]);
    expect((await list("/a/b"))[0]).toMatchObject({ id: c.id, name: "c", envId: c.envId });
    expect((await list("/a/b"))[0]).not.toHaveProperty("path");
    expect((await list("/", true)).map((f) => [f.name, f.relativePath])).toEqual([
      ["a", "/a"],
      ["b", "/a/b"],
      ["c", "/a/b/c"],
    ]);
    expect((await list("/a", true)).map((f) => f.relativePath)).toEqual(["/b", "/b/c"]);
    expect(await list("/no/such/path")).toEqual([]);
    const [event] = await auditOf(api, projectId, "create-folder");
    expect(event.event.metadata).toEqual({ environment: "dev", folderId: c.id, folderName: "c", folderPath: "/a/b/c" });
  });

  test("`recursive` is read as the service's booleanSchema: any string, false if empty, 0 or false", async () => {
    await api.post(folders, { ...dev(), name: "leaf", path: "/flag/mid" });
    const names = async (recursive: string) =>
      ((await api.get(folders, { query: { ...dev(), path: "/flag", recursive } })).body.folders as Json[]).map(
        (f) => f.name,
      );
    // Python clients send `False` and `True`.
    for (const off of ["False", "false", "0", ""]) expect(await names(off)).toEqual(["mid"]);
    for (const on of ["True", "true", "1", "yes"]) expect(await names(on)).toEqual(["mid", "leaf"]);
  });

  test("create: a name taken, an unknown environment, a bad name, another project", async () => {
    await createFolder(api, { ...dev(), name: "taken" });
    expectError(
      await api.post(folders, { ...dev(), name: "taken", path: "/" }),
      400,
      "BadRequest",
      "Folder with name 'taken' already exists in path '/'",
    );
    expectError(
      await api.post(folders, { projectId, environment: "nope", name: "x" }),
      404,
      "NotFound",
      `Environment with slug 'nope' in project with ID '${projectId}' not found`,
    );
    expect422(await api.post(folders, { ...dev(), name: "a b" }), ["name"]);
    expectNotMember(await api.post(folders, { projectId: FX.restrictedProjectId, environment: "dev", name: "x" }));
  });

  test("the read by id joins the environment, the project and the path", async () => {
    const f = await createFolder(api, { ...dev(), name: "leaf", path: "/read/by/id" });
    const res = await api.get(`${folders}/${f.id}`);
    expect(res.body.folder).toMatchObject({
      id: f.id,
      name: "leaf",
      path: "/read/by/id/leaf",
      projectId,
      environment: { envSlug: "dev", envName: "Development", envId: f.envId },
    });
    expectError(await api.get(`${folders}/not-a-folder`), 404, "NotFound", "Folder with ID 'not-a-folder' not found");
  });

  test("PATCH renames a folder (by id or name) and its subfolders' paths follow", async () => {
    const top = await createFolder(api, { ...dev(), name: "old", path: "/ren" });
    const deep = await createFolder(api, { ...dev(), name: "deep", path: "/ren/old/mid" });
    await createSecret(api, { ...dev(), secretPath: "/ren/old/mid/deep" }, "DEEP", "v");
    await createFolder(api, { ...dev(), name: "other", path: "/ren" });
    const res = await api.patch(`${folders}/${top.id}`, { ...dev(), name: "new", path: "/ren", description: "d" });
    expect(res.status).toBe(200);
    expect(res.body.folder).toMatchObject({ id: top.id, name: "new", path: "/ren/new", description: "d" });
    expect((await api.get(`${folders}/${deep.id}`)).body.folder.path).toBe("/ren/new/mid/deep");
    const moved = await api.get(`${secrets}/DEEP`, { query: { ...dev(), secretPath: "/ren/new/mid/deep" } });
    expect(moved.body.secret.secretValue).toBe("v");
    // By name, as the service's fallback for the CLI.
    expect((await api.patch(`${folders}/new`, { ...dev(), name: "newer", path: "/ren" })).body.folder.path).toBe(
      "/ren/newer",
    );
    expectError(
      await api.patch(`${folders}/${top.id}`, { ...dev(), name: "other", path: "/ren" }),
      400,
      "BadRequest",
      "Folder with specified name already exists",
    );
    expectError(
      await api.patch(`${folders}/${top.id}`, { ...dev(), name: "x", path: "/nowhere" }),
      404,
      "NotFound",
      "Folder with path '/nowhere' in environment with slug 'dev' not found",
    );
    expectError(await api.patch(`${folders}/${top.id}`, { ...dev(), name: "x", path: "/" }), 404, "NotFound");
    const [event] = await auditOf(api, projectId, "update-folder");
    expect(event.event.metadata).toMatchObject({ folderId: top.id, oldFolderName: "new", newFolderName: "newer" });
  });

  test("DELETE: a folder holding things needs forceDelete, and then takes them with it", async () => {
    const box = await createFolder(api, { ...dev(), name: "box", path: "/del" });
    const inner = await createFolder(api, { ...dev(), name: "inner", path: "/del/box" });
    await createSecret(api, { ...dev(), secretPath: "/del/box/inner" }, "INNER", "v");
    const body = { ...dev(), path: "/del" };
    expectError(
      await api.delete(`${folders}/box`, { body }),
      400,
      "BadRequest",
      'Cannot delete folder "box" because it contains resources. Use forceDelete=true to delete it forcefully.',
    );
    const res = await api.delete(`${folders}/box`, { body: { ...body, forceDelete: true } });
    expect(res.status).toBe(200);
    expect(res.body.folder).toMatchObject({ id: box.id, name: "box" });
    expectError(await api.get(`${folders}/${inner.id}`), 404, "NotFound");
    expect(await list("/del")).toEqual([]);
    const gone = await api.get(`${secrets}/INNER`, { query: { ...dev(), secretPath: "/del/box/inner" } });
    expectError(gone, 404, "NotFound", "Folder with path '/del/box/inner' in environment with slug 'dev' not found");
    // An empty folder, by id; an unknown one; the root is no folder's child.
    const empty = await createFolder(api, { ...dev(), name: "empty", path: "/del" });
    expect((await api.delete(`${folders}/${empty.id}`, { body })).status).toBe(200);
    expectError(await api.delete(`${folders}/nope`, { body }), 404, "NotFound", "Folder with ID 'nope' not found");
    expectError(await api.delete(`${folders}/root`, { body: { ...dev(), path: "/" } }), 404, "NotFound");
    expect((await auditOf(api, projectId, "delete-folder")).length).toBe(2);
  });
});

describe("secrets", () => {
  const place = () => ({ projectId, environment: "dev", secretPath: "/vals" });
  beforeAll(async () => {
    await createFolder(api, { ...dev(), name: "vals" });
  });

  test("create answers the secret with its value: trimmed, a final newline kept", async () => {
    const res = await api.post(`${secrets}/TRIMMED`, { ...place(), secretValue: "  padded  ", secretComment: " c " });
    expect(res.status).toBe(200);
    const s = SecretEnvelope.parse(res.body).secret;
    expect(s).toMatchObject({
      secretKey: "TRIMMED",
      secretValue: "padded",
      secretValueHidden: false,
      secretComment: "c",
      version: 1,
      type: "shared",
      environment: "dev",
      secretPath: "/vals",
      projectId,
      workspace: projectId,
    });
    expect(res.body.secret).not.toHaveProperty("key");
    const multi = await createSecret(api, place(), "MULTI", "  line1\nline2\n", { skipMultilineEncoding: true });
    expect(multi).toMatchObject({ secretValue: "line1\nline2\n", skipMultilineEncoding: true });
  });

  test("create: a key taken, a folder that does not exist, a bad key", async () => {
    await createSecret(api, place(), "DUP", "first");
    expectError(
      await api.post(`${secrets}/DUP`, { ...place(), secretValue: "second" }),
      400,
      "BadRequest",
      "Secret already exists",
    );
    expectError(
      await api.post(`${secrets}/X`, { ...place(), secretPath: "/missing", secretValue: "v" }),
      404,
      "NotFound",
      "Folder with path '/missing' in environment with slug 'dev' not found",
    );
    expect422(await api.post(`${secrets}/A:B`, { ...place(), secretValue: "v" }), ["secretName"]);
    expectNotMember(
      await api.post(`${secrets}/X`, { projectId: FX.restrictedProjectId, environment: "dev", secretValue: "v" }),
    );
  });

  test("reads return the value unless viewSecretValue=false", async () => {
    const made = await createSecret(api, place(), "READ_ME", "the-value");
    const got = await api.get(`${secrets}/READ_ME`, { query: place() });
    expect(got.body.secret).toMatchObject({ id: made.id, secretValue: "the-value", secretValueHidden: false });
    const hidden = await api.get(`${secrets}/READ_ME`, { query: { ...place(), viewSecretValue: false } });
    expect(hidden.body.secret).toMatchObject({ secretValue: "<hidden-by-infisical>", secretValueHidden: true });
    const listed = SecretListEnvelope.parse((await api.get(secrets, { query: place() })).body).secrets;
    expect(listed.find((s) => s.secretKey === "READ_ME")).toMatchObject({ secretValue: "the-value" });
    const masked = (await api.get(secrets, { query: { ...place(), viewSecretValue: "false" } })).body.secrets;
    expect(masked.every((s: Json) => s.secretValue === "<hidden-by-infisical>" && s.secretValueHidden)).toBe(true);
    expectError(
      await api.get(`${secrets}/NOPE`, { query: place() }),
      404,
      "NotFound",
      "Secret with name 'NOPE' not found",
    );
    const byId = await api.get(`${secrets}/id/${made.id}`);
    expect(byId.body.secret).toMatchObject({ secretKey: "READ_ME", secretValue: "the-value", secretPath: "/vals" });
    expect((await auditOf(api, projectId, "get-secret")).length).toBeGreaterThanOrEqual(3);
    expect((await auditOf(api, projectId, "get-secrets")).length).toBeGreaterThanOrEqual(2);
  });

  // The service's source, read again (docs/service-api.md §12): server/routes/v4/secret-router.ts
  // and services/secret-v2-bridge/secret-v2-bridge-service.ts.
  describe("the service's answers", () => {
    test("a personal secret: 400 to a machine identity, whether or not a shared one has its key", async () => {
      for (const key of ["NO_SHARED", "HAS_SHARED"]) {
        if (key === "HAS_SHARED") await createSecret(api, place(), key, "shared-value");
        expectError(
          await api.post(`${secrets}/${key}`, { ...place(), secretValue: "mine", type: "personal" }),
          400,
          "BadRequest",
          "Must be user to create personal secret",
        );
      }
      const listed = (await api.get(secrets, { query: place() })).body.secrets as Json[];
      expect(listed.filter((x) => x.secretKey === "NO_SHARED")).toEqual([]);
      expect(listed.filter((x) => x.secretKey === "HAS_SHARED")).toMatchObject([{ type: "shared", version: 1 }]);
      // The folder is looked for first, as the service's createSecret does.
      expectError(
        await api.post(`${secrets}/NO_SHARED`, { ...place(), secretPath: "/gone", secretValue: "v", type: "personal" }),
        404,
        "NotFound",
      );
      const shared = await api.post(`${secrets}/SHARED_BY_TYPE`, { ...place(), secretValue: "v", type: "shared" });
      expect(shared.body.secret).toMatchObject({ secretKey: "SHARED_BY_TYPE", type: "shared" });
      expect422(await api.post(`${secrets}/X`, { ...place(), secretValue: "v", type: "team" }), ["type"]);
    });

    test("expandSecretReferences=true expands ${KEY} and ${env.path.KEY}; off (the default) the value is as written", async () => {
      const root = { projectId, environment: "staging", secretPath: "/" };
      await createSecret(api, root, "HOST", "db.internal");
      await createSecret(api, place(), "PORT", "5432");
      await createSecret(api, place(), "ADDR", "${staging.HOST}:${PORT}");
      await createSecret(api, place(), "URL", "postgres://${ADDR}/app?x=${NOT_THERE}");
      await createSecret(api, place(), "SELF", "a${SELF}b");
      const read = async (key: string, query: Record<string, unknown> = {}) =>
        (await api.get(`${secrets}/${key}`, { query: { ...place(), ...query } })).body.secret.secretValue;
      expect(await read("URL")).toBe("postgres://${ADDR}/app?x=${NOT_THERE}");
      expect(await read("URL", { expandSecretReferences: false })).toBe("postgres://${ADDR}/app?x=${NOT_THERE}");
      // Nested references resolve; one to a secret that does not exist stays as written.
      expect(await read("URL", { expandSecretReferences: true })).toBe(
        "postgres://db.internal:5432/app?x=${NOT_THERE}",
      );
      expect(await read("SELF", { expandSecretReferences: true })).toBe("aa${SELF}bb");
      // Values hidden are not expanded.
      const hidden = await read("URL", { expandSecretReferences: true, viewSecretValue: false });
      expect(hidden).toBe("<hidden-by-infisical>");
      const listed = async (query: Record<string, unknown>) =>
        ((await api.get(secrets, { query: { ...place(), ...query } })).body.secrets as Json[]).find(
          (x) => x.secretKey === "ADDR",
        )?.secretValue;
      expect(await listed({})).toBe("${staging.HOST}:${PORT}");
      expect(await listed({ expandSecretReferences: "true" })).toBe("db.internal:5432");
      // The stored value is untouched.
      expect(await read("ADDR")).toBe("${staging.HOST}:${PORT}");
      expect422(await api.get(`${secrets}/URL`, { query: { ...place(), expandSecretReferences: "yes" } }), [
        "expandSecretReferences",
      ]);
    });

    test("a multi-line value kept unencoded comes back expanded on one line, quoted", async () => {
      await createSecret(api, place(), "LINES", "one\ntwo");
      await createSecret(api, place(), "REF_LINES", "[${LINES}]", { skipMultilineEncoding: true });
      const got = await api.get(`${secrets}/REF_LINES`, { query: { ...place(), expandSecretReferences: true } });
      expect(got.body.secret.secretValue).toBe('"[one\\ntwo]"');
    });

    test("a list without environment or project: 400 Missing project id or environment; a read by name: Missing environment", async () => {
      const { environment: _e, ...noEnvironment } = place();
      const { projectId: _p, ...noProject } = place();
      expectError(
        await api.get(secrets, { query: noEnvironment }),
        400,
        "BadRequest",
        "Missing project id or environment",
      );
      expectError(await api.get(secrets, { query: noProject }), 400, "BadRequest", "Missing project id or environment");
      expectError(
        await api.get(secrets, { query: { ...place(), environment: " " } }),
        400,
        "BadRequest",
        "Missing project id or environment",
      );
      expectError(
        await api.get(`${secrets}/READ_ME`, { query: noEnvironment }),
        400,
        "BadRequest",
        "Missing environment",
      );
      // The read by name's schema requires the project.
      expect422(await api.get(`${secrets}/READ_ME`, { query: noProject }), ["projectId"]);
    });

    test("a list of a path that does not exist: 404 SecretPathNotFound, and no audit event", async () => {
      const before = (await auditOf(api, projectId, "get-secrets")).length;
      for (const [environment, secretPath] of [
        ["dev", "/none"],
        ["dev", "/vals/none/"],
        ["no-such-env", "/"],
      ]) {
        const shown = secretPath.length > 1 ? secretPath.replace(/\/$/, "") : secretPath;
        expectError(
          await api.get(secrets, { query: { projectId, environment, secretPath } }),
          404,
          "SecretPathNotFound",
          `Folder with path '${shown}' in environment '${environment}' was not found. Please ensure the environment slug and secret path is correct.`,
        );
      }
      expect((await auditOf(api, projectId, "get-secrets")).length).toBe(before);
      // A folder that exists and holds nothing lists nothing.
      await createFolder(api, { ...dev(), name: "empty" });
      expect((await api.get(secrets, { query: { ...dev(), secretPath: "/empty" } })).body).toEqual({
        secrets: [],
        imports: [],
      });
    });
  });

  test("PATCH: value, comment, encoding and rename, each a new version; a new name taken", async () => {
    await createSecret(api, place(), "PATCHED", "v1");
    await createSecret(api, place(), "OCCUPIED", "x");
    const res = await api.patch(`${secrets}/PATCHED`, { ...place(), secretValue: "v2 ", secretComment: "note" });
    expect(res.body.secret).toMatchObject({ secretValue: "v2", secretComment: "note", version: 2 });
    expectError(
      await api.patch(`${secrets}/PATCHED`, { ...place(), newSecretName: "OCCUPIED" }),
      400,
      "BadRequest",
      "Secret with the new name already exist",
    );
    const renamed = await api.patch(`${secrets}/PATCHED`, {
      ...place(),
      newSecretName: "RENAMED",
      skipMultilineEncoding: false,
    });
    expect(renamed.body.secret).toMatchObject({ secretKey: "RENAMED", secretValue: "v2", version: 3 });
    expectError(await api.get(`${secrets}/PATCHED`, { query: place() }), 404, "NotFound");
    expect((await api.get(`${secrets}/RENAMED`, { query: place() })).body.secret.skipMultilineEncoding).toBe(false);
    expectError(
      await api.patch(`${secrets}/PATCHED`, { ...place(), secretValue: "x" }),
      404,
      "NotFound",
      "Secret with name PATCHED not found",
    );
  });

  test("DELETE answers the secret; then it is not found", async () => {
    const made = await createSecret(api, place(), "DOOMED", "v");
    const res = await api.delete(`${secrets}/DOOMED`, { body: place() });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatchObject({ id: made.id, secretKey: "DOOMED" });
    expectError(await api.delete(`${secrets}/DOOMED`, { body: place() }), 404, "NotFound", "Secret not found");
  });

  test("a rotation's secrets: their value and name cannot be changed by hand", async () => {
    const body = rotationBody(projectId, "dev", "/vals");
    expect((await api.post(mysqlRotations, body)).status).toBe(200);
    const key = body.secretsMapping.password;
    const got = (await api.get(`${secrets}/${key}`, { query: place() })).body.secret;
    expect(got.secretValue).toBeTruthy();
    expectError(
      await api.patch(`${secrets}/${key}`, { ...place(), secretValue: "mine" }),
      400,
      "BadRequest",
      "Cannot update rotated secret name or value",
    );
    expect((await api.patch(`${secrets}/${key}`, { ...place(), secretComment: "ok" })).status).toBe(200);
  });

  test("a value never reaches the audit log, an error or the server's log", async () => {
    const canary = `canary-${uniq("value")}`;
    const made = await createSecret(api, place(), "CANARY", canary);
    await api.get(`${secrets}/CANARY`, { query: place() });
    await api.get(secrets, { query: place() });
    await api.patch(`${secrets}/CANARY`, { ...place(), secretValue: `${canary}-2` });
    const dup = await api.post(`${secrets}/CANARY`, { ...place(), secretValue: canary });
    expect(dup.status).toBe(400);
    expect(JSON.stringify(dup.body)).not.toContain(canary);
    const bad = await api.post(`${secrets}/CANARY2`, { ...place(), secretValue: canary, secretComment: 5 });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).not.toContain(canary);
    await api.delete(`${secrets}/CANARY`, { body: place() });
    const audit = await api.get(apiPaths.auditLogs, {
      query: { projectId, limit: 1000, endDate: new Date(Date.now() + 60_000).toISOString() },
    });
    const events = audit.body.auditLogs.filter((e: Json) => e.event.metadata.secretId === made.id);
    expect(events.map((e: Json) => e.event.type).sort()).toEqual([
      "create-secret",
      "delete-secret",
      "get-secret",
      "update-secret",
    ]);
    expect(Object.keys(events[0].event.metadata).sort()).toEqual([
      "environment",
      "secretId",
      "secretKey",
      "secretPath",
      "secretVersion",
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(canary);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join("")).not.toContain(canary);
  });
});

describe("what a sync job pushed", () => {
  test("the folder's keys and value hashes at the moment the job ran; nothing before one ran", async () => {
    await createFolder(api, { ...dev(), name: "pushed" });
    const place = { ...dev(), secretPath: "/pushed" };
    await createSecret(api, place, "B_KEY", "b-value");
    await createSecret(api, place, "A_KEY", "a-value");
    const sync = (await api.post(akvSyncs, syncBody(projectId, "dev", "/pushed"))).body.secretSync;
    expect(await admin.pushedSecrets(sync.id)).toBeUndefined();
    const raw = await fetch(`${emu.url}/__admin/secret-syncs/${sync.id}/pushed`);
    expect(raw.status).toBe(404);

    await api.post(`${akvSyncs}/${sync.id}/sync-secrets`);
    const first = await waitFor(
      () => admin.pushedSecrets(sync.id),
      (x) => x !== undefined,
    );
    expect(first!.secrets).toEqual([
      { key: "A_KEY", valueSha256: sha256Hex("a-value") },
      { key: "B_KEY", valueSha256: sha256Hex("b-value") },
    ]);
    const synced = (await api.get(`${akvSyncs}/${sync.id}`)).body.secretSync;
    expect(first!.pushedAt).toBe(synced.lastSyncedAt);

    await api.patch(`${secrets}/A_KEY`, { ...place, secretValue: "a-changed" });
    await api.delete(`${secrets}/B_KEY`, { body: place });
    await waitFor(
      async () => (await api.get(`${akvSyncs}/${sync.id}`)).body.secretSync,
      (s) => s.syncStatus === "succeeded",
    );
    await api.post(`${akvSyncs}/${sync.id}/sync-secrets`);
    const second = await waitFor(
      () => admin.pushedSecrets(sync.id),
      (x) => x!.pushedAt !== first!.pushedAt,
    );
    expect(second!.secrets).toEqual([{ key: "A_KEY", valueSha256: sha256Hex("a-changed") }]);
    expect(JSON.stringify(second)).not.toContain("a-changed");
  });
});
