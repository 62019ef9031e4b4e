import { EmulatorAdmin, startEmulator } from "../../emulator";
import { SecretOpsApiError, SecretOpsClient } from "../../sdk";
import { configure } from "../../provider/config";
import { dynamicProvider } from "../../provider/dynamic-provider";
import { secretDefinition } from "../../provider/secret";

// What the Secret provider does with the service's answers read again from its source
// (docs/service-api.md §12): a value's references are read as written, and a folder deleted out of
// band is a 404 that a refresh takes as the secret gone. Each operation is a provider process of
// its own (a fresh `dynamicProvider`), as under the engine.

describe("a secret's reads", () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  let client: SecretOpsClient;
  let admin: EmulatorAdmin;
  beforeAll(async () => {
    emulator = await startEmulator({ rateLimits: false, admin: true });
    client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    admin = new EmulatorAdmin(emulator.url);
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

  const project = () => emulator.summary.projects[0]!;
  const declare = async (secretPath: string, secretName: string, secretValue: string) => {
    const p = dynamicProvider(secretDefinition);
    const args = { projectId: project().id, environment: "dev", secretPath, secretName, secretValue };
    const checked = await p.check!({}, args);
    expect(checked.failures ?? []).toEqual([]);
    return p.create(checked.inputs);
  };

  it("reads a value holding references as written: no drift, and the list asks for no expansion", async () => {
    const made = await declare("/app", "REFERS", "${EXISTING_SECRET}-and-${dev.app.db.NONE}");
    await admin.clearRequests();
    const read = await dynamicProvider(secretDefinition).read!(made.id, made.outs);
    expect(read.id).toBe(made.id);
    expect(read.inputs).toBeUndefined();
    expect(read.props).toEqual(made.outs);
    const lists = (await admin.requests()).filter((r) => r.method === "GET" && r.path === "/api/v4/secrets");
    expect(lists).toHaveLength(1);
    expect(new URL(lists[0]!.url, emulator.url).searchParams.get("expandSecretReferences")).toBe("false");
    // The service would give the expanded value to a read that asked for it.
    const expanded = await client.secrets.get("REFERS", {
      projectId: project().id,
      environment: "dev",
      secretPath: "/app",
      expandSecretReferences: true,
    });
    expect(expanded.secretValue).toBe("existing-value-and-${dev.app.db.NONE}");
  });

  it("a secret whose folder was deleted out of band: a refresh reports it gone, a destroy has nothing to do", async () => {
    const folder = await client.secretFolders.create({ projectId: project().id, environment: "dev", name: "doomed" });
    const made = await declare("/doomed", "DOOMED", "value");
    const kept = await declare("/app", "KEPT_BESIDE", "value");
    await client.secretFolders.delete(folder.id, { projectId: project().id, environment: "dev", forceDelete: true });
    const list = client.secrets.list({ projectId: project().id, environment: "dev", secretPath: "/doomed" });
    await expect(list).rejects.toMatchObject({ status: 404, error: "SecretPathNotFound" });
    await expect(list).rejects.toBeInstanceOf(SecretOpsApiError);

    // One refresh: the folder's list is a 404, the read by id confirms the secret is gone; the
    // other folder's secret is read as before.
    const refresh = dynamicProvider(secretDefinition);
    expect(await refresh.read!(made.id, made.outs)).toEqual({ id: "", props: {} });
    const other = await refresh.read!(kept.id, kept.outs);
    expect(other).toMatchObject({ id: kept.id });
    expect(other.inputs).toBeUndefined();
    await expect(dynamicProvider(secretDefinition).delete!(made.id, made.outs)).resolves.toBeUndefined();
  });
});
