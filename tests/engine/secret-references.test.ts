import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { changeCounts, createTestStack, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

/**
 * A Secret whose value holds references (`${OTHER}`, `${prod.app.KEY}`; docs/service-api.md §21):
 * the package reads values with expansion off, so after `up` a preview shows no change, while a
 * read with expansion on gets the expanded value.
 */
jest.setTimeout(10 * 60_000);

const PROJECT = "10000000-0000-4000-8000-000000000001";

let emulator: Emulator;
let client: SecretOpsClient;
let t: TestStack;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  const app = await client.secretFolders.list({ projectId: PROJECT, environment: "prod", path: "/" });
  if (!app.some((f) => f.name === "app"))
    await client.secretFolders.create({ projectId: PROJECT, environment: "prod", path: "/", name: "app" });
  await client.secrets.create("KEY", { projectId: PROJECT, environment: "prod", secretPath: "/app", secretValue: "k" });
  t = await createTestStack({
    program: "secret-references",
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      "secret-references:projectId": { value: PROJECT },
    },
  });
});

afterAll(async () => {
  await t?.dispose();
  await emulator?.stop();
});

test("up, then a preview shows no change; a read with expansion gets the expanded value", async () => {
  const up = await t.stack.up();
  expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ create: 3 });
  const preview = await t.stack.preview({ expectNoChanges: true });
  expect(changeCounts(preview.changeSummary)).toMatchObject({ create: 0, update: 0, replace: 0, delete: 0 });
  const place = { projectId: PROJECT, environment: "staging", secretPath: "/" };
  const expanded = await client.secrets.get("WITH_REFERENCES", { ...place, expandSecretReferences: true });
  expect(expanded.secretValue).toBe("other-value:k");
  const asWritten = await client.secrets.get("WITH_REFERENCES", { ...place, expandSecretReferences: false });
  expect(asWritten.secretValue).toBe("${OTHER}:${prod.app.KEY}");
});
