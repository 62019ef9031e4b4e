import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { changeCounts, cliStackExport, createTestStack, programsDir, repoRoot, TestStack } from "./harness";
import type { Emulator } from "./lifecycle";
import { EmulatorAdmin, startEmulator } from "../../emulator";
import { installPacked } from "../../scripts/packed-install";
import { providerModuleText } from "../../provider/program-side";
import { resourceTypes } from "../../provider/definition";
import { TIMEOUTS, runSync } from "../../scripts/run-sync";

// Every resource type.
const RESOURCE_TYPES = resourceTypes;

// A user's program that installs the packed package (`npm pack`) in a directory of its own
// behaves the same, and each resource's serialized provider stays small.
jest.setTimeout(15 * 60_000);

/** The provider options of the resources below, none of which sets one: each stays out of state. */
const DEFAULT_OPTIONS = [
  "adoptExisting",
  "removeSecrets",
  "waitForSync",
  "syncTimeoutSeconds",
  "allowDuplicateDestination",
  "untypedDestination",
  "deleteSecrets",
  "revokeGeneratedCredentials",
  "forceDelete",
];
/**
 * A sync's whole resource in state: 2,606 bytes when it was set (its args but those at what their
 * absence means, the service's object without its nulls, the provider's record without what the
 * outputs imply).
 */
const SYNC_STATE_BYTES = 2700;

describe("the packed package in a user's program", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secretops-user-"));
  let emulator: Emulator;
  let t: TestStack;

  beforeAll(async () => {
    installPacked(repoRoot, dir);
    for (const f of ["Pulumi.yaml", "index.js"])
      fs.copyFileSync(path.join(programsDir, "resources", f), path.join(dir, f));
    emulator = await startEmulator({ port: 0, admin: true, rateLimits: false, syncJobDelayMs: 50 });
  });
  afterAll(async () => {
    await t?.dispose();
    await emulator?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("resolves the package from its own node_modules, not from this checkout", () => {
    const resolved = require.resolve("secretops-pulumi/runtime", { paths: [dir] });
    expect(resolved.startsWith(fs.realpathSync(dir))).toBe(true);
  });

  it("registers as __provider exactly the text Pulumi's closure serializer writes for the installed module", () => {
    // What pulumi.dynamic.Resource stored for each type before the package wrote the text itself
    // (provider/program-side.ts providerModuleText): existing stacks see the same __provider.
    const probe = `
      const pulumi = require("@pulumi/pulumi");
      const types = ${JSON.stringify(RESOURCE_TYPES)};
      Promise.all(types.map((type) => {
        const provider = require("secretops-pulumi/runtime/" + type);
        return pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true }).then((sf) => sf.text);
      })).then((texts) => console.log(JSON.stringify(texts)));`;
    const out = runSync(process.execPath, ["-e", probe], { cwd: dir, timeoutMs: TIMEOUTS.quick });
    const serialized = JSON.parse(out.trim().split("\n").pop()!) as string[];
    expect(serialized).toEqual(RESOURCE_TYPES.map((type) => providerModuleText(type)));
  });

  it("runs up, a no-change preview making no API call, and destroy, in at most 4 KB of state per resource", async () => {
    const f = emulator.summary;
    const project = f.projects[0]!;
    // CAs, policies and profiles live in a cert-manager project: the fixture's.
    const pki = f.certificatePolicies[0]!.projectId;
    const conn = (app: string) => f.connections.find((c) => c.app === app)!.id;
    const resources = [
      {
        kind: "SecretSync",
        name: "sync",
        args: {
          destination: "azure-key-vault",
          name: "kv",
          projectId: project.id,
          connectionId: conn("azure-key-vault"),
          environment: "dev",
          secretPath: "/",
          syncOptions: { initialSyncBehavior: "overwrite-destination" },
          destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" },
        },
      },
      {
        kind: "SecretRotation",
        name: "rotation",
        args: {
          type: "redis-credentials",
          name: "cache",
          projectId: project.id,
          connectionId: conn("redis"),
          environment: "dev",
          secretPath: "/",
          rotationInterval: 14,
          parameters: { permissionScope: "~* +@all" },
          secretsMapping: { username: "REDIS_USER", password: "REDIS_PASSWORD" },
        },
      },
      {
        kind: "CertificateProfile",
        name: "profile",
        args: {
          projectId: pki,
          certificatePolicyId: f.certificatePolicies[0]!.id,
          slug: "self-signed-api",
          issuerType: "self-signed",
          enrollmentType: "api",
          apiConfig: { autoRenew: true, renewBeforeDays: 10 },
        },
      },
      {
        kind: "AppConnectionSettings",
        name: "settings",
        args: { app: "venafi", connectionName: "emulator-venafi", description: "from a packed install" },
      },
      { kind: "Project", name: "tree", args: { projectName: "Packed", slug: "packed-tree" } },
      { kind: "ProjectEnvironment", name: "qa", args: { projectId: { $ref: "tree.id" }, name: "QA", slug: "qa" } },
      {
        kind: "SecretFolder",
        name: "folder",
        args: { projectId: { $ref: "tree.id" }, environment: { $ref: "qa.slug" }, name: "app" },
      },
      {
        kind: "Secret",
        name: "secret",
        args: {
          projectId: { $ref: "tree.id" },
          environment: { $ref: "qa.slug" },
          secretPath: { $ref: "folder.secretPath" },
          secretName: "GREETING",
          secretValue: "hello from a packed install",
        },
      },
      {
        kind: "CertificateAuthority",
        name: "ca",
        args: {
          projectId: pki,
          name: "packed-root",
          configuration: { type: "root", commonName: "Packed Root", notAfter: "2036-01-01T00:00:00Z" },
        },
      },
      {
        kind: "CertificatePolicy",
        name: "policy",
        args: { projectId: pki, name: "packed-policy", validity: { max: "30d" } },
      },
    ];
    t = await createTestStack({
      program: dir,
      // As a user runs it: the node on PATH, without the engine tests' compile cache (under
      // `npm test`, scripts/with-node.sh's: the machine's own when it meets engines.node).
      systemNode: true,
      config: {
        "resources:resources": { value: JSON.stringify(resources) },
        "secretops:apiUrl": { value: emulator.url },
        "secretops:token": { value: emulator.token, secret: true },
      },
    });
    const up = await t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(resources.length + 1);
    const admin = new EmulatorAdmin(emulator.url);
    await admin.clearRequests();
    expect((await t.stack.preview()).changeSummary).toEqual({ same: resources.length + 1 });
    const calls = await admin.requests();
    expect(calls.filter((r) => r.path.startsWith("/api/"))).toEqual([]);

    const state = JSON.parse(await cliStackExport(t));
    const ours = state.deployment.resources.filter((r: { type: string }) =>
      r.type.startsWith("pulumi-nodejs:dynamic/secretops:"),
    );
    expect(ours).toHaveLength(resources.length);
    for (const r of ours) {
      // The whole resource, both copies of the serialized provider included.
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(r.inputs.__provider)).toBeLessThanOrEqual(4096);
      // An installed package is required by name: its type's module `secretops-pulumi/runtime/<type>`.
      expect(r.inputs.__provider).toMatch(/require\("secretops-pulumi\/runtime(\/\w+)?"\)/);
      expect(r.inputs.__provider).not.toContain(repoRoot);
      // Options at their default stay out of state: the engine writes all of it at every step.
      for (const props of [r.inputs, r.outputs])
        for (const option of DEFAULT_OPTIONS) expect(props).not.toHaveProperty(option);
    }
    const sync = ours.find((r: { urn: string }) => r.urn.endsWith("::sync"));
    console.info(`a sync's state: ${Buffer.byteLength(JSON.stringify(sync))} bytes`);
    expect(Buffer.byteLength(JSON.stringify(sync))).toBeLessThanOrEqual(SYNC_STATE_BYTES);
    const destroy = await t.stack.destroy();
    expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(resources.length + 1);
  });
});
