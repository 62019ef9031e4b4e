import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { appConnectionDefinition } from "../../provider/app-connection";

// A connection a sync still uses: the service refuses to delete it, and the error says why and what to do.

describe("AppConnection's delete against the emulator", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("says the connection is still used by a sync, and deletes it once the sync is gone", async () => {
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    const p = emulator.summary.projects[0]!;
    const connection = await client.appConnections.create("vercel", {
      name: "used-by-a-sync",
      method: "api-token",
      credentials: { apiToken: "emulator-vercel-token" },
    });
    const sync = await client.secretSyncs.create("vercel", {
      name: "uses-the-connection",
      projectId: p.id,
      connectionId: connection.id,
      environment: p.environments[0]!,
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { app: "prj_in_use", appName: "web", env: "production", teamId: "team_1" },
      isAutoSyncEnabled: false,
    });
    const outs = { app: "vercel", name: connection.name } as never;
    await expect(appConnectionDefinition.delete(client, connection.id, outs)).rejects.toThrow(
      /^connection "used-by-a-sync" is still used by a secret sync or rotation, so the service refuses to delete it: delete those or point them at another connection first/,
    );
    await client.secretSyncs.delete("vercel", sync.id);
    await appConnectionDefinition.delete(client, connection.id, outs);
    await expect(client.appConnections.get("vercel", connection.id)).rejects.toMatchObject({ status: 404 });
  });
});
