import { ProjectEnvironmentV1Envelope, apiPaths } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { FX, expect422, expectError, expectNotMember, start, type Api, type Json } from "./helpers";
import { auditOf, createProject } from "./tree-objects";

/**
 * `/api/v1/workspace/{workspaceId}/environments` (docs/service-api.md §22): the older environment
 * routes the vendor's Node SDK and Terraform provider call, on the same store as
 * `/api/v1/projects/{projectId}/environments` — one environment whichever route made it.
 */

let emu: RunningEmulator;
let api: Api;
let projectId: string;
beforeAll(async () => {
  ({ emu, api } = await start());
  projectId = (await createProject(api)).id;
});
afterAll(() => emu.stop());

const v1 = () => `/api/v1/workspace/${projectId}/environments`;
const current = () => apiPaths.projectEnvironments(projectId);

describe("/api/v1/workspace/{workspaceId}/environments", () => {
  it("creates an environment the current route reads; drops unknown fields as the service does", async () => {
    // The Node SDK sends its whole options object, `projectId` included.
    const res = await api.post(v1(), { projectId, name: "QA", slug: "qa-v1" });
    expect(res.status).toBe(200);
    const body = ProjectEnvironmentV1Envelope.parse(res.body);
    expect(body).toMatchObject({ message: "Successfully created new environment", workspace: projectId });
    expect(body.environment).toMatchObject({ name: "QA", slug: "qa-v1", projectId });
    const seen = await api.get(`${current()}/${body.environment.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.environment.slug).toBe("qa-v1");
    const [event] = await auditOf(api, projectId, "create-environment");
    expect(event.event.metadata).toEqual({ name: "QA", slug: "qa-v1" });
  });

  it("reads, renames and deletes one the current route made", async () => {
    const made = (await api.post(current(), { name: "Stage", slug: "stage-v1" })).body.environment as Json;
    const got = await api.get(`${v1()}/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.body.environment).toMatchObject({ id: made.id, slug: "stage-v1" });

    const upd = await api.patch(`${v1()}/${made.id}`, { name: "Staging", slug: "staging-v1" });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ message: "Successfully updated environment", workspace: projectId });
    expect((await api.get(`${current()}/${made.id}`)).body.environment).toMatchObject({
      name: "Staging",
      slug: "staging-v1",
    });
    const [event] = await auditOf(api, projectId, "update-environment");
    expect(event.event.metadata).toMatchObject({ oldSlug: "stage-v1", newSlug: "staging-v1" });

    const del = await api.delete(`${v1()}/${made.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ message: "Successfully deleted environment", workspace: projectId });
    expectError(
      await api.get(`${current()}/${made.id}`),
      404,
      "NotFound",
      `Environment with id '${made.id}' in project with ID '${projectId}' not found`,
    );
  });

  it("answers errors as the service words them", async () => {
    expectError(
      await api.post(v1(), { name: "Dev again", slug: "dev" }),
      400,
      "BadRequest",
      "Environment with slug already exists",
    );
    expect422(await api.post(v1(), { name: "", slug: "x-v1" }), ["name"]);
    const ghost = "00000000-0000-4000-8000-000000000000";
    expectError(
      await api.get(`${v1()}/${ghost}`),
      404,
      "NotFound",
      `Environment with id '${ghost}' in project with ID '${projectId}' not found`,
    );
    expectNotMember(
      await api.post(`/api/v1/workspace/${FX.restrictedProjectId}/environments`, { name: "X", slug: "x" }),
    );
  });
});

describe("/api/v1/workspace/{workspaceId}", () => {
  it("answers the project /api/v1/projects made, as `workspace`, with its environments", async () => {
    const res = await api.get(`/api/v1/workspace/${projectId}`);
    expect(res.status).toBe(200);
    const current = (await api.get(`${apiPaths.projects}/${projectId}`)).body.project;
    expect(res.body.workspace).toEqual(current);
    expect((res.body.workspace.environments as Json[]).map((e) => e.slug)).toContain("dev");
  });

  it("answers errors as the current route does", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    expectError(await api.get(`/api/v1/workspace/${ghost}`), 404, "NotFound", `Project with ID '${ghost}' not found`);
    expectNotMember(await api.get(`/api/v1/workspace/${FX.restrictedProjectId}`));
  });
});

describe("/api/v2/workspace", () => {
  it("creates a project the current routes read, by id and by slug; drops unknown fields", async () => {
    const slug = `tfp-${Date.now().toString(36)}`;
    const res = await api.post("/api/v2/workspace", { projectName: "Made by v2", slug, organizationSlug: "ignored" });
    expect(res.status).toBe(200);
    const made = res.body.project as Json;
    expect(made).toMatchObject({ name: "Made by v2", slug, type: "secret-manager" });
    expect((await api.get(`${apiPaths.projects}/${made.id}`)).body.project.slug).toBe(slug);
    const bySlug = await api.get(`/api/v2/workspace/${slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toMatchObject({ id: made.id, slug });
    expect((await auditOf(api, made.id, "create-project")).length).toBe(1);
  });

  it("refuses a slug taken in the organization, as the current create does", async () => {
    const slug = `dup-${Date.now().toString(36)}`;
    expect((await api.post("/api/v2/workspace", { projectName: "One", slug })).status).toBe(200);
    expectError(
      await api.post("/api/v2/workspace", { projectName: "Two", slug }),
      400,
      "BadRequest",
      `A project with the slug "${slug}" already exists in your organization. Please choose a different name or slug.`,
    );
  });
});
