import { dynamicProvider } from "../../provider/dynamic-provider";
import { secretFolderDefinition } from "../../provider/secret-folder";
import { secretDefinition } from "../../provider/secret";
import { projectEnvironmentDefinition } from "../../provider/project-environment";
import { folderChangeAt } from "../../provider/folder-moves";
import { UNKNOWN } from "../../provider/values";

// A folder's diff records what it does to the place of the objects in it; their diffs read it
// (provider/folder-moves.ts). Diff needs no server: it runs in preview, before any API call.

const folders = dynamicProvider(secretFolderDefinition);
const secrets = dynamicProvider(secretDefinition);
const environments = dynamicProvider(projectEnvironmentDefinition);

const at = (projectId: string) => ({ projectId, environment: "dev" });
const folderOuts = (projectId: string, path: string, name: string) => ({
  ...at(projectId),
  path,
  name,
  secretPath: path === "/" ? `/${name}` : `${path}/${name}`,
  adoptExisting: false,
  forceDelete: false,
});
const secretOuts = (projectId: string, secretPath: string) => ({
  ...at(projectId),
  secretPath,
  secretName: "KEY",
  secretComment: "",
  adoptExisting: false,
});
const args = (outs: Record<string, unknown>, changes: Record<string, unknown>) => {
  const { secretPath: _computed, ...rest } = outs;
  return { ...rest, ...changes };
};

describe("objects in a folder the program renames", () => {
  it("follow it in place at preview (path unknown) and at up (path known), down the tree", async () => {
    const backend = folderOuts("p-rename", "/", "backend");
    expect(await folders.diff!("f1", backend, args(backend, { name: "services" }))).toMatchObject({
      changes: true,
      replaces: [],
    });
    // The subfolder names the renamed folder's path: unknown at preview.
    const db = folderOuts("p-rename", "/backend", "db");
    expect(await folders.diff!("f2", db, args(db, { path: UNKNOWN }))).toMatchObject({ changes: true, replaces: [] });
    expect(folderChangeAt({ endpoint: undefined, ...at("p-rename") }, "/backend/db")).toEqual({ to: "/services/db" });
    const secret = secretOuts("p-rename", "/backend/db");
    for (const secretPath of [UNKNOWN, "/services/db"]) {
      const { secretPath: _p, ...rest } = secret;
      expect(await secrets.diff!("s1", secret, { ...rest, secretPath })).toMatchObject({ changes: true, replaces: [] });
    }
  });

  it("are moved by the program itself when it names another path: replaced", async () => {
    const secret = secretOuts("p-rename", "/backend/db");
    const { secretPath: _p, ...rest } = secret;
    expect(await secrets.diff!("s1", secret, { ...rest, secretPath: "/elsewhere" })).toMatchObject({
      replaces: ["secretPath"],
    });
  });

  it("are made anew when the folder is replaced (moved to another parent)", async () => {
    const backend = folderOuts("p-replace", "/", "backend");
    expect(await folders.diff!("f3", backend, args(backend, { path: "/apps" }))).toMatchObject({ replaces: ["path"] });
    expect(folderChangeAt({ endpoint: undefined, ...at("p-replace") }, "/backend/db")).toBe("replaced");
    const secret = secretOuts("p-replace", "/backend");
    const { secretPath: _p, ...rest } = secret;
    expect(await secrets.diff!("s2", secret, { ...rest, secretPath: UNKNOWN })).toMatchObject({
      replaces: ["secretPath"],
    });
  });

  it("are not affected by a folder renamed in another project, environment or endpoint", async () => {
    const backend = folderOuts("p-other", "/", "backend");
    await folders.diff!("f4", backend, args(backend, { name: "services" }));
    expect(folderChangeAt({ endpoint: undefined, projectId: "p-other", environment: "prod" }, "/backend")).toBe(
      undefined,
    );
    expect(folderChangeAt({ endpoint: "eu", ...at("p-other") }, "/backend")).toBe(undefined);
    expect(folderChangeAt({ endpoint: undefined, ...at("p-other") }, "/backend-2")).toBe(undefined);
  });
});

describe("objects in an environment the program gives a new slug", () => {
  it("follow it in place, with their folders; an object the program moves itself is replaced", async () => {
    const env = { projectId: "p-env", name: "Development", slug: "dev", position: 1, adoptExisting: true };
    expect(await environments.diff!("e1", env, { ...env, slug: "development" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    const folder = folderOuts("p-env", "/", "app");
    for (const environment of [UNKNOWN, "development"]) {
      expect(await folders.diff!("f5", folder, args(folder, { environment }))).toMatchObject({
        changes: true,
        replaces: [],
      });
    }
    const secret = secretOuts("p-env", "/app");
    expect(await secrets.diff!("s3", secret, { ...secret, environment: "development" })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await secrets.diff!("s3", secret, { ...secret, environment: "prod" })).toMatchObject({
      replaces: ["environment"],
    });
  });
});
