import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { configure } from "../../provider/config";
import { provider } from "../../provider/provider-process";
import { ANSWER_REUSE_MS } from "../../provider/shared-reads";

// A refresh's read (provider/dynamic-provider.ts, readResource): inputs only where the service's
// args moved. The engine keeps a resource's inputs when a read returns none (the engine's
// RefreshStep), so a refresh of a stack that did not drift builds, encodes and sends none. The
// engine tests (connection-drift, behaviours) show what a user sees of drift.

describe("a refresh's read", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false, syncJobDelayMs: 10 });
    configure({
      get: (key: string) =>
        ({ "secretops:apiUrl": emulator.url, "secretops:token": emulator.token, "secretops:readsPerMinute": "100000" })[
          key
        ],
    });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("returns no inputs when only the sync's status moved, and inputs that follow the service when an arg did", async () => {
    const syncs = provider("SecretSync");
    const p = emulator.summary.projects[0]!;
    const args = {
      destination: "vercel",
      name: "refresh-read",
      projectId: p.id,
      connectionId: emulator.summary.connections.find((c) => c.app === "vercel")!.id,
      environment: p.environments[0]!,
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: "prj", appName: "web", env: "production", teamId: "team" },
      description: "declared",
      waitForSync: false,
    };
    const checked = await syncs.check!({}, args);
    expect(checked.failures ?? []).toEqual([]);
    const created = await syncs.create(checked.inputs);
    expect(created.outs.syncStatus).toBe("pending");
    // What the service answers null before the first job is left out of the outputs (and state).
    expect(created.outs).not.toHaveProperty("lastSyncedAt");
    expect(created.outs).not.toHaveProperty("lastSyncMessage");

    // The sync job ran since: its status and time moved, no arg did.
    await new Promise((r) => setTimeout(r, 200));
    const quiet = await syncs.read!(created.id, { ...created.outs, __provider: "serialized" });
    expect(quiet.props).toMatchObject({ syncStatus: "succeeded", description: "declared" });
    expect(quiet.inputs).toBeUndefined();

    // Changed out of band, then a later refresh (another process; here, past the list answer's
    // reuse): it reports the service's value as the input.
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    await client.secretSyncs.update("vercel", created.id, { description: "changed outside" });
    const later = jest.spyOn(Date, "now").mockReturnValue(Date.now() + ANSWER_REUSE_MS + 1_000);
    try {
      const drifted = await syncs.read!(created.id, { ...quiet.props, __provider: "serialized" });
      expect(drifted.props).toMatchObject({ description: "changed outside" });
      expect(drifted.inputs).toMatchObject({ description: "changed outside", destination: "vercel" });
    } finally {
      later.mockRestore();
    }
  });
});
