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
