import { SecretFolderEnvelope } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expect422, expectError, expectNotMember, start, type Api, type Json } from "./helpers";
import { auditOf, createProject, createSecret, folders } from "./tree-objects";

/**
 * `/api/v1/folders` (docs/service-api.md §22): the older folder routes the vendor's CLI and
 * clients call, on the same store as `/api/v2/folders` — one folder whichever route made it.
 */

const v1 = "/api/v1/folders";
let emu: RunningEmulator;
let api: Api;
let projectId: string;
beforeAll(async () => {
  ({ emu, api } = await start());
  projectId = (await createProject(api)).id;
});
afterAll(() => emu.stop());

const place = () => ({ workspaceId: projectId, environment: "dev" });
const namesAt = async (route: string, query: Record<string, string>) => {
  const res = await api.get(route, { query });
  expect(res.status).toBe(200);
  return (res.body.folders as Json[]).map((f) => f.name).sort();
};

describe("/api/v1/folders", () => {
  it("creates a folder that /api/v2/folders lists and reads, making the parents", async () => {
    const res = await api.post(v1, { ...place(), name: "leaf", path: "/v1/made" });
    expect(res.status).toBe(200);
    const folder = SecretFolderEnvelope.parse(res.body).folder;
    expect(folder.name).toBe("leaf");
    expect(await namesAt(folders, { projectId, environment: "dev", path: "/v1/made" })).toEqual(["leaf"]);
    const byId = await api.get(`${folders}/${folder.id}`);
    expect(byId.body.folder.path).toBe("/v1/made/leaf");
    const v1ById = await api.get(`${v1}/${folder.id}`);
    expect(v1ById.status).toBe(200);
    expect(v1ById.body.folder).toMatchObject({ id: folder.id, path: "/v1/made/leaf", projectId });
    const [event] = await auditOf(api, projectId, "create-folder");
    expect(event.event.metadata).toMatchObject({ environment: "dev", folderId: folder.id, folderName: "leaf" });
  });

  it("lists by `path` (else `directory`), seeing folders /api/v2 made; a write's `directory` loses", async () => {
    await api.post(folders, { projectId, environment: "dev", name: "from-v2", path: "/both" });
    await api.post(v1, { ...place(), name: "from-v1", path: "/both" });
    expect(await namesAt(v1, { ...place(), path: "/both" })).toEqual(["from-v1", "from-v2"]);
    expect(await namesAt(v1, { ...place(), path: "/nowhere" })).toEqual([]);
    // A write's `path` defaults to "/", so `path || directory` never reads `directory`: the root.
    await api.post(v1, { ...place(), name: "by-directory", directory: "/both" });
    expect(await namesAt(v1, { ...place(), path: "/" })).toContain("by-directory");
    // The list's `path` has no default: `directory` is read when `path` is absent.
    expect(await namesAt(v1, { ...place(), directory: "/both" })).toEqual(["from-v1", "from-v2"]);
    // `recursive`, as the service's booleanSchema reads it.
    await api.post(v1, { ...place(), name: "deeper", path: "/both/from-v1" });
    expect(await namesAt(v1, { ...place(), path: "/both", recursive: "True" })).toEqual([
      "deeper",
      "from-v1",
      "from-v2",
    ]);
    expect(await namesAt(v1, { ...place(), path: "/both", recursive: "False" })).toEqual(["from-v1", "from-v2"]);
  });

  it("renames a folder /api/v2 made; /api/v2 sees the new name", async () => {
    const made = (await api.post(folders, { projectId, environment: "dev", name: "old", path: "/ren" })).body.folder;
    const res = await api.patch(`${v1}/${made.id}`, { ...place(), name: "new", path: "/ren" });
    expect(res.status).toBe(200);
    expect(res.body.folder).toMatchObject({ id: made.id, name: "new" });
    expect(await namesAt(folders, { projectId, environment: "dev", path: "/ren" })).toEqual(["new"]);
    const [event] = await auditOf(api, projectId, "update-folder");
    expect(event.event.metadata).toMatchObject({ folderId: made.id, oldFolderName: "old", newFolderName: "new" });
  });

  it("deletes by name or id, with what the folder holds (the route always forces)", async () => {
    const box = (await api.post(v1, { ...place(), name: "box", path: "/del" })).body.folder;
    await createSecret(api, { projectId, environment: "dev", secretPath: "/del/box" }, "K", "v");
    const empty = (await api.post(v1, { ...place(), name: "empty", path: "/del" })).body.folder;
    expect((await api.delete(`${v1}/${empty.id}`, { body: { ...place(), path: "/del" } })).status).toBe(200);
    expect(await namesAt(folders, { projectId, environment: "dev", path: "/del" })).toEqual(["box"]);
    const [event] = await auditOf(api, projectId, "delete-folder");
    expect(event.event.metadata).toMatchObject({ folderId: empty.id, folderName: "empty" });
    expect((await api.delete(`${v1}/box`, { body: { ...place(), path: "/del" } })).status).toBe(200);
    expect(await namesAt(folders, { projectId, environment: "dev", path: "/del" })).toEqual([]);
    expect((await api.get(`${folders}/${box.id}`)).status).toBe(404);
  });

  it("answers errors as the service words them", async () => {
    expect422(await api.post(v1, { ...place(), name: "a b" }), ["name"]);
    expectError(
      await api.post(v1, { workspaceId: projectId, environment: "nope", name: "x" }),
      404,
      "NotFound",
      `Environment with slug 'nope' in project with ID '${projectId}' not found`,
    );
    expectError(await api.get(`${v1}/not-a-folder`), 404, "NotFound", "Folder with ID 'not-a-folder' not found");
    expectError(
      await api.delete(`${v1}/ghost`, { body: { ...place(), path: "/" } }),
      404,
      "NotFound",
      "Folder with ID 'ghost' not found",
    );
    expectNotMember(await api.post(v1, { workspaceId: FX.restrictedProjectId, environment: "dev", name: "x" }));
  });
});
