import { startEmulator } from "../../emulator";
import { SecretOpsClient } from "../../sdk";
import { configure } from "../../provider/config";

/** An emulator, a client of it, and the provider process configured to call it. */
export interface AgainstEmulator {
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  client: SecretOpsClient;
}

/**
 * Starts an emulator for the test file (no rate limits) and points the provider process's
 * settings at it, as the engine's `configure` does; stops it after. Read the fields inside tests.
 */
export function providerAgainstEmulator(): AgainstEmulator {
  const at = {} as AgainstEmulator;
  beforeAll(async () => {
    at.emulator = await startEmulator({ rateLimits: false });
    at.client = new SecretOpsClient({ baseUrl: at.emulator.url, token: at.emulator.token }, { rateLimit: false });
    const settings: Record<string, string> = {
      "secretops:apiUrl": at.emulator.url,
      "secretops:token": at.emulator.token,
      "secretops:readsPerMinute": "100000",
    };
    configure({ get: (key: string) => settings[key] });
  });
  afterAll(async () => {
    await at.emulator?.stop();
  });
  return at;
}
