import { changeCounts, createTestStack, managedResources } from "./harness";
import { engineEnv, EngineEnv, FixtureSummary, LoggedRequest, writes } from "./lifecycle";

// The guard rails the docs promise at the edges a real program reaches (issue 17), under the real engine
// against the emulator: two syncs of one program to one destination at the engine's default
// parallelism, a rotation replaced onto its own secrets, an issuer switch, and previews that show
// only real differences.
jest.setTimeout(20 * 60_000);

type Args = Record<string, unknown>;
const api = (rs: LoggedRequest[]) => rs.map((r) => `${r.method} ${r.path}`);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: unknown) => String(e),
  );

function connection(f: FixtureSummary, app: string, projectId?: string) {
  const c = f.connections.find((x) => x.app === app && (!x.projectId || x.projectId === projectId));
  if (!c) throw new Error(`fixture has no ${app} connection`);
  return c;
}

describe("guard rails under the real engine", () => {
  let env: EngineEnv;
  let f: FixtureSummary;
  beforeAll(async () => {
    env = await engineEnv();
    f = env.emulator.summary;
  });
  afterAll(async () => {
    await env?.dispose();
  });
  // Each test starts from an empty stack; most end with one already (an `up` then costs seconds for nothing).
  afterEach(async () => {
    if (managedResources(env.t).length === 0) return;
    await env.declare([]);
    await env.t.stack.up();
  });

  const syncArgs = (name: string, app: string, extra: Args = {}): Args => {
    const p = f.projects[0]!;
    return {
      destination: "vercel",
      name,
      projectId: p.id,
      connectionId: connection(f, "vercel", p.id).id,
      environment: p.environments[0],
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      // `appName` is a label the service's duplicate check ignores: these differ only there.
      destinationConfig: { app, appName: `${name}-label`, env: "production", teamId: "team_1" },
      waitForSync: false,
      ...extra,
    };
  };

  it("refuses two syncs of one program to one destination at preview, with no token and no API call", async () => {
    await env.declare([
      { kind: "SecretSync", name: "web-a", args: syncArgs("web-a", "prj_shared") },
      { kind: "SecretSync", name: "web-b", args: syncArgs("web-b", "prj_shared") },
    ]);
    await env.t.stack.removeConfig("secretops:token");
    try {
      await env.resetRequests();
      const text = await failure(env.t.stack.preview());
      expect(text).toMatch(
        /destinationConfig: SecretSync "web-[ab]" and SecretSync "web-[ab]" of this program both sync to this destination through the same connection, and two syncs would overwrite each other's secrets/,
      );
      expect(await env.requests()).toEqual([]);
    } finally {
      await env.t.stack.setConfig("secretops:token", { value: env.emulator.token, secret: true });
    }
  });

  it("refuses them at up in five trials in a row at default parallelism: one sync on the server, one error naming both", async () => {
    for (let trial = 1; trial <= 5; trial++) {
      await env.declare([
        { kind: "SecretSync", name: "web-a", args: syncArgs("web-a", "prj_shared") },
        { kind: "SecretSync", name: "web-b", args: syncArgs("web-b", "prj_shared") },
      ]);
      await env.resetRequests();
      const text = await failure(env.t.stack.up());
      const named = text.match(/SecretSync "web-[ab]" and SecretSync "web-[ab]" of this program/g) ?? [];
      expect([trial, new Set(named).size]).toEqual([trial, 1]);
      expect(text).toContain('SecretSync "web-a"');
      expect(text).toContain('SecretSync "web-b"');
      // The first checked is made (the engine goes on with it); the second is refused at its check.
      expect([trial, api(writes(await env.requests()))]).toEqual([trial, ["POST /api/v1/secret-syncs/vercel"]]);
      const made = await env.client.secretSyncs.list("vercel", f.projects[0]!.id);
      expect([trial, made.filter((s) => s.destinationConfig.app === "prj_shared").length]).toEqual([trial, 1]);

      // With one of them pointed elsewhere both are made, each to its own destination.
      await env.declare([
        { kind: "SecretSync", name: "web-a", args: syncArgs("web-a", "prj_shared") },
        { kind: "SecretSync", name: "web-b", args: syncArgs("web-b", "prj_other") },
      ]);
      await env.t.stack.up();
      const syncs = await env.client.secretSyncs.list("vercel", f.projects[0]!.id);
      const apps = syncs.filter((s) => s.name.startsWith("web-")).map((s) => s.destinationConfig.app);
      expect([trial, apps.sort()]).toEqual([trial, ["prj_other", "prj_shared"]]);
      await env.declare([]);
      await env.t.stack.up();
    }
  });

  it("leaves two syncs through two connections to the service's rule, deterministically, naming the other sync", async () => {
    // The service's duplicate rule (services/secret-sync/secret-sync-service.ts,
    // checkDuplicateDestination, with secret-sync-maps.ts): configs deeply equal but for the
    // destination's skip fields (vercel: appName), then the destination's own function. Its newest
    // version hands that function both syncs' connections, which it decrypts; the readable map
    // (and so the emulator) decides by the configs alone. The program cannot read connections, so
    // it leaves two connections (two Vercel teams' tokens, say) to the service, and asks it one
    // create at a time: here the second is refused naming the first, in every trial.
    const p = f.projects[0]!;
    const other = await env.client.appConnections.create("vercel", {
      name: "vercel-second-team",
      method: "api-token",
      credentials: { apiToken: "second-team-token" },
    });
    for (let trial = 1; trial <= 3; trial++) {
      await env.declare([
        { kind: "SecretSync", name: "team-a", args: syncArgs("team-a", "prj_teams") },
        { kind: "SecretSync", name: "team-b", args: syncArgs("team-b", "prj_teams", { connectionId: other.id }) },
      ]);
      await env.resetRequests();
      expect(changeCounts((await env.t.stack.preview()).changeSummary).create).toBe(2);
      expect(await env.requests()).toEqual([]);
      const text = await failure(env.t.stack.up());
      expect(text).toMatch(
        /destinationConfig: secret sync "team-[ab]" \(project [0-9a-f-]+\) already syncs to this destination/,
      );
      const made = await env.client.secretSyncs.list("vercel", p.id);
      expect([trial, made.filter((s) => s.destinationConfig.app === "prj_teams").length]).toEqual([trial, 1]);
      // Allowed on purpose, both are made (the one made first switches the opt-out on in place).
      await env.declare([
        {
          kind: "SecretSync",
          name: "team-a",
          args: syncArgs("team-a", "prj_teams", { allowDuplicateDestination: true }),
        },
        {
          kind: "SecretSync",
          name: "team-b",
          args: syncArgs("team-b", "prj_teams", { connectionId: other.id, allowDuplicateDestination: true }),
        },
      ]);
      await env.t.stack.up();
      const both = await env.client.secretSyncs.list("vercel", p.id);
      expect([trial, both.filter((s) => s.destinationConfig.app === "prj_teams").length]).toEqual([trial, 2]);
      await env.declare([]);
      await env.t.stack.up();
    }
    await env.client.appConnections.delete("vercel", other.id);
  });

  // Where reads are plentiful, each create asks the service's check-destination; where they are
  // scarce, the creates share rounds of the project's list (provider/secret-sync.ts, settle).
  // GenericSecretSync asks through the untyped routes.
  it.each([
    ["SecretSync", "plentiful reads", "100000"],
    ["SecretSync", "the service's default read budget", "60"],
    ["GenericSecretSync", "plentiful reads", "100000"],
    ["GenericSecretSync", "the service's default read budget", "60"],
  ])("keeps exactly one %s when two stacks create one to the same destination at once, %s", async (kind, _, reads) => {
    await env.t.stack.setConfig("secretops:readsPerMinute", { value: reads });
    const other = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: env.emulator.url },
        "secretops:token": { value: env.emulator.token, secret: true },
        "secretops:readsPerMinute": { value: reads },
        "secretops:writesPerMinute": { value: "100000" },
        "secretops:secretsPerMinute": { value: "100000" },
        "resources:resources": {
          value: JSON.stringify([{ kind, name: "race-b", args: syncArgs("race-b", "prj_race") }]),
        },
      },
    });
    try {
      await env.declare([{ kind, name: "race-a", args: syncArgs("race-a", "prj_race") }]);
      // Both creates are held long enough that each stack's check sees no sync there yet.
      await env.admin.addFault({
        method: "POST",
        path: "^/api/v1/secret-syncs/vercel$",
        kind: "latency",
        latencyMs: 4000,
        count: 2,
      });
      await env.resetRequests();
      const outcomes = await Promise.allSettled([env.t.stack.up(), other.stack.up()]);
      const sent = api(await env.requests());
      const checks = sent.filter((r) => r === "POST /api/v1/secret-syncs/vercel/check-destination");
      const rounds = sent.filter((r) => /^GET \/api\/v1\/secret-syncs(\?|$)/.test(r));
      // Each stack's check before its create; then, where reads are plentiful, a second check for a
      // rival (the project listed only when it finds one), and where they are scarce, a round of
      // the project's list in each stack.
      if (reads === "60") {
        expect(checks).toHaveLength(2);
        expect(rounds.length).toBeGreaterThanOrEqual(2);
      } else {
        expect(checks).toHaveLength(4);
        expect(rounds.length).toBeLessThanOrEqual(2);
      }
      const syncs = await env.client.secretSyncs.list("vercel", f.projects[0]!.id);
      expect(syncs.filter((s) => s.destinationConfig.app === "prj_race")).toHaveLength(1);
      expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      // The refusal names the sync that stays.
      const kept = syncs.find((s) => s.destinationConfig.app === "prj_race")!;
      expect(String(refused.reason)).toContain(
        `destinationConfig: secret sync "${kept.name}" (project ${f.projects[0]!.id}) already syncs to this destination`,
      );
    } finally {
      await env.admin.clearFaults();
      await other.dispose();
      await env.t.stack.setConfig("secretops:readsPerMinute", { value: "100000" });
    }
  });

  it("refuses a plain http endpoint for a host other than loopback already at preview, sending nothing", async () => {
    await env.declare([{ kind: "SecretSync", name: "web-a", args: syncArgs("web-a", "prj_http") }]);
    await env.t.stack.setConfig("secretops:apiUrl", { value: "http://0.0.0.0:9" });
    try {
      await env.resetRequests();
      const text = await failure(env.t.stack.preview());
      expect(text).toContain(
        "secretops:apiUrl uses plain http for 0.0.0.0, which would send the token unencrypted across the network",
      );
      expect(text).not.toContain(env.emulator.token);
      expect(await env.requests()).toEqual([]);
    } finally {
      await env.t.stack.setConfig("secretops:apiUrl", { value: env.emulator.url });
    }
  });

  it("fails a getAuditLogs query with a bad filter like a bad resource arg: the filter and the rule, no stack, no request", async () => {
    await env.t.stack.setConfig("resources:auditQuery", {
      value: JSON.stringify({ projectID: f.projects[0]!.id, startDate: "yesterday", maxEntries: 0 }),
    });
    try {
      await env.resetRequests();
      const text = await failure(env.t.stack.preview());
      expect(text).toContain(
        "getAuditLogs has a problem: projectID: is not a filter of getAuditLogs (filters: projectId,",
      );
      expect(text).toContain("; maxEntries: must be at least 1; startDate: ");
      expect(text).not.toMatch(/\n\s+at /);
      expect(await env.requests()).toEqual([]);
    } finally {
      await env.t.stack.removeConfig("resources:auditQuery");
    }
  });

  const rotationArgs = (connectionId: string, extra: Args = {}): Args => ({
    type: "postgres-credentials",
    name: "app-db",
    projectId: f.projects[0]!.id,
    connectionId,
    environment: "dev",
    secretPath: "/app/db",
    rotationInterval: 30,
    parameters: { username1: "app_a", username2: "app_b" },
    secretsMapping: { username: "APP_DB_USER", password: "APP_DB_PASSWORD" },
    ...extra,
  });

  it("replaces a rotation onto its own secrets, and says what to do about a destroyed rotation's leftovers", async () => {
    const first = connection(f, "postgres").id;
    const second = (
      await env.client.appConnections.create("postgres", {
        name: "second-postgres",
        method: "username-and-password",
        credentials: {
          host: "db2.emulator.local",
          port: 5432,
          database: "app",
          username: "rotator",
          password: "second-db-password",
          sslEnabled: false,
          sslRejectUnauthorized: false,
        },
      })
    ).id;
    try {
      await env.declare([{ kind: "SecretRotation", name: "app-db", args: rotationArgs(first) }]);
      await env.t.stack.up();

      // A new connection replaces the rotation (deleteSecrets is false by default): its successor
      // takes the secrets over.
      await env.declare([{ kind: "SecretRotation", name: "app-db", args: rotationArgs(second) }]);
      const replaced = await env.t.stack.up();
      expect(changeCounts(replaced.summary.resourceChanges).replace).toBe(1);
      const rotations = await env.client.secretRotations.list("postgres-credentials", f.projects[0]!.id);
      expect(rotations.filter((r) => r.name === "app-db").map((r) => r.connectionId)).toEqual([second]);

      // Destroyed with deleteSecrets: false, the rotation leaves its secrets behind, and a new one
      // over them fails saying why and what to do.
      await env.declare([]);
      await env.t.stack.up();
      await env.declare([{ kind: "SecretRotation", name: "app-db", args: rotationArgs(first) }]);
      const text = await failure(env.t.stack.up());
      expect(text).toContain(
        'secretsMapping: The following secrets already exist at the path "/app/db": APP_DB_USER, APP_DB_PASSWORD. A rotation writes only secrets it creates; these are most likely left by a rotation deleted with deleteSecrets: false (the default). Delete those secrets (or move them) and run the update again, or map other secret names',
      );
    } finally {
      await env.declare([]);
      await env.t.stack.up();
      await env.client.appConnections.delete("postgres", second);
    }
  });

  it("switches a profile's issuer by replacing it: the service's PATCH cannot move its CA", async () => {
    const policy = f.certificatePolicies[0]!;
    const profile = (issuer: Args): Args => ({
      projectId: policy.projectId,
      certificatePolicyId: policy.id,
      slug: "issuer-switch",
      enrollmentType: "api",
      apiConfig: { autoRenew: false },
      ...issuer,
    });
    const ca = f.certificateAuthorities.find((c) => c.projectId === policy.projectId)!.id;
    await env.declare([{ kind: "CertificateProfile", name: "switch", args: profile({ issuerType: "ca", caId: ca }) }]);
    await env.t.stack.up();

    for (const issuer of [{ issuerType: "self-signed" }, { issuerType: "ca", caId: ca }]) {
      await env.declare([{ kind: "CertificateProfile", name: "switch", args: profile(issuer) }]);
      const preview = await env.t.stack.preview();
      expect(changeCounts(preview.changeSummary)).toMatchObject({ replace: 1, update: 0 });
      const up = await env.t.stack.up();
      expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ replace: 1, update: 0 });
      const stored = await env.client.certificateProfiles.getBySlug("issuer-switch", policy.projectId);
      expect({ issuerType: stored.issuerType, caId: stored.caId ?? null }).toEqual({
        issuerType: issuer.issuerType,
        caId: issuer.caId ?? null,
      });
    }
  });

  it("switches a profile's enrollment type by replacing it: the service's PATCH never creates the new type's config", async () => {
    const policy = f.certificatePolicies[0]!;
    const ca = f.certificateAuthorities.find((c) => c.projectId === policy.projectId)!.id;
    const base = { projectId: policy.projectId, certificatePolicyId: policy.id, caId: ca, slug: "enrollment-switch" };
    await env.declare([
      {
        kind: "CertificateProfile",
        name: "enrollment",
        args: { ...base, enrollmentType: "api", apiConfig: { autoRenew: false } },
      },
    ]);
    await env.t.stack.up();
    await env.declare([
      {
        kind: "CertificateProfile",
        name: "enrollment",
        args: { ...base, enrollmentType: "acme", acmeConfig: { skipDnsOwnershipVerification: true } },
      },
    ]);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ replace: 1, update: 0 });
    const stored = await env.client.certificateProfiles.getBySlug("enrollment-switch", policy.projectId);
    expect(stored.enrollmentType).toBe("acme");
    expect(stored.acmeConfigId).toEqual(expect.any(String));
  });

  it("shows only real differences after a refresh of out-of-band drift on connection settings", async () => {
    const postgres = connection(f, "postgres").id;
    await env.declare([
      {
        kind: "AppConnectionSettings",
        name: "db-settings",
        args: { app: "postgres", connectionId: postgres, description: "managed by pulumi" },
      },
    ]);
    await env.t.stack.up();
    await env.client.appConnections.update("postgres", postgres, { description: "edited by hand" });
    await env.t.stack.refresh();
    const preview = await env.t.stack.preview({ diff: true });
    expect(changeCounts(preview.changeSummary).update).toBe(1);
    expect(preview.stdout).toMatch(/~ description\s*: "edited by hand" => "managed by pulumi"/);
    expect(preview.stdout).not.toMatch(/- (connectionName|isAutoRotationEnabled|isPlatformManagedCredentials)/);
    await env.t.stack.up();
    const after = await env.t.stack.preview({ diff: true });
    expect(changeCounts(after.changeSummary)).toMatchObject({ update: 0, replace: 0, create: 0, delete: 0 });
  });

  it("shows which secret changed in a preview (its revision, never its value); a dropped adoptExisting is no change", async () => {
    const policy = f.certificatePolicies[0]!;
    const ca = f.certificateAuthorities.find((c) => c.projectId === policy.projectId)!.id;
    const est = {
      projectId: policy.projectId,
      certificatePolicyId: policy.id,
      caId: ca,
      slug: "est-devices",
      enrollmentType: "est",
      estConfig: { disableBootstrapCaValidation: true },
      secretFieldsFrom: ["estConfig"],
    };
    const canaries = ["canary-est-first-7d1c", "canary-est-second-93ab"];
    const withPassphrase = async (passphrase: string) =>
      env.t.stack.setConfig("resources:secrets", {
        value: JSON.stringify({ est: { estConfig: { passphrase } } }),
        secret: true,
      });
    await withPassphrase(canaries[0]!);
    await env.declare([{ kind: "CertificateProfile", name: "est", args: est }]);
    await env.t.stack.up();

    await withPassphrase(canaries[1]!);
    const preview = await env.t.stack.preview({ diff: true });
    // The engine masks every secret as the same [secret]: the plain revision names the changed one.
    expect(changeCounts(preview.changeSummary).update).toBe(1);
    expect(preview.stdout).toMatch(/estConfig\s*: \[secret\]/);
    expect(preview.stdout).toMatch(/~ secretRevisions\s*: \{\s*~ estConfig\.passphrase: 1 => 2\s*\}/);
    for (const c of canaries) expect(preview.stdout).not.toContain(c);
    await env.t.stack.up();

    // Adopted, then the flag dropped: nothing to do.
    await env.declare([]);
    await env.t.stack.up();
    // Made elsewhere, through the API: the sync's body, without the resource's kind and options.
    const { destination: _d, waitForSync: _w, ...body } = syncArgs("adopted", "prj_adopted");
    await env.client.secretSyncs.create("vercel", body as never);
    await env.declare([
      { kind: "SecretSync", name: "adopted", args: syncArgs("adopted", "prj_adopted", { adoptExisting: true }) },
    ]);
    await env.t.stack.up();
    await env.declare([{ kind: "SecretSync", name: "adopted", args: syncArgs("adopted", "prj_adopted") }]);
    const dropped = await env.t.stack.preview({ diff: true });
    expect(changeCounts(dropped.changeSummary)).toMatchObject({ update: 0, replace: 0, create: 0, delete: 0 });
  });
});
