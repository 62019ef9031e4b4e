import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { readFolderSecrets } from "../../cli/import";
import type { PlacedFolder } from "../../provider/secret-folder";

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
