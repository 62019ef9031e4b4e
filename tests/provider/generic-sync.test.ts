import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { secretSyncDefinition } from "../../provider/secret-sync";

// GenericSecretSync passes its slug through unchecked: a slug the service does not have fails at
// create with the service's words and what to check, never a bare "route not found".

describe("GenericSecretSync against the emulator", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it("sends a field newer than the package to a destination the package types, for the service to judge", async () => {
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    const p = emulator.summary.projects[0]!;
    const body = {
      name: "generic-vercel",
      projectId: p.id,
      connectionId: emulator.summary.connections.find((c) => c.app === "vercel")!.id,
      environment: p.environments[0]!,
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination", edgesFutureOption: true },
      destinationConfig: { app: "prj", appName: "web", env: "production", teamId: "team", edgesFutureField: "x" },
      isAutoSyncEnabled: false,
    };
    // The typed client refuses it before sending; the untyped view sends it as given.
    await expect(client.secretSyncs.create("vercel", body as never)).rejects.toThrow(
      /unknown field "edgesFutureField"/,
    );
    const sync = await secretSyncDefinition.create!(
      client,
      { ...body, destination: "vercel" } as never,
      {
        untypedDestination: true,
        allowDuplicateDestination: true,
      } as never,
    );
    expect(sync.destination).toBe("vercel");
  });

  it("says the service has no such destination, naming the field and the escape hatch", async () => {
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    const p = emulator.summary.projects[0]!;
    const create = secretSyncDefinition.create!(
      client,
      {
        destination: "newer-than-this-package",
        name: "generic",
        projectId: p.id,
        connectionId: emulator.summary.connections[0]!.id,
        environment: p.environments[0]!,
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: {},
        isAutoSyncEnabled: true,
      } as never,
      { untypedDestination: true, allowDuplicateDestination: false } as never,
    );
    await expect(create).rejects.toThrow(
      /^destination: the service has no destination "newer-than-this-package" \(.*not found.*\); GenericSecretSync passes its slug through unchecked/,
    );
  });
});
