import {
  SecretRotationEnvelope,
  SecretRotationListEnvelope,
  rotationTypes,
  type RotationType,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { rotationObjects } from "../emulator/objects";
import { FX, expect422, expectError, start, type Api } from "../emulator/helpers";

/**
 * Every rotation type's row over HTTP: create with its generated credentials and mapped secrets,
 * rotate, reads, PATCH, its connection kind, delete. The rules every type shares:
 * tests/emulator/secret-rotations.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const types = Object.values(rotationTypes) as RotationType[];
const { base, mappingFor, body, create, credentials, expectedNext } = rotationObjects(() => api);

describe.each(types.map((t) => [t.type, t] as const))("%s rotations", (type, t) => {
  const isSql = t.family === "SQL database credentials";

  test("create issues credentials synchronously and writes the mapped secrets", async () => {
    const before = Date.now();
    const r = await create(t, { description: "rotates" });
    expect(r).toMatchObject({
      type,
      activeIndex: 0,
      rotationStatus: "success",
      isAutoRotationEnabled: true,
      rotateAtUtc: { hours: 0, minutes: 0 },
      isLastRotationManual: true,
      lastRotationMessage: null,
      description: "rotates",
      connection: { app: t.connectionApp, id: FX.connection(t.connectionApp).id },
      environment: { slug: "dev" },
      folder: { path: "/app" },
    });
    expect(Date.parse(r.lastRotatedAt!)).toBeGreaterThanOrEqual(before - 5);
    expect(r.lastRotationAttemptedAt).toBe(r.lastRotatedAt);
    expect(r.nextRotationAt).toBe(expectedNext(r));
    expect(Date.parse(r.nextRotationAt!)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // Not invented: stored and returned as sent (without); the default only shapes the password.
    expect(r.parameters).not.toHaveProperty("passwordRequirements");

    const gc = await credentials(type, r.id);
    expect(gc).toMatchObject({ activeIndex: 0, rotationId: r.id, type });
    expect(gc.generatedCredentials).toHaveLength(1);
    const c0 = t.generatedCredentials.parse(gc.generatedCredentials[0]);
    if (isSql) expect(c0).toMatchObject({ username: "app_user_a" });
    if ("password" in c0) {
      expect(String(c0.password)).toHaveLength(48);
      expect(String(c0.password)).toMatch(/[a-z]/);
      expect(String(c0.password)).toMatch(/[A-Z]/);
      expect(String(c0.password)).toMatch(/[0-9]/);
    }
    if (type === "azure-client-secret") expect(c0).toMatchObject({ clientId: "client-1" });
    // the rotation body itself never carries generated secrets
    for (const f of t.secretFields) expect(JSON.stringify(r)).not.toContain(String((c0 as Record<string, unknown>)[f]));

    // the secrets are in the folder now: the same names clash
    const again = await api.post(base(type), body(t, { secretsMapping: r.secretsMapping }));
    expectError(
      again,
      400,
      "BadRequest",
      `The following secrets already exist at the path "/app": ${Object.values(r.secretsMapping).join(", ")}`,
    );
  });

  test("rotate-secrets flips activeIndex and issues new credentials", async () => {
    const r = await create(t);
    const c0 = (await credentials(type, r.id)).generatedCredentials[0]!;
    const rotated = SecretRotationEnvelope.parse(
      (await api.post(`${base(type)}/${r.id}/rotate-secrets`)).body,
    ).secretRotation;
    expect(rotated.activeIndex).toBe(1);
    expect(rotated.isLastRotationManual).toBe(true);
    expect(Date.parse(rotated.lastRotatedAt!)).toBeGreaterThan(Date.parse(r.lastRotatedAt!));
    expect(rotated.nextRotationAt).toBe(expectedNext(rotated));
    const gc = await credentials(type, r.id);
    expect(gc.activeIndex).toBe(1);
    expect(gc.generatedCredentials).toHaveLength(2);
    expect(gc.generatedCredentials[0]).toEqual(c0);
    if (isSql) expect(gc.generatedCredentials[1]!.username).toBe("app_user_b");
    for (const f of t.secretFields) expect(gc.generatedCredentials[1]![f]).not.toBe(c0[f]);
    const back = SecretRotationEnvelope.parse(
      (await api.post(`${base(type)}/${r.id}/rotate-secrets`)).body,
    ).secretRotation;
    expect(back.activeIndex).toBe(0);
    const gc2 = await credentials(type, r.id);
    for (const f of t.secretFields) expect(gc2.generatedCredentials[0]![f]).not.toBe(c0[f]);
  });

  test("reads by id, name and list; wrong type 400; unknown 404", async () => {
    const r = await create(t);
    expect(SecretRotationEnvelope.parse((await api.get(`${base(type)}/${r.id}`)).body).secretRotation).toEqual(r);
    const byName = await api.get(`${base(type)}/rotation-name/${r.name}`, {
      query: { projectId: FX.projectId, environment: "dev", secretPath: "/app/" },
    });
    expect(byName.body.secretRotation.id).toBe(r.id);
    expect422(
      await api.get(`${base(type)}/rotation-name/${r.name}`, {
        query: { projectId: FX.projectId, environment: "dev" },
      }),
      ["secretPath"],
    );
    expectError(
      await api.get(`${base(type)}/rotation-name/${r.name}`, {
        query: { projectId: FX.projectId, environment: "dev", secretPath: "/" },
      }),
      404,
      "NotFound",
    );
    const list = SecretRotationListEnvelope.parse(
      (await api.get(base(type), { query: { projectId: FX.projectId } })).body,
    ).secretRotations;
    expect(list.find((x) => x.id === r.id)).toEqual(r);
    expect(list.every((x) => x.type === type)).toBe(true);
    const other = types.find((x) => x.type !== type)!;
    expectError(
      await api.get(`${base(other.type)}/${r.id}`),
      400,
      "BadRequest",
      `Secret Rotation with ID "${r.id}" is not configured for ${other.label}`,
    );
    const missing = "0f0f0f0f-0000-4000-8000-00000000dead";
    expectError(
      await api.get(`${base(type)}/${missing}`),
      404,
      "NotFound",
      `Could not find ${t.label} Rotation with ID ${missing}`,
    );
    expectError(await api.post(`${base(type)}/${missing}/rotate-secrets`), 404, "NotFound");
    expectError(await api.get(`${base(type)}/${missing}/generated-credentials`), 404, "NotFound");
  });

  test("PATCH: description, interval and a renamed mapping", async () => {
    const r = await create(t);
    const mapping = mappingFor(t);
    const res = await api.patch(`${base(type)}/${r.id}`, {
      description: "patched",
      rotationInterval: 2,
      secretsMapping: mapping,
    });
    expect(res.status).toBe(200);
    const p = SecretRotationEnvelope.parse(res.body).secretRotation;
    expect(p).toMatchObject({ description: "patched", rotationInterval: 2, secretsMapping: mapping, activeIndex: 0 });
    expect(p.nextRotationAt).toBe(expectedNext(p));
    // the old names are free, the new ones taken
    expect((await api.post(base(type), body(t, { secretsMapping: r.secretsMapping }))).status).toBe(200);
    expect((await api.post(base(type), body(t, { secretsMapping: mapping }))).status).toBe(400);
  });

  test("needs a connection of its kind", async () => {
    const wrongApp = type === "postgres-credentials" ? "mysql" : "postgres";
    const wrong = FX.connection(wrongApp);
    expectError(
      await api.post(base(type), body(t, { connectionId: wrong.id })),
      400,
      "BadRequest",
      /cannot be used to connect to/,
    );
  });

  test("DELETE honours deleteSecrets (missing = false) and returns the rotation", async () => {
    const r = await create(t);
    const del = await api.delete(`${base(type)}/${r.id}`);
    expect(del.status).toBe(200);
    expect(SecretRotationEnvelope.parse(del.body).secretRotation).toEqual(r);
    expect((await api.get(`${base(type)}/${r.id}`)).status).toBe(404);
    // secrets stayed: reusing the names clashes
    expect((await api.post(base(type), body(t, { secretsMapping: r.secretsMapping }))).status).toBe(400);

    const s = await create(t);
    const del2 = await api.delete(`${base(type)}/${s.id}`, {
      query: { deleteSecrets: "true", revokeGeneratedCredentials: "true" },
    });
    expect(del2.status).toBe(200);
    // secrets removed: the names are free again
    expect((await api.post(base(type), body(t, { secretsMapping: s.secretsMapping }))).status).toBe(200);
    expect422(await api.delete(`${base(type)}/${s.id}`, { query: { deleteSecrets: "maybe" } }), ["deleteSecrets"]);
  });
});
