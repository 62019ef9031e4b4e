import {
  AuditLogListEnvelope,
  SecretRotationEnvelope,
  SecretRotationListEnvelope,
  apiPaths,
  rotationTypes,
  type RotationType,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { rotationObjects } from "./objects";
import {
  FX,
  expect422,
  expectError,
  expectIncreasing,
  start,
  uniq,
  withClockStopped,
  expectNotMember,
  expectOtherOrg,
  type Api,
} from "./helpers";

/**
 * Secret rotations over HTTP: listing every type in one call, the field rules and the service's
 * rules, on a few types. Each type's own lifecycle: tests/kinds/secret-rotations.test.ts.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const types = Object.values(rotationTypes) as RotationType[];
const { base, mappingFor, body, create, credentials, expectedNext } = rotationObjects(() => api);

test("GET /api/v2/secret-rotations lists a project's rotations of every type in one call, audited", async () => {
  const made = await Promise.all(types.slice(0, 4).map((t) => create(t)));
  const res = await api.get(apiPaths.allSecretRotations, { query: { projectId: FX.projectId } });
  expect(res.status).toBe(200);
  const listed = SecretRotationListEnvelope.parse(res.body).secretRotations;
  for (const r of made) {
    const one = SecretRotationEnvelope.parse((await api.get(`${base(r.type)}/${r.id}`)).body).secretRotation;
    expect(listed.find((x) => x.id === r.id)).toEqual(one);
  }
  const audited = await api.get(apiPaths.auditLogs, {
    query: { projectId: FX.projectId, eventType: "get-secret-rotations", limit: 1 },
  });
  expect(AuditLogListEnvelope.parse(audited.body).auditLogs[0]?.event.metadata).toEqual({
    count: listed.length,
    rotationIds: listed.map((r) => r.id),
  });
  expectNotMember(await api.get(apiPaths.allSecretRotations, { query: { projectId: FX.restrictedProjectId } }));
  expect422(await api.get(apiPaths.allSecretRotations), ["projectId"]);
});

test("updatedAt moves on every PATCH and rotation, even within one millisecond", async () => {
  const t = types[0]!;
  const [updated, rotated] = await withClockStopped(async () => {
    const r = await create(t);
    const url = `${base(t.type)}/${r.id}`;
    const a = SecretRotationEnvelope.parse((await api.patch(url, { description: "a" })).body).secretRotation;
    const b = SecretRotationEnvelope.parse((await api.patch(url, { description: "b" })).body).secretRotation;
    const c = SecretRotationEnvelope.parse((await api.post(`${url}/rotate-secrets`)).body).secretRotation;
    return [
      [r.updatedAt, a.updatedAt, b.updatedAt, c.updatedAt],
      [r.lastRotatedAt!, c.lastRotatedAt!],
    ];
  });
  expectIncreasing(updated);
  expectIncreasing(rotated);
});

describe("rotation field rules (docs/api-spec.md §8) and service rules", () => {
  const t = rotationTypes["postgres-credentials"];
  const post = (extra: Record<string, unknown>) => api.post(base(t.type), body(t, extra));

  test("rotationInterval: at least 1 day", async () => {
    expect((await post({ rotationInterval: 1 })).status).toBe(200);
    expect422(await post({ rotationInterval: 0.5 }), ["rotationInterval"], "must be at least 1 (days)");
    expect422(await post({ rotationInterval: 0 }), ["rotationInterval"]);
    expect422(await post({ rotationInterval: -3 }), ["rotationInterval"]);
    const r = await create(t);
    expect422(await api.patch(`${base(t.type)}/${r.id}`, { rotationInterval: 0.5 }), ["rotationInterval"]);
  });

  test("name: 1 to 64; description at most 256; environment 1 to 64", async () => {
    const n64 = `r${"o".repeat(62)}t`;
    expect((await post({ name: n64 })).status).toBe(200);
    expect422(await post({ name: `${n64}x` }), ["name"], "must be at most 64 characters");
    expect422(await post({ name: "" }), ["name"]);
    expect((await post({ description: "d".repeat(256) })).status).toBe(200);
    expect422(await post({ description: "d".repeat(257) }), ["description"]);
    expect422(await post({ environment: "e".repeat(65) }), ["environment"]);
    expectError(
      await post({ environment: "e".repeat(64) }),
      400,
      "BadRequest",
      /Could not find folder with path "\/app" in environment "e{64}"/,
    );
    expect422(await post({ secretPath: "" }), ["secretPath"]);
    expect422(await post({ projectId: "" }), ["projectId"]);
  });

  test("rotateAtUtc, parameters and secretsMapping are checked", async () => {
    expect422(await post({ rotateAtUtc: { hours: 24, minutes: 0 } }), ["rotateAtUtc", "hours"]);
    expect422(await post({ rotateAtUtc: { hours: 1, minutes: 60 } }), ["rotateAtUtc", "minutes"]);
    expect422(await post({ parameters: { username1: "a" } }), ["parameters", "username2"]);
    expect422(await post({ parameters: { username1: "a", username2: "b", rotationStatement: "ALTER {{username}}" } }), [
      "parameters",
      "rotationStatement",
    ]);
    expect422(await post({ secretsMapping: { username: "A:B", password: "P" } }), ["secretsMapping", "username"]);
    expect422(
      await post({
        parameters: {
          username1: "a",
          username2: "b",
          passwordRequirements: { length: 4, required: { digits: 3, lowercase: 3, uppercase: 0, symbols: 0 } },
        },
      }),
      ["parameters", "passwordRequirements", "required"],
    );
  });

  test("passwordRequirements shape the generated password", async () => {
    const passwordRequirements = {
      length: 20,
      required: { digits: 5, lowercase: 0, uppercase: 0, symbols: 4 },
      allowedSymbols: "#%",
    };
    const r = await create(t, { parameters: { username1: "a", username2: "b", passwordRequirements } });
    expect(r.parameters.passwordRequirements).toEqual(passwordRequirements);
    const pw = (await credentials(t.type, r.id)).generatedCredentials[0]!.password!;
    expect(pw).toHaveLength(20);
    expect(pw.replace(/[^0-9]/g, "").length).toBeGreaterThanOrEqual(5);
    expect(pw.replace(/[^#%]/g, "").length).toBeGreaterThanOrEqual(4);
    expect(pw).toMatch(/^[A-Za-z0-9#%]+$/);
  });

  test("rotation names are unique per folder", async () => {
    const name = uniq("same");
    expect((await post({ name })).status).toBe(200);
    expectError(
      await post({ name }),
      400,
      "BadRequest",
      `A Secret Rotation with the name "${name}" already exists at the secret path "/app"`,
    );
    expect((await post({ name, secretPath: "/app/db" })).status).toBe(200);
    const other = await create(t);
    expectError(
      await api.patch(`${base(t.type)}/${other.id}`, { name }),
      400,
      "BadRequest",
      `A Secret Rotation with the name "${name}" already exists at the secret path "/app"`,
    );
  });

  test("secrets that already exist in the folder are refused", async () => {
    const res = await post({ secretsMapping: { username: FX.existingSecret.key, password: uniq("P").toUpperCase() } });
    expectError(
      res,
      400,
      "BadRequest",
      `The following secrets already exist at the path "/app": ${FX.existingSecret.key}`,
    );
    // another folder: no clash
    expect(
      (
        await post({
          secretPath: "/",
          secretsMapping: { username: FX.existingSecret.key, password: uniq("P").toUpperCase() },
        })
      ).status,
    ).toBe(200);
  });

  test("PATCH renames the mapped secrets, recomputes nextRotationAt, strips immutable fields", async () => {
    const r = await create(t);
    const url = `${base(t.type)}/${r.id}`;
    expectError(
      await api.patch(url, { secretsMapping: { username: FX.existingSecret.key, password: "X_PW" } }),
      400,
      "BadRequest",
      `The following secrets already exist at the path "/app": ${FX.existingSecret.key}`,
    );
    const renamed = mappingFor(t);
    // keeping one of its own names is not a clash
    const p = await api.patch(url, { secretsMapping: { ...renamed, username: r.secretsMapping.username } });
    expect(p.status).toBe(200);
    expect(p.body.secretRotation.secretsMapping).toEqual({ ...renamed, username: r.secretsMapping.username });
    // the old password name is free again, the new one is taken
    expect(
      (await post({ secretsMapping: { username: uniq("U").toUpperCase(), password: r.secretsMapping.password } }))
        .status,
    ).toBe(200);
    expect(
      (await post({ secretsMapping: { username: uniq("U").toUpperCase(), password: renamed.password } })).status,
    ).toBe(400);

    const off = SecretRotationEnvelope.parse(
      (await api.patch(url, { isAutoRotationEnabled: false })).body,
    ).secretRotation;
    expect(off.nextRotationAt).toBeNull();
    const on = SecretRotationEnvelope.parse(
      (
        await api.patch(url, {
          isAutoRotationEnabled: true,
          rotationInterval: 2,
          rotateAtUtc: { hours: 23, minutes: 59 },
        })
      ).body,
    ).secretRotation;
    expect(on.nextRotationAt).toBe(expectedNext(on));
    expect(on.rotateAtUtc).toEqual({ hours: 23, minutes: 59 });
    expectIncreasing([r.updatedAt, on.updatedAt]);

    const other = FX.connection("postgres").id;
    const strip = SecretRotationEnvelope.parse(
      (
        await api.patch(url, {
          connectionId: "0f0f0f0f-0000-4000-8000-000000000000",
          environment: "prod",
          secretPath: "/infra",
          projectId: FX.restrictedProjectId,
          type: "x",
          description: "only this",
        })
      ).body,
    ).secretRotation;
    expect(strip).toMatchObject({
      connectionId: other,
      environment: { slug: "dev" },
      folder: { path: "/app" },
      projectId: FX.projectId,
      type: t.type,
      description: "only this",
    });
    expect422(await api.patch(url, { parameters: { username1: "a" } }), ["parameters", "username2"]);
    const params = await api.patch(url, { parameters: { username1: "x1", username2: "x2" } });
    expect(params.body.secretRotation.parameters).toEqual({
      username1: "x1",
      username2: "x2",
    });
    await api.post(`${url}/rotate-secrets`);
    expect((await credentials(t.type, r.id)).generatedCredentials[1]!.username).toBe("x2");
  });

  test("projects: not a member or other org 403, unknown 404", async () => {
    expectNotMember(await post({ projectId: FX.restrictedProjectId }));
    expectOtherOrg(await post({ projectId: FX.otherOrgProjectId }));
    expectError(await post({ projectId: "0f0f0f0f-0000-4000-8000-00000000beef" }), 404, "NotFound");
    expect422(await api.get(base(t.type)), ["projectId"]);
    expectError(
      await post({ secretPath: "/nope" }),
      400,
      "BadRequest",
      `Could not find folder with path "/nope" in environment "dev" for project with ID "${FX.projectId}"`,
    );
  });
});
