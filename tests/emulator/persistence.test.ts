import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppConnectionEnvelope, UniversalAuthTokenSchema, apiPaths, appConnectionApps } from "../../sdk/schemas";
import { runCli } from "../../emulator/cli";
import { seedFromFixtures, type Fixtures } from "../../emulator/fixtures";
import { FX, fixtures, start, uniq, waitFor } from "./helpers";

const dir = mkdtempSync(join(tmpdir(), "emulator-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("persistence (--data)", () => {
  test("state survives a restart: resources, secrets, tokens and the audit log", async () => {
    const file = join(dir, "state.json");
    const first = await start({ data: file });
    const { api } = first;
    // the file exists from the start
    expect(JSON.parse(readFileSync(file, "utf8")).format).toBe(1);

    const ac = apiPaths.appConnections("postgres");
    const fx = FX.connection("postgres");
    const conn = AppConnectionEnvelope.parse(
      (await api.post(ac, { name: uniq("persisted"), method: fx.method, credentials: fx.credentials })).body,
    ).appConnection;
    const patched = (await api.patch(`${ac}/${conn.id}`, { description: "after patch" })).body.appConnection;
    const sync = (
      await api.post(apiPaths.secretSyncs("azure-key-vault"), {
        name: uniq("persisted"),
        projectId: FX.projectId,
        connectionId: FX.connection("azure-key-vault").id,
        environment: "prod",
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
      })
    ).body.secretSync;
    const mapping = { username: uniq("U").toUpperCase(), password: uniq("P").toUpperCase() };
    const rot = (
      await api.post(apiPaths.secretRotations("mysql-credentials"), {
        name: uniq("persisted"),
        projectId: FX.projectId,
        connectionId: FX.connection("mysql").id,
        environment: "dev",
        secretPath: "/app/db",
        rotationInterval: 5,
        parameters: { username1: "a", username2: "b" },
        secretsMapping: mapping,
      })
    ).body.secretRotation;
    const creds = (await api.get(`${apiPaths.secretRotations("mysql-credentials")}/${rot.id}/generated-credentials`))
      .body;
    const prof = (
      await api.post(apiPaths.certificateProfiles, {
        projectId: FX.pkiProjectId,
        certificatePolicyId: FX.policyId,
        caId: FX.internalCaId,
        slug: uniq("persisted"),
        enrollmentType: "acme",
      })
    ).body.certificateProfile;
    const login = UniversalAuthTokenSchema.parse(
      (
        await api.post(
          apiPaths.universalAuthLogin,
          { clientId: FX.clientId, clientSecret: FX.clientSecret },
          { token: null },
        )
      ).body,
    );

    // saved while running (debounced), without waiting for stop
    await waitFor(
      async () => readFileSync(file, "utf8"),
      (s) => s.includes(conn.id) && s.includes(prof.id),
      3000,
    );
    // the sync job is still pending when we stop: it resumes after the restart
    await first.emu.stop();
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);

    const second = await start({ data: file, fixtures: join(dir, "does-not-exist.json") });
    try {
      const b = second.api;
      expect(second.emu.url).not.toBe(first.emu.url);
      expect((await b.get(`${ac}/${conn.id}`)).body.appConnection).toEqual(patched);
      // An ACME profile made without a config has none (docs/service-api.md §4).
      expect((await b.get(`${apiPaths.certificateProfiles}/${prof.id}`)).body.certificateProfile).toEqual(prof);
      expect((await b.get(`${apiPaths.secretRotations("mysql-credentials")}/${rot.id}`)).body.secretRotation).toEqual(
        rot,
      );
      expect(
        (await b.get(`${apiPaths.secretRotations("mysql-credentials")}/${rot.id}/generated-credentials`)).body,
      ).toEqual(creds);
      // the folder's secrets were restored: the mapped names still clash
      const clash = await b.post(apiPaths.secretRotations("mysql-credentials"), {
        name: uniq("again"),
        projectId: FX.projectId,
        connectionId: FX.connection("mysql").id,
        environment: "dev",
        secretPath: "/app/db",
        rotationInterval: 5,
        parameters: { username1: "a", username2: "b" },
        secretsMapping: mapping,
      });
      expect(clash.status).toBe(400);
      // universal-auth tokens survive too
      expect((await b.get(ac, { token: login.accessToken })).status).toBe(200);
      const synced = await waitFor(
        async () => (await b.get(`${apiPaths.secretSyncs("azure-key-vault")}/${sync.id}`)).body.secretSync,
        (s) => s.syncStatus === "succeeded",
      );
      expect(synced.id).toBe(sync.id);
      const audit = await b.get(apiPaths.auditLogs, {
        query: { eventMetadata: `connectionId=${conn.id}`, endDate: new Date(Date.now() + 60_000).toISOString() },
      });
      expect(audit.body.auditLogs.map((e: { event: { type: string } }) => e.event.type)).toEqual(
        expect.arrayContaining(["create-app-connection", "update-app-connection"]),
      );
    } finally {
      await second.emu.stop();
    }
  });

  test("a file that is not emulator data is refused", async () => {
    const file = join(dir, "garbage.json");
    writeFileSync(file, JSON.stringify({ hello: "world" }));
    await expect(start({ data: file })).rejects.toThrow(/not an emulator data file/);
  });

  test("invalid fixtures are refused with the field named", async () => {
    const bad = structuredClone(fixtures) as { appConnections: { credentials: Record<string, unknown> }[] };
    bad.appConnections[1]!.credentials.port = "not-a-port";
    const file = join(dir, "bad-fixtures.json");
    writeFileSync(file, JSON.stringify(bad));
    await expect(start({ fixtures: file })).rejects.toThrow(/credentials\.port/);
  });

  test("fixtures refuse a CA or a policy outside a cert-manager project, as the service holds none there", async () => {
    for (const family of ["certificateAuthorities", "certificatePolicies"] as const) {
      const bad = structuredClone(fixtures);
      bad[family][0]!.projectId = FX.projectId;
      const what = family === "certificateAuthorities" ? "CA" : "policy";
      const id = bad[family][0]!.id;
      expect(() => seedFromFixtures(bad as Fixtures)).toThrow(
        `invalid fixtures: ${what} ${id} is in project ${FX.projectId} of type secret-manager: it needs a cert-manager project`,
      );
    }
    // The default fixtures keep every CA and policy in a cert-manager project, the restricted ones too.
    const types = new Map(fixtures.projects.map((p) => [p.id, p.type]));
    const places = [...fixtures.certificateAuthorities, ...fixtures.certificatePolicies].map((x) =>
      types.get(x.projectId),
    );
    expect(new Set(places)).toEqual(new Set(["cert-manager"]));
  });
});

describe("cli", () => {
  test("--json prints exactly one line: the summary, and the server's pid", async () => {
    const lines: string[] = [];
    const emu = await runCli(["--port", "0", "--json", "--no-rate-limit"], (l) => lines.push(l));
    try {
      expect(lines).toHaveLength(1);
      const summary = JSON.parse(lines[0]!);
      expect(summary).toEqual({ ...emu.summary, pid: process.pid });
      expect(summary).toMatchObject({ url: emu.url, token: FX.token, orgId: FX.orgId });
      expect(summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.projects).toEqual([
        {
          id: FX.projectId,
          name: "Emulator Project",
          slug: "emulator-project",
          environments: ["dev", "staging", "prod"],
          folders: ["/", "/app", "/app/db", "/infra"],
        },
        { id: FX.pkiProjectId, name: "Emulator PKI", slug: "emulator-pki", environments: [], folders: [] },
      ]);
      // One per kind of the table; the other organization's connection is not the caller's.
      expect(summary.connections).toHaveLength(appConnectionApps.length);
      expect(new Set(summary.connections.map((c: { app: string }) => c.app)).size).toBe(appConnectionApps.length);
      expect(summary.certificateAuthorities).toEqual([
        { id: FX.internalCaId, projectId: FX.pkiProjectId },
        { id: FX.externalCaId, projectId: FX.pkiProjectId },
      ]);
      expect(summary.certificatePolicies).toEqual([{ id: FX.policyId, projectId: FX.pkiProjectId }]);
      const r = await fetch(`${summary.url}${apiPaths.appConnections("auth0")}`, {
        headers: { authorization: `Bearer ${summary.token}` },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBeNull();
      expect((await fetch(`${summary.url}/__admin/requests`)).status).toBe(404);
    } finally {
      await emu.stop();
    }
  });

  test("human output names the URL and token; --admin, rate limits, --data and --fixtures", async () => {
    const lines: string[] = [];
    const file = join(dir, "cli-state.json");
    const fx = join(dir, "cli-fixtures.json");
    const custom = structuredClone(fixtures);
    custom.identities[0]!.tokens = ["custom-fixture-token"];
    writeFileSync(fx, JSON.stringify(custom));
    const emu = await runCli(["--port", "0", "--admin", "--data", file, "--fixtures", fx], (l) => lines.push(l));
    try {
      expect(lines[0]).toBe(`SecretOps emulator listening on ${emu.url} (pid ${process.pid})`);
      expect(lines).toContain("Token: custom-fixture-token");
      const r = await fetch(`${emu.url}${apiPaths.appConnections("auth0")}`, {
        headers: { authorization: "Bearer custom-fixture-token" },
      });
      expect(r.headers.get("x-ratelimit-limit")).toBe("60");
      expect((await fetch(`${emu.url}/__admin/requests`)).status).toBe(200);
    } finally {
      await emu.stop();
    }
    expect(JSON.parse(readFileSync(file, "utf8")).defaultToken).toBe("custom-fixture-token");
  });

  test("a temporary copy left by a killed emulator is removed at start; a live process's is kept", async () => {
    const file = join(dir, "orphans.json");
    // A pid that is gone: a child that has exited and been reaped.
    const gone = spawnSync(process.execPath, ["-e", ""], { timeout: 30_000, killSignal: "SIGKILL" }).pid!;
    writeFileSync(`${file}.${gone}.3.tmp`, "{");
    // …and one of a process that is alive (this test's parent).
    writeFileSync(`${file}.${process.ppid}.1.tmp`, "{");
    const emu = await start({ data: file });
    await emu.emu.stop();
    const left = readdirSync(dir).filter((f) => f.startsWith("orphans.json."));
    expect(left).toEqual([`orphans.json.${process.ppid}.1.tmp`]);
  });
});
