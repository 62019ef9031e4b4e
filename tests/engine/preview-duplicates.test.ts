import * as path from "node:path";
import { runAsync, TIMEOUTS } from "../../scripts/run-sync";
import { managedResources, pulumiBinDir, storedState } from "./harness";
import { engineEnv, type EngineEnv, writes } from "./lifecycle";

/**
 * Duplicates at the first preview (issue 45): on a new stack, a key whose parts are outputs of
 * resources the same `up` makes (a folder's `secretPath`, a project's `id`) is unknown at preview.
 * Two resources given the same outputs hold the same key whatever it turns out to be: `pulumi
 * preview` refuses them, naming both, and so does `pulumi up` (its preview runs first), with no
 * request that changes anything at the service. Under the real engine, against the emulator.
 */
jest.setTimeout(20 * 60_000);

type Declared = { kind: string; name: string; args: Record<string, unknown> };
const ref = (output: string) => ({ $ref: output });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: unknown) => String(e),
  );

/** A project, its `dev` environment and a folder `/backend`, all made by the program. */
function tree(slug: string): Declared[] {
  const app = { projectId: ref("app.id") };
  return [
    { kind: "Project", name: "app", args: { projectName: "Duplicates", slug } },
    { kind: "ProjectEnvironment", name: "dev", args: { ...app, name: "Development", slug: "dev" } },
    { kind: "SecretFolder", name: "backend", args: { ...app, environment: ref("dev.slug"), name: "backend" } },
  ];
}
const inBackend = { projectId: ref("app.id"), environment: ref("dev.slug"), secretPath: ref("backend.secretPath") };

describe("duplicates on a new stack, at the first preview", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  /** `pulumi up --yes` as a user runs it: its preview first (the Automation API's `up` skips it). */
  const cliUp = () =>
    failure(
      runAsync(path.join(pulumiBinDir(), "pulumi"), ["up", "--yes", "--stack", env.t.stack.name], {
        cwd: env.t.stack.workspace.workDir,
        env: { ...process.env, ...env.t.envVars },
        timeoutMs: TIMEOUTS.install,
      }),
    );
  /** No project of that slug, and no request that changed anything, at the service. */
  async function nothingWritten(slug: string) {
    expect(writes(await env.requests())).toEqual([]);
    expect((await env.client.projects.list()).map((p) => p.slug)).not.toContain(slug);
    expect(managedResources(env.t)).toEqual([]);
  }

  it("refuses two Secrets with one key in one declared folder, naming both; preview and up write nothing", async () => {
    await env.declare([
      ...tree("dup-secrets"),
      { kind: "Secret", name: "key-a", args: { ...inBackend, secretName: "API_KEY", secretValue: "one" } },
      { kind: "Secret", name: "key-b", args: { ...inBackend, secretName: "API_KEY", secretValue: "two" } },
      // Another key in the same folder: no refusal.
      { kind: "Secret", name: "other", args: { ...inBackend, secretName: "OTHER_KEY", secretValue: "three" } },
    ]);
    await env.resetRequests();
    const rule =
      /secretName: Secret "key-[ab]" and Secret "key-[ab]" of this program both declare this secretName in one folder, which holds one; give one of them another secretName/;
    const preview = await failure(env.t.stack.preview());
    expect(preview).toMatch(rule);
    expect(preview).toContain('"key-a"');
    expect(preview).toContain('"key-b"');
    expect(preview).not.toContain('Secret "other"');
    await nothingWritten("dup-secrets");
    const up = await cliUp();
    expect(up).toMatch(rule);
    await nothingWritten("dup-secrets");
  });

  it("refuses two folders with one name under one declared parent folder, naming both", async () => {
    const under = { projectId: ref("app.id"), environment: ref("dev.slug"), path: ref("backend.secretPath") };
    await env.declare([
      ...tree("dup-folders"),
      { kind: "SecretFolder", name: "db-a", args: { ...under, name: "db" } },
      { kind: "SecretFolder", name: "db-b", args: { ...under, name: "db" } },
      { kind: "SecretFolder", name: "cache", args: { ...under, name: "cache" } },
    ]);
    await env.resetRequests();
    const preview = await failure(env.t.stack.preview());
    expect(preview).toMatch(
      /name: SecretFolder "db-[ab]" and SecretFolder "db-[ab]" of this program both declare this name in one parent path, which holds one; give one of them another name/,
    );
    expect(preview).toContain('"db-a"');
    expect(preview).toContain('"db-b"');
    await nothingWritten("dup-folders");
  });

  // Last: it leaves objects in the stack. With no preview to stop at, the check of each resource
  // runs once its values are known, while the engine may be creating the other one already.
  it("without a preview (`up --skip-preview`, the Automation API's up) refuses the second at its check, naming both", async () => {
    await env.declare([
      ...tree("dup-skip"),
      { kind: "Secret", name: "key-a", args: { ...inBackend, secretName: "API_KEY", secretValue: "one" } },
      { kind: "Secret", name: "key-b", args: { ...inBackend, secretName: "API_KEY", secretValue: "two" } },
    ]);
    const up = await failure(env.t.stack.up());
    expect(up).toMatch(
      /secretName: Secret "key-[ab]" and Secret "key-[ab]" of this program both declare this secretName/,
    );
    const project = (await env.client.projects.list()).find((p) => p.slug === "dup-skip")!;
    const place = { projectId: project.id, environment: "dev", secretPath: "/backend" };
    const made = (await env.client.secrets.list(place)).filter((s) => s.secretKey === "API_KEY");
    const secrets = managedResources(env.t).filter((urn) => urn.endsWith("::key-a") || urn.endsWith("::key-b"));
    // What the engine had begun before the refusal: one of the two (one in the run of 2026-11-28), or none.
    expect(made.length).toBeLessThanOrEqual(1);
    expect(secrets.length).toBe(made.length);
    // The origins the classes register for check are never stored: no resource's inputs or outputs
    // hold them (the engine's propertyDependencies list the key, with no value, as for __resourceName).
    const stored = JSON.parse(storedState(env.t)) as {
      checkpoint: { latest: { resources: { type: string; inputs?: object; outputs?: object }[] } };
    };
    const ours = stored.checkpoint.latest.resources.filter((r) => r.type.includes("secretops:"));
    expect(ours.length).toBeGreaterThanOrEqual(3);
    for (const r of ours) {
      expect(Object.keys(r.inputs ?? {})).not.toContain("__outputOrigins");
      expect(Object.keys(r.outputs ?? {})).not.toContain("__outputOrigins");
    }
  });
});
