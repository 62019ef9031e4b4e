import * as path from "node:path";
import { SecretOpsClient } from "../../sdk";
import { startEmulator } from "../../emulator";
import { createTestStack, managedResources, programsDir, type TestStack } from "./harness";
import { nativeEnv, pluginBinDir } from "./native";

/**
 * What docs/resources.md says of duplicates through the native plugin, under the real engine: the
 * engine's Check carries values only (an unknown one with no origin), so two secrets with one key
 * in a folder the same `up` makes pass preview; the `up` refuses the second at its check, naming
 * both, and the service holds at most one of them.
 */
jest.setTimeout(15 * 60_000);

const failure = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: unknown) => String(e),
  );

test("a YAML program's duplicate in a declared folder passes preview and is refused at up, naming both", async () => {
  const emulator = await startEmulator({ port: 0, admin: true, rateLimits: false });
  const plugin = pluginBinDir();
  let t: TestStack | undefined;
  try {
    const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
    t = await createTestStack({
      program: path.join(programsDir, "native-duplicates"),
      config: {
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
      },
      env: nativeEnv(plugin.dir),
    });
    expect(await failure(t.stack.preview())).toBe("");
    const up = await failure(t.stack.up());
    expect(up).toMatch(
      /secretName: Secret "key-[ab]" and Secret "key-[ab]" of this program both declare this secretName/,
    );
    const project = (await client.projects.list()).find((p) => p.slug === "native-dups")!;
    const place = { projectId: project.id, environment: "dev", secretPath: "/backend" };
    const made = (await client.secrets.list(place)).filter((s) => s.secretKey === "API_KEY");
    expect(made.length).toBeLessThanOrEqual(1);
    const inState = managedResources(t).filter((urn) => /::key-[ab]$/.test(urn));
    expect(inState.length).toBe(made.length);
  } finally {
    try {
      await t?.dispose({ destroy: false });
    } finally {
      plugin.dispose();
      await emulator.stop();
    }
  }
});
