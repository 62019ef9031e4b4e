import { SecretOpsClient } from "../../sdk";
import { EmulatorAdmin, type Fixtures, startEmulator } from "../../emulator";
import { defaultFixtures } from "../../emulator/fixtures";
import { changeCounts, cliStackExport, createTestStack, storedState, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

// Several endpoints in one program (issue 19): resources at the stack's endpoint and at a named one
// (two emulators, two tokens), the token of the named one only in the stack config, never in state,
// exports or output; moving a resource between endpoints replaces it; a missing endpoint fails the
// preview with no request sent.
jest.setTimeout(10 * 60_000);

const TOKEN_A = "canary-endpoint-a-token-5d1f0e";
const TOKEN_B = "canary-endpoint-b-token-9a7c2b";

/** The default fixtures with the default identity's token replaced. */
function fixturesWithToken(token: string): Fixtures {
  const [first, ...rest] = defaultFixtures.identities;
  // The fixture file's JSON types its enums as strings; startEmulator checks it with its schema.
  return { ...defaultFixtures, identities: [{ ...first!, tokens: [token] }, ...rest] } as Fixtures;
}

describe("two endpoints in one program", () => {
  let a: Emulator;
  let b: Emulator;
  let t: TestStack;
  const output: string[] = [];
  const onOutput = (s: string) => output.push(s);

  beforeAll(async () => {
    const start = (token: string) =>
      startEmulator({ fixtures: fixturesWithToken(token), admin: true, rateLimits: false, syncJobDelayMs: 50 });
    [a, b] = await Promise.all([start(TOKEN_A), start(TOKEN_B)]);
    t = await createTestStack({
      program: "resources",
      config: {
        "secretops:apiUrl": { value: a.url },
        "secretops:token": { value: TOKEN_A, secret: true },
        "resources:resources": { value: "[]" },
      },
    });
    // As the docs tell a user: `pulumi config set --path`, the token with --secret.
    await t.stack.setConfig("secretops:endpoints.b.apiUrl", { value: b.url }, true);
    await t.stack.setConfig("secretops:endpoints.b.token", { value: TOKEN_B, secret: true }, true);
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false }); // the emulator stops next
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const sync = (name: string, app: string, endpoint?: string) => {
    const p = a.summary.projects[0]!;
    return {
      kind: "SecretSync",
      name,
      args: {
        destination: "vercel",
        name,
        projectId: p.id,
        connectionId: a.summary.connections.find((c) => c.app === "vercel" && !c.projectId)!.id,
        environment: p.environments[0],
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app, appName: app, env: "production", teamId: "team_1" },
        ...(endpoint && { endpoint }),
      },
    };
  };
  const declare = (resources: unknown[]) =>
    t.stack.setConfig("resources:resources", { value: JSON.stringify(resources) });
  const namesAt = async (e: Emulator, token: string) => {
    const client = new SecretOpsClient({ baseUrl: e.url, token }, { rateLimit: false });
    return (await client.secretSyncs.list("vercel", e.summary.projects[0]!.id)).map((s) => s.name).sort();
  };
  const apiRequests = async (e: Emulator) =>
    (await new EmulatorAdmin(e.url).requests()).filter((r) => r.path.startsWith("/api/"));

  it("applies each resource at its own endpoint", async () => {
    await declare([sync("at-a", "prj_a"), sync("at-b", "prj_b", "b")]);
    const up = await t.stack.up({ onOutput });
    expect(changeCounts(up.summary.resourceChanges).create).toBe(3);
    expect(await namesAt(a, TOKEN_A)).toEqual(["at-a"]);
    expect(await namesAt(b, TOKEN_B)).toEqual(["at-b"]);
    const noChange = await t.stack.preview({ onOutput });
    expect(changeCounts(noChange.changeSummary).same).toBe(3);
  });

  it("refreshes each at its own endpoint with the config's token, and sees drift there", async () => {
    const client = new SecretOpsClient({ baseUrl: b.url, token: TOKEN_B }, { rateLimit: false });
    const remote = (await client.secretSyncs.list("vercel", b.summary.projects[0]!.id))[0]!;
    await client.secretSyncs.update("vercel", remote.id, { description: "changed at b" });
    const refresh = await t.stack.refresh({ onOutput });
    expect(refresh.summary.result).toBe("succeeded");
    const preview = await t.stack.preview({ onOutput });
    expect(changeCounts(preview.changeSummary).update).toBe(1);
    await t.stack.up({ onOutput });
    expect((await client.secretSyncs.get("vercel", remote.id)).description ?? null).toBeNull();
  });

  it("fails the preview of an endpoint the config lacks, naming it, with no request sent", async () => {
    const before = [(await apiRequests(a)).length, (await apiRequests(b)).length];
    await declare([sync("at-a", "prj_a"), sync("at-b", "prj_b", "b"), sync("at-c", "prj_c", "c")]);
    const failure = await t.stack.preview().then(
      () => "",
      (e: unknown) => String(e),
    );
    expect(failure).toContain(
      `resource 'at-c' has a problem: endpoint: no endpoint "c" in the stack config (it has b)`,
    );
    expect([(await apiRequests(a)).length, (await apiRequests(b)).length]).toEqual(before);
  });

  it("moves a resource to another endpoint by replacing it: created there, deleted here", async () => {
    await declare([sync("at-a", "prj_a", "b"), sync("at-b", "prj_b", "b")]);
    const up = await t.stack.up({ onOutput });
    expect(changeCounts(up.summary.resourceChanges).replace).toBe(1);
    expect(await namesAt(a, TOKEN_A)).toEqual([]);
    expect(await namesAt(b, TOKEN_B)).toEqual(["at-a", "at-b"]);
  });

  it("keeps both tokens out of state, `stack export` and every operation's output", async () => {
    const stored = storedState(t);
    const exported = await cliStackExport(t);
    for (const token of [TOKEN_A, TOKEN_B]) {
      expect(stored).not.toContain(token);
      expect(exported).not.toContain(token);
      expect(output.join("")).not.toContain(token);
    }
    // The endpoint's name is what the state holds.
    expect(stored).toMatch(/"endpoint":\s*"b"/);
  });

  it("fails the program when a named endpoint's token is plain stack config, naming the key and not the value", async () => {
    await t.stack.removeConfig("secretops:endpoints");
    await t.stack.setConfig("secretops:endpoints.b.apiUrl", { value: b.url }, true);
    await t.stack.setConfig("secretops:endpoints.b.token", { value: "plain-token-not-a-secret" }, true);
    const failure = await t.stack.preview().then(
      () => "",
      (e: unknown) => String(e),
    );
    expect(failure).toContain("secretops:endpoints holds b.token as plain stack config");
    expect(failure).not.toContain("plain-token-not-a-secret");
    await t.stack.setConfig("secretops:endpoints.b.token", { value: TOKEN_B, secret: true }, true);
  });

  it("destroys each at its endpoint", async () => {
    await declare([]);
    await t.stack.up({ onOutput });
    expect(await namesAt(b, TOKEN_B)).toEqual([]);
  });
});
