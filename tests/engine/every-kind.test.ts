import { appConnectionKinds, knownSyncDestinations, rotationTypes } from "../../sdk/schemas";
import { changeCounts } from "./harness";
import { engineEnv, type EngineEnv, type FixtureSummary, writes } from "./lifecycle";

// Every kind the package types, under the real engine against the emulator (issue 19): one
// connection of every kind (AppConnection), one sync of every destination and one rotation of
// every type, built from the rows' own examples: up creates them all, a preview is clean, a
// description change updates each in place with one PATCH, the next preview is clean again, and
// destroy deletes them all.
jest.setTimeout(20 * 60_000);

type Declared = { kind: string; name: string; args: Record<string, unknown> };

function connectionOf(f: FixtureSummary, app: string) {
  const c = f.connections.find((x) => x.app === app && !x.projectId);
  if (!c) throw new Error(`the fixtures have no ${app} connection`);
  return c.id;
}

function program(f: FixtureSummary, description: string): Declared[] {
  const p = f.projects[0]!;
  const connections = Object.values(appConnectionKinds).map((kind) => ({
    kind: "AppConnection",
    name: `connection-${kind.app}`,
    args: {
      app: kind.app,
      name: `every-${kind.app}`,
      projectId: p.id,
      description,
      method: kind.example.method,
      credentials: kind.example.credentials,
    },
  }));
  const syncs = knownSyncDestinations.map((dest) => ({
    kind: "SecretSync",
    name: `sync-${dest.destination}`,
    args: {
      destination: dest.destination,
      name: `every-${dest.destination}`,
      projectId: p.id,
      connectionId: connectionOf(f, dest.connectionApp),
      environment: p.environments[0],
      secretPath: "/",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: dest.example.destinationConfig,
      description,
      waitForSync: false,
    },
  }));
  const rotations = Object.values(rotationTypes).map((type) => {
    const prefix = type.type.toUpperCase().replace(/-/g, "_");
    return {
      kind: "SecretRotation",
      name: `rotation-${type.type}`,
      args: {
        type: type.type,
        name: `every-${type.type}`,
        projectId: p.id,
        connectionId: connectionOf(f, type.connectionApp),
        environment: p.environments[0],
        secretPath: "/",
        rotationInterval: 30,
        parameters: type.example.parameters,
        secretsMapping: Object.fromEntries(Object.keys(type.secretsMapping.shape).map((k) => [k, `${prefix}_${k}`])),
        description,
      },
    };
  });
  return [...connections, ...syncs, ...rotations];
}

describe("every kind under the real engine", () => {
  let env: EngineEnv;
  let declared: Declared[];
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });

  it("creates one connection of every kind, one sync of every destination and one rotation of every type", async () => {
    declared = program(env.emulator.summary, "every kind");
    await env.declare(declared);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).create).toBe(declared.length + 1);
    const preview = await env.t.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ same: declared.length + 1, update: 0, replace: 0 });
  });

  it("updates each in place with one PATCH, and the next preview is clean", async () => {
    await env.declare(program(env.emulator.summary, "every kind, updated"));
    await env.resetRequests();
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges)).toMatchObject({
      update: declared.length,
      replace: 0,
      create: 0,
      delete: 0,
    });
    const sent = writes(await env.requests());
    expect(sent.filter((r) => r.method === "PATCH" && r.status === 200)).toHaveLength(declared.length);
    expect(sent.filter((r) => r.method !== "PATCH")).toEqual([]);
    const preview = await env.t.stack.preview();
    expect(changeCounts(preview.changeSummary)).toMatchObject({ same: declared.length + 1, update: 0, replace: 0 });
  });

  it("destroys them all", async () => {
    await env.resetRequests();
    await env.declare([]);
    const up = await env.t.stack.up();
    expect(changeCounts(up.summary.resourceChanges).delete).toBe(declared.length);
    expect(writes(await env.requests()).filter((r) => r.method === "DELETE" && r.status === 200)).toHaveLength(
      declared.length,
    );
  });
});
