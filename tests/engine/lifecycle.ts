import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, OutputMap } from "@pulumi/pulumi/automation";
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

/**
 * `fixtures`: the emulator's seed data (default: emulator/fixtures/default.json); `syncJobDelayMs`:
 * how long the emulator's sync jobs take (default 100 ms).
 */
export async function engineEnv(opts: { fixtures?: Fixtures; syncJobDelayMs?: number } = {}): Promise<EngineEnv> {
  const emulator = await startEmulator({
    fixtures: opts.fixtures,
    port: 0,
    admin: true,
    rateLimits: false,
    syncJobDelayMs: opts.syncJobDelayMs ?? 100,
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
      "secretops:secretsPerMinute": { value: "100000" },
    },
  });
  // The program reads its resources from this file: a step changes them without a CLI run.
  const resourcesFile = path.join(t.stateDir, "resources.json");
  fs.writeFileSync(resourcesFile, "[]");
  await t.stack.setConfig("resources:resourcesFile", { value: resourcesFile });
  const admin = new EmulatorAdmin(emulator.url);
  return {
    emulator,
    client,
    t,
    admin,
    async declare(resources) {
      fs.writeFileSync(resourcesFile, JSON.stringify(resources));
    },
    async requests() {
      return (await admin.requests()).filter((r) => r.path.startsWith("/api/"));
    },
    async resetRequests() {
      await admin.clearRequests();
    },
    async dispose() {
      try {
        // The emulator stops with the stack: what the stack holds goes with it, no destroy needed.
        await t.dispose({ destroy: false });
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

/** The steps the engine took for each resource of an operation, by name (from its step events). */
function stepsByName() {
  const ops = new Map<string, string[]>();
  const onEvent = (e: EngineEvent) => {
    const m = e.resourcePreEvent?.metadata;
    if (!m || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) return;
    const name = m.urn.split("::").pop()!;
    ops.set(name, [...(ops.get(name) ?? []), m.op]);
  };
  return { ops, onEvent };
}

/**
 * The lifecycle, for several families at once: one resource of each in one stack, every step
 * applied to all of them in one engine operation (a preview or up costs the engine seconds whatever
 * it holds), and every assertion made of each resource: its own step, its own requests (by its
 * id in the path), its own object on the service.
 */
export function lifecycleTests(specs: LifecycleSpec[], envRef: () => EngineEnv) {
  const nameOf = (spec: LifecycleSpec) => spec.kind.toLowerCase();
  const args = new Map<LifecycleSpec, Args>();
  const ids = new Map<LifecycleSpec, string>();
  const n = specs.length;
  const declareAll = (env: EngineEnv) =>
    env.declare(specs.map((spec) => ({ kind: spec.kind, name: nameOf(spec), args: args.get(spec)! })));
  // `up` returns the stack's outputs (it runs `pulumi stack output` itself): no second read.
  const idIn = (outputs: OutputMap, spec: LifecycleSpec) => (outputs[nameOf(spec)]!.value as { id: string }).id;
  /** Each resource had step `op` (a replacement's steps around it: create-replacement, delete-replaced). */
  const everyStep = (ops: Map<string, string[]>, op: string) =>
    expect(Object.fromEntries(ops)).toEqual(
      Object.fromEntries(specs.map((spec) => [nameOf(spec), op === "replace" ? expect.arrayContaining([op]) : [op]])),
    );

  it("up creates each on the service", async () => {
    const env = envRef();
    const secrets: Record<string, unknown> = {};
    for (const spec of specs) {
      const a = spec.args(env.emulator.summary);
      if (spec.secrets) {
        a.secretFieldsFrom = Object.keys(spec.secrets);
        secrets[nameOf(spec)] = spec.secrets;
      }
      args.set(spec, a);
    }
    await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(secrets), secret: true });
    await declareAll(env);
    const { ops, onEvent } = stepsByName();
    const up = await env.t.stack.up({ onEvent });
    everyStep(ops, "create");
    for (const spec of specs) {
      ids.set(spec, idIn(up.outputs, spec));
      expect(await spec.get(env.client, ids.get(spec)!, args.get(spec)!)).toBeDefined();
    }
  });

  it("keeps secrets and the token out of state in plaintext", async () => {
    const env = envRef();
    // What is stored, and what `pulumi stack export` prints (the Automation API's exportStack
    // adds --show-secrets, so neither goes through it).
    const stored = storedState(env.t);
    const exported = await cliStackExport(env.t);
    for (const canary of [...specs.flatMap((spec) => canaries(spec.secrets)), env.emulator.token]) {
      expect(stored).not.toContain(canary);
      expect(exported).not.toContain(canary);
    }
    // The serialized provider only names the family: no credentials, and small.
    for (const spec of specs) {
      const resource = JSON.parse(exported).deployment.resources.find((r: { type: string }) =>
        r.type.endsWith(`:${spec.kind}`),
      );
      expect(resource.inputs.__provider.length).toBeLessThan(4096);
    }
  });

  it("a second preview shows no changes and sends no writes", async () => {
    const env = envRef();
    await env.resetRequests();
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: n + 1 });
    expect(writes(await env.requests())).toEqual([]);
  });

  it("a preview of a changed program sends no writes", async () => {
    const env = envRef();
    await env.declare(
      specs.map((spec) => ({ kind: spec.kind, name: nameOf(spec), args: spec.update.args(args.get(spec)!) })),
    );
    await env.resetRequests();
    const { ops, onEvent } = stepsByName();
    const preview = await env.t.stack.preview({ onEvent });
    expect(preview.changeSummary).toEqual({ same: 1, update: n });
    everyStep(ops, "update");
    expect(writes(await env.requests())).toEqual([]);
  });

  it("a change to an updatable field updates each in place with exactly one PATCH", async () => {
    const env = envRef();
    for (const spec of specs) args.set(spec, spec.update.args(args.get(spec)!));
    await declareAll(env);
    await env.resetRequests();
    const { ops, onEvent } = stepsByName();
    const up = await env.t.stack.up({ onEvent });
    everyStep(ops, "update");
    const sent = writes(await env.requests());
    expect(sent).toHaveLength(n);
    for (const spec of specs) {
      const id = ids.get(spec)!;
      expect(sent.filter((r) => r.path.includes(id)).map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 200"]);
      expect(idIn(up.outputs, spec)).toBe(id);
      expect(spec.update.applied((await spec.get(env.client, id, args.get(spec)!))!)).toBe(true);
    }
  });

  it("a change to an immutable field replaces each", async () => {
    const env = envRef();
    const before = new Map(args);
    for (const spec of specs) args.set(spec, spec.replace(args.get(spec)!, env.emulator.summary));
    await declareAll(env);
    const { ops, onEvent } = stepsByName();
    const up = await env.t.stack.up({ onEvent });
    everyStep(ops, "replace");
    for (const spec of specs) {
      const [oldId, newId] = [ids.get(spec)!, idIn(up.outputs, spec)];
      expect(newId).not.toBe(oldId);
      const old = await spec.get(env.client, oldId, before.get(spec)!);
      if (spec.managesExisting) expect(old).toBeDefined();
      else expect(old).toBeUndefined();
      ids.set(spec, newId);
      expect(await spec.get(env.client, newId, args.get(spec)!)).toBeDefined();
    }
  });

  it("refresh shows each out-of-band change as drift", async () => {
    const env = envRef();
    for (const spec of specs) await spec.drift.apply(env.client, ids.get(spec)!, args.get(spec)!);
    const { ops, onEvent } = stepsByName();
    const refresh = await env.t.stack.refresh({ onEvent });
    expect(changeCounts(refresh.summary.resourceChanges).update).toBe(n);
    everyStep(ops, "refresh");
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 1, update: n });
  });

  it("up restores the declared state", async () => {
    const env = envRef();
    for (const spec of specs)
      expect(spec.drift.present((await spec.get(env.client, ids.get(spec)!, args.get(spec)!))!)).toBe(true);
    const { ops, onEvent } = stepsByName();
    await env.t.stack.up({ onEvent });
    everyStep(ops, "update");
    for (const spec of specs)
      expect(spec.drift.present((await spec.get(env.client, ids.get(spec)!, args.get(spec)!))!)).toBe(false);
    const preview = await env.t.stack.preview();
    expect(preview.changeSummary).toEqual({ same: n + 1 });
  });

  it("destroy leaves nothing on the service, and leaves in place what a resource only manages", async () => {
    const env = envRef();
    await env.declare([]);
    const { ops, onEvent } = stepsByName();
    await env.t.stack.destroy({ onEvent });
    everyStep(ops, "delete");
    for (const spec of specs) {
      const remote = await spec.get(env.client, ids.get(spec)!, args.get(spec)!);
      if (spec.managesExisting) expect(remote).toBeDefined();
      else expect(remote).toBeUndefined();
    }
  });
}
