import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { readFolderSecrets } from "../../cli/import";
import type { PlacedFolder } from "../../provider/secret-folder";
import { secretops } from "./run";

// `secretops import` reads an environment's folders, then each folder's secrets. A folder deleted
// between the two is a 404 at the service (docs/service-api.md §12): the import leaves it and its
// subfolders out instead of failing.

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: SecretOpsClient;
beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: false });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
});
afterAll(() => emulator?.stop());

test("a folder deleted after the folders were listed: its secrets and subfolders are left out, the rest read", async () => {
  const projectId = emulator.summary.projects[0]!.id;
  const place = { projectId, environment: "dev" };
  const listed = await client.secretFolders.list({ ...place, path: "/", recursive: true });
  const byId = new Map(listed.map((f) => [f.id, f]));
  const folders: PlacedFolder[] = listed.map((f) => ({
    ...f,
    projectId,
    environmentSlug: "dev",
    parentPath: f.parentId && byId.has(f.parentId) ? `/${byId.get(f.parentId)!.name}` : "/",
  }));
  expect(folders.map((f) => f.name).sort()).toEqual(["app", "db", "infra"]);
  const before = await readFolderSecrets(client, place, folders);
  expect(before.secrets.map((x) => [x.secretKey, x.secretPath, x.secretValue])).toEqual([
    ["EXISTING_SECRET", "/app", undefined],
  ]);
  expect(["/", "/app", "/app/db", "/infra"].some(before.gone)).toBe(false);

  const app = folders.find((f) => f.name === "app")!;
  await client.secretFolders.delete(app.id, { ...place, forceDelete: true });
  const after = await readFolderSecrets(client, place, folders);
  expect(after.secrets).toEqual([]);
  expect(["/app", "/app/db", "/infra", "/"].map(after.gone)).toEqual([true, true, false, false]);
});

describe("a project's roles and identity memberships", () => {
  let licensed: Awaited<ReturnType<typeof startEmulator>>;
  let c: SecretOpsClient;
  beforeAll(async () => {
    licensed = await startEmulator({ rateLimits: false, plan: "licensed", admin: true });
    c = new SecretOpsClient({ baseUrl: licensed.url, token: licensed.token }, { rateLimit: false });
  });
  afterAll(() => licensed?.stop());

  test("are written, each role with its permissions: one list per family, one read per custom role", async () => {
    const projectId = licensed.summary.projects[0]!.id;
    for (const slug of ["ci-reader", "auditor"]) {
      await c.projectRoles.create(projectId, {
        slug,
        name: slug,
        permissions: [{ subject: "secrets", action: ["read"], conditions: { environment: { $eq: "prod" } } }],
      });
    }
    const ci = await c.identities.create({ name: "ci", organizationId: licensed.summary.orgId, role: "no-access" });
    await c.identityMemberships.create(projectId, ci.id, { roles: [{ role: "ci-reader" }, { role: "viewer" }] });
    const admin = new EmulatorAdmin(licensed.url);
    await admin.clearRequests();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-import-access-"));
    try {
      const r = await secretops(
        ["import", "--project", projectId, "--kind", "roles", "--kind", "memberships", "--api-url", licensed.url],
        { cwd: out, env: { SECRETOPS_TOKEN: licensed.token } },
      );
      expect(r.stderr).not.toMatch(/error/i);
      expect(r.code).toBe(0);
      const source = fs.readFileSync(path.join(out, "imported.ts"), "utf8");
      expect(source.split("new secretops.ProjectRole(").length - 1).toBe(2);
      expect(source).toContain('$eq: "prod",');
      expect(source).toContain(`identityId: "${ci.id}",`);
      expect(source).toMatch(/role: "ci-reader",[\s\S]*role: "viewer",/);
      // The project, the roles' list and each custom role by its slug, the memberships' list.
      const reads = (await admin.requests()).filter((x) => x.path.startsWith("/api/"));
      expect(reads.every((x) => x.method === "GET")).toBe(true);
      expect(reads.filter((x) => /\/roles$/.test(x.path))).toHaveLength(1);
      expect(reads.filter((x) => /\/roles\/slug\//.test(x.path))).toHaveLength(2);
      expect(reads.filter((x) => /identity-memberships$/.test(x.path))).toHaveLength(1);
      expect(reads).toHaveLength(1 + 1 + 2 + 1);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
