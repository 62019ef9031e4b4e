import { SecretOpsApiError, SecretOpsClient, SecretOpsValidationError } from "../../sdk";
import {
  type TestEmulator,
  defaultFixtures,
  defaultIdentity,
  foreignProjectId,
  restrictedProjectId,
  startTestEmulator,
} from "./helpers/emulator";

/**
 * Contract tests: the SDK's certificate profiles, audit logs and permission errors against the
 * emulator (emulator/index.ts). Every method for every app connection kind, sync destination and
 * rotation type: tests/kinds/sdk-contract.test.ts.
 */

let t: TestEmulator;
let client: SecretOpsClient;
let projectId: string;

beforeAll(async () => {
  t = await startTestEmulator();
  client = new SecretOpsClient(
    { baseUrl: t.url, token: t.token },
    { rateLimit: false, retry: { baseDelayMs: 10, maxDelayMs: 50 } },
  );
  projectId = t.emu.summary.projects[0]!.id;
});
afterAll(() => t.stop());

describe("certificate profiles", () => {
  // Profiles live in a cert-manager project: the fixture's holds its CAs and policy.
  let projectId: string;
  beforeAll(() => {
    projectId = t.emu.summary.certificatePolicies[0]!.projectId;
  });
  const ca = () =>
    defaultFixtures.certificateAuthorities.find((c) => c.projectId === projectId && c.type === "internal")!.id;
  const policy = () => t.emu.summary.certificatePolicies.find((p) => p.projectId === projectId)!.id;

  test("api profile: create, get, getBySlug, list, update, delete", async () => {
    const created = await client.certificateProfiles.create({
      projectId,
      certificatePolicyId: policy(),
      caId: ca(),
      slug: "sdk-api",
      enrollmentType: "api",
      apiConfig: { autoRenew: true, renewBeforeDays: 10 },
      defaults: { ttlDays: 90, keyAlgorithm: "RSA_2048", keyUsages: ["digital_signature"] },
    });
    expect(created).toMatchObject({ slug: "sdk-api", enrollmentType: "api", issuerType: "ca", caId: ca() });
    expect((await client.certificateProfiles.get(created.id)).slug).toBe("sdk-api");
    expect((await client.certificateProfiles.getBySlug("sdk-api", projectId)).id).toBe(created.id);
    const page = await client.certificateProfiles.list({ projectId, enrollmentType: "api" });
    expect(page.certificateProfiles.map((p) => p.id)).toContain(created.id);
    expect(page.totalCount).toBeGreaterThanOrEqual(1);
    expect((await client.certificateProfiles.update(created.id, { description: "updated" })).description).toBe(
      "updated",
    );
    await client.certificateProfiles.delete(created.id);
    await expect(client.certificateProfiles.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  test("est: the SDK requires estConfig before sending; with it the passphrase is never returned", async () => {
    const base = {
      projectId,
      certificatePolicyId: policy(),
      caId: ca(),
      slug: "sdk-est",
      enrollmentType: "est" as const,
    };
    await t.admin.clearRequests();
    await expect(client.certificateProfiles.create(base)).rejects.toBeInstanceOf(SecretOpsValidationError);
    expect(await t.admin.requests()).toHaveLength(0);
    const created = await client.certificateProfiles.create({
      ...base,
      estConfig: { passphrase: "sdk-est-passphrase" },
    });
    expect(JSON.stringify(created)).not.toContain("sdk-est-passphrase");
    await client.certificateProfiles.delete(created.id);
  });

  test("acme and self-signed profiles", async () => {
    const acme = await client.certificateProfiles.create({
      projectId,
      certificatePolicyId: policy(),
      caId: ca(),
      slug: "sdk-acme",
      enrollmentType: "acme",
      acmeConfig: { skipDnsOwnershipVerification: true },
    });
    const selfSigned = await client.certificateProfiles.create({
      projectId,
      certificatePolicyId: policy(),
      slug: "sdk-self",
      enrollmentType: "api",
      issuerType: "self-signed",
      apiConfig: {},
    });
    expect([acme.enrollmentType, selfSigned.issuerType]).toEqual(["acme", "self-signed"]);
    await client.certificateProfiles.delete(acme.id);
    await client.certificateProfiles.delete(selfSigned.id);
  });
});

describe("permissions", () => {
  // The service's refusals before any rule: `ForbiddenRequestError`s whose words are the `error`
  // (docs/service-api.md §20).
  test.each([
    [
      "a project of the org the identity is not a member of",
      () => restrictedProjectId,
      "You are not member of this project",
    ],
    ["a project of another org", () => foreignProjectId, "This project does not belong to your selected organization."],
  ])("%s: 403, not retried", async (_label, project, error) => {
    await t.admin.clearRequests();
    const err = await client.secretSyncs.list("vercel", project()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretOpsApiError);
    expect(err).toMatchObject({
      status: 403,
      error,
      method: "GET",
      path: "/api/v1/secret-syncs/vercel",
    });
    expect((err as SecretOpsApiError).reqId).toMatch(/^req-/);
    expect(await t.admin.requests()).toHaveLength(1);
  });
});

describe("audit logs", () => {
  test("list: filters reach the service; a service-side 422 keeps its issues", async () => {
    // A sync created and deleted here: the two events the filter asks for, among the others.
    const connection = t.emu.summary.connections.find((c) => c.app === "vercel" && c.projectId === null)!;
    const sync = await client.secretSyncs.create("vercel", {
      name: "sdk-audited-sync",
      projectId,
      connectionId: connection.id,
      environment: "dev",
      secretPath: "/",
      isAutoSyncEnabled: false,
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: "prj", appName: "web", env: "preview", teamId: "team" },
    });
    await client.secretSyncs.update("vercel", sync.id, { description: "an event the filter leaves out" });
    await client.secretSyncs.delete("vercel", sync.id);
    const entries = await client.auditLogs.list({
      projectId,
      eventType: ["create-secret-sync", "delete-secret-sync"],
      limit: 100,
    });
    expect(new Set(entries.map((e) => e.event.type))).toEqual(new Set(["create-secret-sync", "delete-secret-sync"]));
    expect(
      entries.every(
        (e) => ["create-secret-sync", "delete-secret-sync"].includes(e.event.type) && e.projectId === projectId,
      ),
    ).toBe(true);

    // Only the service knows `actor` names a machine identity, so this rule is checked there.
    const err = await client.auditLogs.list({ actor: defaultIdentity.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, error: "ValidationFailure" });
    expect((err as SecretOpsApiError).issues).toEqual([
      { path: "actorType", message: expect.stringContaining("must be given") },
    ]);
  });

  test("iterate walks more than 1000 entries exactly once each, 3 requests, while new entries arrive", async () => {
    const total = 2345;
    const start = Date.now() - 2 * 24 * 3600 * 1000;
    const entry = (at: number) => ({
      createdAt: new Date(at).toISOString(),
      event: { type: "integration-synced" as const, metadata: {} },
      projectId,
    });
    await t.admin.insertAuditLogs(Array.from({ length: total }, (_, i) => entry(start + i * 1000)));
    await t.admin.clearRequests();

    const seen = new Map<string, number>();
    let n = 0;
    for await (const e of client.auditLogs.iterate({
      projectId,
      eventType: "integration-synced",
      startDate: new Date(start - 60_000).toISOString(),
    })) {
      seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
      // Newer matching entries arrive mid-walk; they must not shift later pages.
      if (++n === 500 || n === 1500) await t.admin.insertAuditLogs([entry(Date.now()), entry(Date.now())]);
    }
    expect(n).toBe(total);
    expect(seen.size).toBe(total);
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
    const pages = (await t.admin.requests()).filter((r) => r.path === "/api/v1/organization/audit-logs");
    expect(pages.map((r) => new URL(r.url, t.url).searchParams.get("offset"))).toEqual(["0", "1000", "2000"]);
  });
});
