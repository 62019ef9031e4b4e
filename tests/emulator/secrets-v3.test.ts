import { SecretEnvelope, apiPaths } from "../../sdk/schemas";
import { SecretV3ListEnvelope } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expectError, expectNotMember, start, type Api } from "./helpers";
import { createFolder, createProject } from "./tree-objects";

/**
 * `/api/v3/secrets/raw` (docs/service-api.md §21): each route, on the same store as
 * `/api/v4/secrets`, with the router's own 400 and the v4 routes' access checks.
 */

const raw = "/api/v3/secrets/raw";
const v4 = apiPaths.secrets;
let emu: RunningEmulator;
let api: Api;
let project: { id: string; slug: string };
beforeAll(async () => {
  ({ emu, api } = await start());
  project = await createProject(api);
  await createFolder(api, { projectId: project.id, environment: "dev", name: "app", path: "/" });
});
afterAll(() => emu.stop());

const where = () => ({ workspaceId: project.id, environment: "dev", secretPath: "/app" });
const v4Place = () => ({ projectId: project.id, environment: "dev", secretPath: "/app" });

describe("/api/v3/secrets/raw", () => {
  test("create, get, list, update with a rename, delete: each answers the secret in the service's shape", async () => {
    const created = await api.post(`${raw}/DB_URL`, {
      ...where(),
      secretValue: "  postgres://db  ",
      secretComment: "db",
    });
    expect(created.status).toBe(200);
    const s = SecretEnvelope.parse(created.body).secret;
    expect(created.body.secret).toMatchObject({
      _id: s.id,
      workspace: project.id,
      environment: "dev",
      secretPath: "/app",
      secretKey: "DB_URL",
      secretValue: "postgres://db",
      secretComment: "db",
      version: 1,
      type: "shared",
    });

    const got = await api.get(`${raw}/DB_URL`, { query: where() });
    expect(got.status).toBe(200);
    expect(got.body.secret).toMatchObject({ id: s.id, secretValue: "postgres://db" });

    const listed = await api.get(raw, { query: where() });
    expect(listed.status).toBe(200);
    const body = SecretV3ListEnvelope.parse(listed.body);
    expect(body.secrets.map((x) => x.secretKey)).toEqual(["DB_URL"]);
    expect(body.imports).toEqual([]);

    const bySlug = await api.get(raw, {
      query: { workspaceSlug: project.slug, environment: "dev", secretPath: "/app" },
    });
    expect(bySlug.body.secrets.map((x: { id: string }) => x.id)).toEqual([s.id]);

    const updated = await api.patch(`${raw}/DB_URL`, {
      ...where(),
      secretValue: "postgres://db2",
      newSecretName: "DATABASE_URL",
    });
    expect(updated.status).toBe(200);
    expect(updated.body.secret).toMatchObject({
      id: s.id,
      secretKey: "DATABASE_URL",
      secretValue: "postgres://db2",
      version: 2,
    });
    expectError(
      await api.get(`${raw}/DB_URL`, { query: where() }),
      404,
      "NotFound",
      "Secret with name 'DB_URL' not found",
    );

    const deleted = await api.delete(`${raw}/DATABASE_URL`, { body: where() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.secret).toMatchObject({ id: s.id, secretKey: "DATABASE_URL" });
    expect((await api.get(raw, { query: where() })).body.secrets).toEqual([]);
  });

  test("one object: written through v3, read through v4, and the other way", async () => {
    const made = await api.post(`${raw}/FROM_V3`, { ...where(), secretValue: "three" });
    const viaV4 = await api.get(`${v4}/FROM_V3`, { query: v4Place() });
    expect(viaV4.body.secret).toMatchObject({ id: made.body.secret.id, secretValue: "three", version: 1 });

    const madeV4 = await api.post(`${v4}/FROM_V4`, { ...v4Place(), secretValue: "four" });
    const viaV3 = await api.get(`${raw}/FROM_V4`, { query: where() });
    expect(viaV3.body.secret).toMatchObject({ id: madeV4.body.secret.id, secretValue: "four" });

    await api.patch(`${v4}/FROM_V3`, { ...v4Place(), secretValue: "changed" });
    expect((await api.get(`${raw}/FROM_V3`, { query: where() })).body.secret).toMatchObject({
      secretValue: "changed",
      version: 2,
    });
    await api.delete(`${raw}/FROM_V4`, { body: where() });
    expectError(
      await api.get(`${v4}/FROM_V4`, { query: v4Place() }),
      404,
      "NotFound",
      "Secret with name 'FROM_V4' not found",
    );
  });

  test("the router's 400 without a project or environment; an unknown slug; a duplicate", async () => {
    expectError(
      await api.get(raw, { query: { environment: "dev" } }),
      400,
      "BadRequest",
      "Missing workspace id or environment",
    );
    expectError(
      await api.get(`${raw}/X`, { query: { workspaceId: project.id } }),
      400,
      "BadRequest",
      "Missing workspace id or environment",
    );
    expectError(
      await api.get(raw, { query: { workspaceSlug: "no-such-project", environment: "dev" } }),
      400,
      "BadRequest",
      "No project found with slug no-such-project",
    );
    await api.post(`${raw}/TWICE`, { ...where(), secretValue: "a" });
    expectError(
      await api.post(`${raw}/TWICE`, { ...where(), secretValue: "b" }),
      400,
      "BadRequest",
      "Secret already exists",
    );
  });

  test("a project the caller is not a member of is a 403 on every route", async () => {
    const other = { workspaceId: FX.restrictedProjectId, environment: "dev", secretPath: "/" };
    expectNotMember(await api.get(raw, { query: other }));
    expectNotMember(await api.get(`${raw}/X`, { query: other }));
    expectNotMember(await api.post(`${raw}/X`, { ...other, secretValue: "v" }));
    expectNotMember(await api.patch(`${raw}/X`, { ...other, secretValue: "v" }));
    expectNotMember(await api.delete(`${raw}/X`, { body: other }));
  });

  test("recursive lists the folder and every folder below it, each secret at its own path (v3 and v4)", async () => {
    await createFolder(api, { projectId: project.id, environment: "dev", name: "deep", path: "/app/tree" });
    for (const [key, secretPath] of [
      ["TOP", "/app/tree"],
      ["DEEP", "/app/tree/deep"],
    ])
      expect((await api.post(`${raw}/${key}`, { ...where(), secretPath, secretValue: key.toLowerCase() })).status).toBe(
        200,
      );
    const at = { workspaceId: project.id, environment: "dev", secretPath: "/app/tree" };
    const pairs = (b: { secrets: { secretKey: string; secretPath?: string }[] }) =>
      b.secrets.map((x) => [x.secretKey, x.secretPath]);
    expect(pairs((await api.get(raw, { query: at })).body)).toEqual([["TOP", "/app/tree"]]);
    const deep = [
      ["TOP", "/app/tree"],
      ["DEEP", "/app/tree/deep"],
    ];
    expect(pairs((await api.get(raw, { query: { ...at, recursive: "true" } })).body)).toEqual(deep);
    const v4At = { projectId: project.id, environment: "dev", secretPath: "/app/tree", recursive: "true" };
    expect(pairs((await api.get(v4, { query: v4At })).body)).toEqual(deep);
  });
});
