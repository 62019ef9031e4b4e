import type { OutputMap } from "@pulumi/pulumi/automation";
import { SecretOpsClient } from "../../sdk";
import { EmulatorAdmin, type Fixtures, type RequestLogEntry, startEmulator } from "../../emulator";
import { changeCounts, cliStackExport, createTestStack, storedState, TestStack } from "./harness";

/**
 * The lifecycle every resource family goes through under the real engine against the emulator:
 * up, a no-change preview, an in-place update (exactly one PATCH), a replacement, an out-of-band
 * change that refresh reports, an up that restores the declared state, and destroy.
 */

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;
export type FixtureSummary = Emulator["summary"];
type Args = Record<string, unknown>;

/** A request of the public API, as the emulator's request log holds it. */
export type LoggedRequest = RequestLogEntry;

export interface EngineEnv {
  emulator: Emulator;
  client: SecretOpsClient;
  t: TestStack;
  /** Declares the program's resources for the next operation. */
  declare(resources: { kind: string; name: string; args: Args }[]): Promise<void>;
  /** The emulator's admin routes (faults, rate limits, the request log). */
  admin: EmulatorAdmin;
  requests(): Promise<LoggedRequest[]>;
  resetRequests(): Promise<void>;
  dispose(): Promise<void>;
}

/** `fixtures`: the emulator's seed data (default: emulator/fixtures/default.json). */
export async function engineEnv(opts: { fixtures?: Fixtures } = {}): Promise<EngineEnv> {
  const emulator = await startEmulator({
    fixtures: opts.fixtures,
    port: 0,
    admin: true,
    rateLimits: false,
    syncJobDelayMs: 100,
    checkResponses: true,
  });
  const client = new SecretOpsClient({ baseUrl: emulator.url, token: emulator.token }, { rateLimit: false });
  const t = await createTestStack({
    program: "resources",
    config: {
      "secretops:apiUrl": { value: emulator.url },
      "secretops:token": { value: emulator.token, secret: true },
      // The emulator runs without rate limits here; the provider need not pace itself.
      "secretops:readsPerMinute": { value: "100000" },
      "secretops:writesPerMinute": { value: "100000" },
      "resources:resources": { value: "[]" },
    },
  });
  const admin = new EmulatorAdmin(emulator.url);
  return {
    emulator,
    client,
    t,
    admin,
    async declare(resources) {
      await t.stack.setConfig("resources:resources", { value: JSON.stringify(resources) });
    },
    async requests() {
      return (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
    },
    async resetRequests() {
      await admin.clearRequests();
    },
    async dispose() {
      try {
        await t.dispose();
      } finally {
        await emulator.stop();
      }
    },
  };
}

/** Requests that change something: every non-GET but the duplicate-destination check, a POST the service counts as a read. */
export const writes = (rs: LoggedRequest[]) =>
  rs.filter((r) => r.method !== "GET" && !r.path.endsWith("/check-destination"));

export interface LifecycleSpec {
  kind: string;
  /** Initial args. */
  args(f: FixtureSummary): Args;
  /** A change to an updatable field, and how to see it on the service. */
  update: { args(a: Args): Args; applied(remote: Args): boolean };
  /** A change to an immutable field. */
  replace(a: Args, f: FixtureSummary): Args;
  /** Reads the object from the service (undefined when gone). */
  get(client: SecretOpsClient, id: string, a: Args): Promise<Args | undefined>;
  /** Changes the object out of band through the API, and how to see that it happened / was undone. */
  drift: { apply(client: SecretOpsClient, id: string, a: Args): Promise<void>; present(remote: Args): boolean };
  /**
   * Secret values, passed through secret config as a user would: { topLevelArg: { …value } },
   * deep-merged into the args. None may appear in plaintext in state or in `stack export`.
   */
  secrets?: Record<string, unknown>;
  /** The resource manages an object it did not create: replace and destroy leave the object in place. */
  managesExisting?: boolean;
}

/** Every string value inside a secrets object. */
function canaries(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (typeof v === "object" && v !== null) return Object.values(v).flatMap(canaries);
  return [];
}

export function lifecycleTests(spec: LifecycleSpec, envRef: () => EngineEnv) {
  const name = "subject";
  let args: Args;
  let id: string;
  // `up` returns the stack's outputs (it runs `pulumi stack output` itself): no second read.
  const outputsId = (outputs: OutputMap) => (outputs[name]!.value as { id: string }).id;

  it("up creates it on the service", async () => {
    const env = envRef();
    args = spec.args(env.emulator.summary);
    if (spec.secrets) {
      args.secretFieldsFrom = Object.keys(spec.secrets);
      await env.t.stack.setConfig("resources:secrets", {
        value: JSON.stringify({ [name]: spec.secrets }),
        secret: true,
      });
    }
    await env.declare([{ kind: spec.kind, name, args }]);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(2);
    id = outputsId(up.outputs);
    expect(await spec.get(env.client, id, args)).toBeDefined();
  });

  it("keeps secrets and the token out of state in plaintext", async () => {
    const env = envRef();
    // What is stored, and what `pulumi stack export` prints (the Automation API's exportStack
    // adds --show-secrets, so neither goes through it).
    const stored = storedState(env.t);
    const exported = await cliStackExport(env.t);
    for (const canary of [...canaries(spec.secrets), env.emulator.token]) {
      expect(stored).not.toContain(canary);
      expect(exported).not.toContain(canary);
    }
    // The serialized provider only names the family: no credentials, and small.
    const resource = JSON.parse(exported).deployment.resources.find((r: { type: string }) =>
      r.type.endsWith(`:${spec.kind}`),
    );
    expect(resource.inputs.__provider.length).toBeLessThan(4096);
  });

  it("a second preview shows no changes and sends no writes", async () => {
    const env = envRef();
    await env.resetRequests();
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
    expect(writes(await env.requests())).toEqual([]);
  });

  it("a preview of a changed program sends no writes", async () => {
    const env = envRef();
    await env.declare([{ kind: spec.kind, name, args: spec.update.args(args) }]);
    await env.resetRequests();
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    expect(writes(await env.requests())).toEqual([]);
  });

  it("a change to an updatable field updates in place with exactly one PATCH", async () => {
    const env = envRef();
    args = spec.update.args(args);
    await env.declare([{ kind: spec.kind, name, args }]);
    await env.resetRequests();
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({ update: 1, replace: 0, create: 0, delete: 0 });
    expect(writes(await env.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 200"]);
    expect(outputsId(up.outputs)).toBe(id);
    expect(spec.update.applied((await spec.get(env.client, id, args))!)).toBe(true);
  });

  it("a change to an immutable field replaces it", async () => {
    const env = envRef();
    const before = args;
    args = spec.replace(args, env.emulator.summary);
    await env.declare([{ kind: spec.kind, name, args }]);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).replace).toBe(1);
    const newId = outputsId(up.outputs);
    expect(newId).not.toBe(id);
    if (spec.managesExisting) expect(await spec.get(env.client, id, before)).toBeDefined();
    else expect(await spec.get(env.client, id, before)).toBeUndefined();
    id = newId;
    expect(await spec.get(env.client, id, args)).toBeDefined();
  });

  it("refresh shows an out-of-band change as drift", async () => {
    const env = envRef();
    await spec.drift.apply(env.client, id, args);
    const refresh = await env.t.stack.refresh();
    expect(changeCounts(refresh.summary.resourceChanges).update).toBe(1);
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
  });

  it("up restores the declared state", async () => {
    const env = envRef();
    expect(spec.drift.present((await spec.get(env.client, id, args))!)).toBe(true);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).update).toBe(1);
    expect(spec.drift.present((await spec.get(env.client, id, args))!)).toBe(false);
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  it(
    spec.managesExisting
      ? "destroy releases it and leaves the object in place"
      : "destroy leaves nothing on the service",
    async () => {
      const env = envRef();
      await env.declare([]);
      const destroy = await env.t.stack.destroy();
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(2);
      if (spec.managesExisting) expect(await spec.get(env.client, id, args)).toBeDefined();
      else expect(await spec.get(env.client, id, args)).toBeUndefined();
    },
  );
}
