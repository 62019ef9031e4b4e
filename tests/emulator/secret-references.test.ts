import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiPaths } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { seedFromFixtures } from "../../emulator/fixtures";
import { newIdentity } from "../../emulator/identity-records";
import { permanentMembership } from "../../emulator/permissions";
import type { StoredProjectRole } from "../../emulator/types";
import { FX, expectError, start, type Api } from "./helpers";

/**
 * Secret references as the service expands them (`expandSecretReferencesFactory`,
 * services/secret-v2-bridge/secret-v2-bridge-fns.ts; docs/service-api.md §21), through both
 * `/api/v4/secrets` and `/api/v3/secrets/raw`: `${KEY}` in the same folder, `${env.KEY}` at an
 * environment's root, `${env.a.b.KEY}` in a folder; chains to depth 10; cycles and missing
 * secrets left as written; a referenced secret the caller may not read is a 403.
 */

const now = new Date().toISOString();
const secrets = apiPaths.secrets;
const raw = "/api/v3/secrets/raw";
const READER_TOKEN = "test-access-token-prod-app-reader";

/** Reads values in prod under /app and nowhere else. */
const prodAppReader: StoredProjectRole = {
  id: randomUUID(),
  projectId: FX.projectId,
  slug: "prod-app-reader",
  name: "prod-app-reader",
  description: null,
  permissions: [
    {
      subject: "secrets",
      action: ["read"],
      conditions: { environment: { $eq: "prod" }, secretPath: { $glob: "/app/**" } },
    },
    { subject: "secrets", action: ["read"], conditions: { environment: { $eq: "prod" }, secretPath: { $eq: "/app" } } },
  ],
  createdAt: now,
  updatedAt: now,
};

let dir: string;
let emu: RunningEmulator;
let api: Api;
beforeAll(async () => {
  const seed = seedFromFixtures(undefined);
  seed.projectRoles = [prodAppReader];
  const id = randomUUID();
  seed.identities.push(
    newIdentity({ id, orgId: FX.orgId, name: "prod-app-reader", role: "member", metadata: [] }, now),
  );
  seed.accessTokens.push({ token: READER_TOKEN, identityId: id, expiresAt: null });
  seed.identityMemberships!.push(permanentMembership(id, FX.projectId, prodAppReader, now));
  dir = mkdtempSync(join(tmpdir(), "emu-refs-"));
  const file = join(dir, "refs.json");
  writeFileSync(file, JSON.stringify({ ...seed, auditLogs: [] }));
  ({ emu, api } = await start({ data: file }));
  for (const [environment, path, name] of [
    ["prod", "/", "app"],
    ["prod", "/app", "db"],
    ["dev", "/", "refs"],
  ] as const) {
    // The fixture project may already have some of these folders.
    const res = await api.post(apiPaths.secretFolders, { projectId: FX.projectId, environment, path, name });
    if (res.status !== 200) expect(res.body.message).toMatch(/already exist/);
  }
  for (const [environment, secretPath, key, value] of [
    ["prod", "/app", "HOST", "db.internal"],
    ["prod", "/app/db", "PORT", "5432"],
    ["prod", "/", "REGION", "eu"],
    ["prod", "/app", "URL", "postgres://${HOST}:${prod.app.db.PORT}/${prod.REGION}"],
    ["prod", "/app", "NESTED", "[${URL}]"],
    ["prod", "/app", "MISSING", "a${NOPE}b${staging.x.NOPE}c"],
    ["prod", "/app", "LOOP_A", "a${LOOP_B}"],
    ["prod", "/app", "LOOP_B", "b${LOOP_A}"],
    ["prod", "/app", "OUTSIDE", "x${dev.refs.SECRET}"],
    ["dev", "/refs", "SECRET", "dev-only"],
  ] as const) {
    const res = await api.post(`${secrets}/${key}`, {
      projectId: FX.projectId,
      environment,
      secretPath,
      secretValue: value,
    });
    expect(res.status).toBe(200);
  }
  // A chain of 13: C0 → C1 → … → C12 = "end".
  for (let i = 0; i <= 12; i++) {
    const value = i === 12 ? "end" : `${i}\${C${i + 1}}`;
    await api.post(`${secrets}/C${i}`, {
      projectId: FX.projectId,
      environment: "prod",
      secretPath: "/app",
      secretValue: value,
    });
  }
});
afterAll(async () => {
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

const at = { environment: "prod", secretPath: "/app" };
const v4 = (key: string, expand: boolean, token?: string) =>
  api.get(`${secrets}/${key}`, {
    query: { projectId: FX.projectId, ...at, expandSecretReferences: expand },
    ...(token && { token }),
  });
const v3 = (key: string, expand: boolean, token?: string) =>
  api.get(`${raw}/${key}`, {
    query: { workspaceId: FX.projectId, ...at, expandSecretReferences: expand },
    ...(token && { token }),
  });

describe.each([
  ["v4", v4],
  ["v3", v3],
])("expansion through %s", (_name, read) => {
  test("off (the default) the value is as written", async () => {
    expect((await read("URL", false)).body.secret.secretValue).toBe(
      "postgres://${HOST}:${prod.app.db.PORT}/${prod.REGION}",
    );
  });

  test("${KEY}, ${env.KEY} and ${env.a.b.KEY}, and the references of a referenced value", async () => {
    expect((await read("URL", true)).body.secret.secretValue).toBe("postgres://db.internal:5432/eu");
    expect((await read("NESTED", true)).body.secret.secretValue).toBe("[postgres://db.internal:5432/eu]");
  });

  test("a reference to a secret that does not exist stays as written", async () => {
    expect((await read("MISSING", true)).body.secret.secretValue).toBe("a${NOPE}b${staging.x.NOPE}c");
  });

  test("a cycle stops where it comes back to a secret already followed", async () => {
    expect((await read("LOOP_A", true)).body.secret.secretValue).toBe("aba${LOOP_B}");
  });

  test("a chain is followed to depth 10 and no further", async () => {
    // Depths 0..10 are searched for references: C1..C11 are replaced; C11's own ${C12} stays.
    expect((await read("C0", true)).body.secret.secretValue).toBe("01234567891011${C12}");
  });

  test("a referenced secret the caller may not read is a 403 naming both secrets", async () => {
    expectError(
      await read("URL", true, READER_TOKEN),
      403,
      "ForbiddenError",
      "You do not have permission to read secret 'REGION' in environment 'prod' at path '/', which is referenced by secret 'URL' in environment 'prod' at path '/app'.",
    );
    expectError(
      await read("OUTSIDE", true, READER_TOKEN),
      403,
      "ForbiddenError",
      "You do not have permission to read secret 'SECRET' in environment 'dev' at path '/refs', which is referenced by secret 'OUTSIDE' in environment 'prod' at path '/app'.",
    );
    // Unexpanded, and expanded where every reference is readable, the read succeeds.
    expect((await read("URL", false, READER_TOKEN)).body.secret.secretValue).toContain("${prod.REGION}");
    expect((await read("C9", true, READER_TOKEN)).body.secret.secretValue).toBe("91011end");
  });
});
