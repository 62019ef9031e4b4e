import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { installPacked } from "../../scripts/packed-install";
import { changeCounts, createTestStack, programsDir, repoRoot, type TestStack } from "./harness";
import type { Emulator } from "./lifecycle";

// Issue 27's edges, as a user meets them: the packed package installed in a program of its own,
// under the real engine, against the emulator.
jest.setTimeout(20 * 60_000);

type Declared = { kind: string; name: string; args: Record<string, unknown> };

describe("edges, from the packed package", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-edges-"));
  let emulator: Emulator;
  let t: TestStack;
  let client: SecretOpsClient;
  let admin: EmulatorAdmin;
  const declare = (resources: Declared[]) =>
    t.stack.setConfig("resources:resources", { value: JSON.stringify(resources) });
  const apiRequests = async () => (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
  const failureOf = (op: Promise<unknown>) =>
    op.then(
      () => "",
      (e: unknown) => String(e),
    );

  beforeAll(async () => {
    installPacked(repoRoot, dir);
    for (const f of ["Pulumi.yaml", "index.js"])
      fs.copyFileSync(path.join(programsDir, "resources", f), path.join(dir, f));
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 50 });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    admin = new EmulatorAdmin(emulator.url);
    t = await createTestStack({
      program: dir,
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
        "secretops:readsPerMinute": { value: "100000" },
        "secretops:writesPerMinute": { value: "100000" },
        "secretops:secretsPerMinute": { value: "100000" },
        "resources:resources": { value: "[]" },
      },
    });
  });
  afterAll(async () => {
    await t?.dispose({ destroy: false }); // the emulator stops next
    await emulator?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connection = (projectId?: string): Declared => ({
    kind: "AppConnection",
    name: "conn",
    args: {
      app: "vercel",
      name: "edge-vercel",
      method: "api-token",
      credentials: { apiToken: "edge-token-canary-1" },
      ...(projectId && { projectId }),
    },
  });

  it("moves a connection to the organization when its projectId is dropped (a replacement)", async () => {
    const project = emulator.summary.projects[0]!;
    await declare([connection(project.id)]);
    await t.stack.up();
    const before = ((await t.stack.outputs()).conn!.value as { id: string }).id;
    expect((await client.appConnections.get("vercel", before)).projectId).toBe(project.id);

    await declare([connection()]);
    const preview = await t.stack.preview({ diff: true });
    expect(changeCounts(preview.changeSummary).replace).toBe(1);
    expect(preview.stdout).toMatch(/projectId/);
    await t.stack.up();
    const after = ((await t.stack.outputs()).conn!.value as { id: string }).id;
    expect(after).not.toBe(before);
    expect((await client.appConnections.get("vercel", after)).projectId ?? null).toBeNull();
    await expect(client.appConnections.get("vercel", before)).rejects.toMatchObject({ status: 404 });
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 2 });
    await t.stack.refresh();
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("GenericSecretSync sends fields newer than the package for a destination it types; SecretSync refuses them", async () => {
    const project = emulator.summary.projects[0]!;
    const vercel = emulator.summary.connections.find((c) => c.app === "vercel" && !c.projectId)!.id;
    const sync = (kind: string): Declared => ({
      kind,
      name: "generic",
      args: {
        destination: "vercel",
        name: "edge-generic",
        projectId: project.id,
        connectionId: vercel,
        environment: project.environments[0]!,
        secretPath: "/",
        waitForSync: false,
        syncOptions: { initialSyncBehavior: "overwrite-destination", edgesFutureOption: true },
        destinationConfig: { app: "prj_edge", appName: "edge", env: "production", teamId: "t", edgesFutureField: "x" },
      },
    });
    await declare([sync("SecretSync")]);
    await admin.clearRequests();
    const typed = await failureOf(t.stack.preview());
    expect(typed).toMatch(/resource 'generic' has a problem: syncOptions: unknown field "edgesFutureOption"/);
    expect(typed).toMatch(/resource 'generic' has a problem: destinationConfig: unknown field "edgesFutureField"/);
    expect(await apiRequests()).toEqual([]);

    await declare([sync("GenericSecretSync")]);
    expect(changeCounts((await t.stack.preview()).changeSummary).create).toBe(1);
    await t.stack.up();
    const id = ((await t.stack.outputs()).generic!.value as { id: string }).id;
    // The service's request schema is a plain z.object: it takes the sync and drops what it does
    // not know (services/secret-sync/vercel/vercel-sync-schemas.ts).
    expect((await client.secretSyncs.get("vercel", id)).destinationConfig).not.toHaveProperty("edgesFutureField");
    await declare([]);
    await t.stack.up();
  });

  it("a destroy the service refuses prints one message, naming what to do, with no stack trace", async () => {
    const project = emulator.summary.projects[0]!;
    await declare([connection()]);
    await t.stack.up();
    const id = ((await t.stack.outputs()).conn!.value as { id: string }).id;
    const user = await client.secretSyncs.create("vercel", {
      name: "uses-the-edge-connection",
      projectId: project.id,
      connectionId: id,
      environment: project.environments[0]!,
      secretPath: "/",
      isAutoSyncEnabled: false,
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: "prj_in_use", appName: "in-use", env: "production", teamId: "t" },
    });
    const output: string[] = [];
    await declare([]);
    const failure = await failureOf(t.stack.up({ onOutput: (s) => output.push(s) }));
    const message = 'connection "edge-vercel" is still used by a secret sync or rotation';
    expect(failure).toContain(message);
    const text = output.join("");
    // Once in the resource's diagnostics (the progress line may show it too), never at stack
    // level, never as "Error: X: Error: X", never with a JavaScript stack trace.
    const diagnostics = text.slice(text.indexOf("Diagnostics:"));
    expect(diagnostics.split(message)).toHaveLength(2);
    expect(text).not.toMatch(/Error: connection "edge-vercel"/);
    expect(text).not.toMatch(/^\s+at \S+ \(.*:\d+:\d+\)$/m);
    await client.secretSyncs.delete("vercel", user.id);
    await t.stack.up();
    expect((await t.stack.preview()).changeSummary).toEqual({ same: 1 });
  });
});
