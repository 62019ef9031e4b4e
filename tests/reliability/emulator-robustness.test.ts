/**
 * Emulator robustness and durability (issue 12, item 5). Hostile requests (malformed JSON, wrong
 * content types, oversized bodies, path tricks, odd names, prototype-pollution keys, 1,000
 * concurrent requests) each get a clear 4xx in the service's error body or a success: never a
 * crash, a 5xx or a change to data they should not touch. With `--data`, a write the emulator
 * acknowledged survives `kill -9` right after its response.
 *
 * Real HTTP on 127.0.0.1. Everything but durability runs against an in-process emulator; the
 * durability trials run the built CLI (`dist/emulator/cli.js`, from `npm run build`) as a child.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ErrorBodySchema, apiPaths } from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { Api, FX, type Json, start, uniq } from "../emulator/helpers";

const ROOT = join(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "emulator", "cli.js");
/** Fastify's default `bodyLimit` (1 MiB): buildServer (emulator/server.ts) sets none for the API routes. */
const BODY_LIMIT = 1024 * 1024;

const PG = apiPaths.appConnections("postgres");
const pg = FX.connection("postgres");
const SYNC_DEST = "azure-key-vault";
const SYNCS = apiPaths.secretSyncs(SYNC_DEST);
const ROT_TYPE = "mysql-credentials";
const ROTS = apiPaths.secretRotations(ROT_TYPE);
const PROFILES = apiPaths.certificateProfiles;

const connBody = (name: string, extra: object = {}) => ({
  name,
  method: pg.method,
  credentials: pg.credentials,
  ...extra,
});
const syncBody = (name: string, extra: object = {}) => ({
  name,
  projectId: FX.projectId,
  connectionId: FX.connection(SYNC_DEST).id,
  environment: "prod",
  secretPath: "/",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  // one vault per sync: the service refuses two syncs to one destination
  destinationConfig: { vaultBaseUrl: `https://${name}.vault.azure.net` },
  ...extra,
});
const rotBody = (name: string, extra: object = {}) => ({
  name,
  projectId: FX.projectId,
  connectionId: FX.connection("mysql").id,
  environment: "dev",
  secretPath: "/app/db",
  rotationInterval: 5,
  parameters: { username1: "a", username2: "b" },
  secretsMapping: { username: uniq("U").toUpperCase(), password: uniq("P").toUpperCase() },
  ...extra,
});
const profileBody = (slug: string, extra: object = {}) => ({
  projectId: FX.pkiProjectId,
  certificatePolicyId: FX.policyId,
  caId: FX.internalCaId,
  slug,
  enrollmentType: "acme",
  ...extra,
});

interface RawRes {
  status: number;
  text: string;
  body: Json;
  headers: IncomingHttpHeaders;
}

/**
 * One request exactly as written: the path is not normalized (fetch would resolve `..` and
 * `%2e%2e` before sending), and the headers and body are only what is given. `chunks` sends the
 * body chunked, without a content length.
 */
function raw(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer; chunks?: (string | Buffer)[] } = {},
): Promise<RawRes> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let body: Json = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode!, text, body, headers: res.headers });
      });
    });
    req.on("error", reject);
    if (opts.chunks) for (const c of opts.chunks) req.write(c);
    else if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const show = (r: { status: number; body: Json }) => `${r.status} ${JSON.stringify(r.body)?.slice(0, 400)}`;

/**
 * A clear refusal: one of `statuses`, the service's error body (`{reqId, statusCode, message,
 * error}`, ErrorBodySchema) with a named error, and (if given) a message matching `message`.
 */
function expectRefused(r: { status: number; body: Json }, statuses: number[], message?: RegExp): void {
  if (!statuses.includes(r.status)) throw new Error(`expected ${statuses.join("/")}, got ${show(r)}`);
  const body = ErrorBodySchema.parse(r.body);
  expect(body.statusCode).toBe(r.status);
  expect(body.error).toMatch(/^[A-Z][A-Za-z]+$/);
  expect(body.error).not.toBe("Error");
  const text = typeof body.message === "string" ? body.message : JSON.stringify(body.message);
  expect(text.length).toBeGreaterThan(0);
  if (message) expect(text).toMatch(message);
}

/** A 422 whose zod issues name `path` (the field) with a rule. */
function expectIssue(r: { status: number; body: Json }, path: (string | number)[], rule?: RegExp): void {
  expectRefused(r, [422]);
  expect(r.body.error).toBe("ValidationFailure");
  const issues = r.body.message as { path: (string | number)[]; message: string }[];
  const hit = issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path));
  if (!hit) throw new Error(`no issue at ${JSON.stringify(path)}: ${show(r)}`);
  expect(hit.message.length).toBeGreaterThan(0);
  if (rule) expect(hit.message).toMatch(rule);
}

let emu: RunningEmulator;
let api: Api;
let auth: Record<string, string>;
const json = { "content-type": "application/json" };
/** Objects the tests aim at (PATCH, DELETE), created in beforeAll. */
let conn: Json;
let sync: Json;
let rot: Json;
let profile: Json;

beforeAll(async () => {
  ({ emu, api } = await start({ rateLimits: false }));
  auth = { authorization: `Bearer ${emu.token}` };
  const created = await Promise.all([
    api.post(PG, connBody(uniq("robust-target"))),
    api.post(SYNCS, syncBody(uniq("robust-target"))),
    api.post(ROTS, rotBody(uniq("robust-target"))),
    api.post(PROFILES, profileBody(uniq("robust-target"))),
  ]);
  for (const r of created) if (r.status !== 200) throw new Error(show(r));
  [conn, sync, rot, profile] = [
    created[0]!.body.appConnection,
    created[1]!.body.secretSync,
    created[2]!.body.secretRotation,
    created[3]!.body.certificateProfile,
  ];
});
afterAll(() => emu?.stop());

/** Sync fields the sync jobs move on their own (emulator/jobs.ts), left out of before/after comparisons. */
const jobFields = /Status$|^last|updatedAt/;
const steady = (s: Json) => Object.fromEntries(Object.entries(s).filter(([k]) => !jobFields.test(k)));

/** What the tests could change, read back through the API: connections, syncs, rotations and profiles. */
async function state(): Promise<Json> {
  const reads = await Promise.all([
    api.get(PG),
    api.get(SYNCS, { query: { projectId: FX.projectId } }),
    api.get(ROTS, { query: { projectId: FX.projectId } }),
    api.get(PROFILES, { query: { projectId: FX.pkiProjectId, limit: 100 } }),
  ]);
  for (const r of reads) if (r.status !== 200) throw new Error(show(r));
  const [c, s, r, p] = reads.map((x) => x.body);
  return {
    connections: c.appConnections,
    syncs: s.secretSyncs.map(steady),
    rotations: r.secretRotations,
    profiles: p.certificateProfiles,
  };
}

/** The emulator still answers, and answers right. */
async function expectAlive(): Promise<void> {
  const r = await api.get(`${PG}/${conn.id}`);
  expect(show(r)).toMatch(/^200 /);
  expect(r.body.appConnection.id).toBe(conn.id);
}

/** Every JSON route that takes a body: the creates and the updates of the four resources. */
const bodyRoutes = () => [
  ["POST", PG],
  ["POST", SYNCS],
  ["POST", ROTS],
  ["POST", PROFILES],
  ["PATCH", `${PG}/${conn.id}`],
  ["PATCH", `${SYNCS}/${sync.id}`],
  ["PATCH", `${ROTS}/${rot.id}`],
  ["PATCH", `${PROFILES}/${profile.id}`],
];

describe("request bodies", () => {
  test("malformed JSON on every create and update route: 400 BadRequest naming the problem, nothing changed", async () => {
    const before = await state();
    const bodies: (string | Buffer)[] = [
      '{"name":',
      "{name: 'single-quoted'}",
      '{"name":"trailing-comma",}',
      "NaN",
      '{"a":1}{"b":2}',
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), // not UTF-8
      "[".repeat(100_000), // deep and unterminated
    ];
    for (const [method, path] of bodyRoutes()) {
      for (const body of bodies) {
        const r = await raw(emu.url, method!, path!, { headers: { ...auth, ...json }, body });
        expectRefused(r, [400], /not valid JSON/);
        expect(r.body.error).toBe("BadRequest");
      }
    }
    expect(await state()).toEqual(before);
    await expectAlive();
  });

  test("JSON that is not an object, and deeply nested values: 422 naming the body or the field, or the value dropped", async () => {
    const before = await state();
    for (const [method, path] of bodyRoutes()) {
      for (const body of ["null", "[]", '"a string"', "42", "true"]) {
        expectIssue(await raw(emu.url, method!, path!, { headers: { ...auth, ...json }, body }), [], /object|required/);
      }
    }
    // 50,000 levels: as a typed field it is refused, naming the field; as an unknown key it is dropped
    const deep = `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`;
    expectIssue(
      await raw(emu.url, "PATCH", `${PG}/${conn.id}`, {
        headers: { ...auth, ...json },
        body: `{"description":${deep}}`,
      }),
      ["description"],
    );
    expect(await state()).toEqual(before);
    const name = uniq("deep-unknown");
    const created = await raw(emu.url, "POST", PG, {
      headers: { ...auth, ...json },
      body: JSON.stringify(connBody(name)).replace(/}$/, `,"nested":${deep}}`),
    });
    expect(show(created)).toMatch(/^200 /);
    expect(created.body.appConnection.nested).toBeUndefined();
    expect((await api.get(`${PG}/${created.body.appConnection.id}`)).body.appConnection).toEqual(
      created.body.appConnection,
    );
    await expectAlive();
  });

  test("a wrong or missing content type: 415 naming it, nothing created; JSON with a charset and body-less triggers still work", async () => {
    const before = await state();
    const name = uniq("wrong-type");
    const body = JSON.stringify(connBody(name));
    const cases: [Record<string, string>, RegExp][] = [
      [{ "content-type": "text/plain" }, /"text\/plain" is not supported.*application\/json/],
      [{ "content-type": "text/plain;charset=UTF-8" }, /"text\/plain;charset=UTF-8" is not supported/],
      [{ "content-type": "application/x-www-form-urlencoded" }, /"application\/x-www-form-urlencoded"/],
      [{ "content-type": "multipart/form-data; boundary=x" }, /"multipart\/form-data; boundary=x"/],
      [{ "content-type": "application/xml" }, /"application\/xml"/],
      [{ "content-length": String(Buffer.byteLength(body)) }, /Content-Type is missing.*application\/json/],
    ];
    for (const [headers, message] of cases) {
      for (const [method, path] of bodyRoutes()) {
        const r = await raw(emu.url, method!, path!, { headers: { ...auth, ...headers }, body });
        expectRefused(r, [415], message);
        expect(r.body.error).toBe("UnsupportedMediaType");
      }
    }
    // a form body, not JSON text
    expectRefused(
      await raw(emu.url, "POST", PG, {
        headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
        body: `name=${name}&method=${pg.method}`,
      }),
      [415],
    );
    expect(await state()).toEqual(before);
    expectRefused(await api.get(`${PG}/connection-name/${name}`), [404]);

    // the right type with parameters is JSON; an empty body of any type is no body (a trigger route)
    const ok = await raw(emu.url, "POST", PG, {
      headers: { ...auth, "content-type": "application/json; charset=utf-8" },
      body,
    });
    expect(show(ok)).toMatch(/^200 /);
    expect(ok.body.appConnection.name).toBe(name);
    const trigger = await raw(emu.url, "POST", `${SYNCS}/${sync.id}/sync-secrets`, {
      headers: { ...auth, "content-type": "text/plain" },
    });
    expect(show(trigger)).toMatch(/^200 /);
  });

  test(`an oversized body (over Fastify's default bodyLimit, ${BODY_LIMIT} bytes): 413 PayloadTooLarge, and the emulator stays up`, async () => {
    const before = await state();
    const name = uniq("too-large");
    const over = (size: number) => {
      const base = JSON.stringify(connBody(name, { description: "" }));
      return base.replace('"description":""', `"description":"${"x".repeat(size - base.length)}"`);
    };
    const justOver = over(BODY_LIMIT + 1);
    expect(Buffer.byteLength(justOver)).toBe(BODY_LIMIT + 1);
    for (const [method, path] of bodyRoutes()) {
      const r = await raw(emu.url, method!, path!, { headers: { ...auth, ...json }, body: justOver });
      expectRefused(r, [413], /too large/);
      expect(r.body.error).toBe("PayloadTooLarge");
    }
    // chunked, so the size is only known while reading; and a non-JSON type is refused the same way
    const chunk = "x".repeat(256 * 1024);
    const chunks = Array.from({ length: 8 }, () => chunk);
    expectRefused(await raw(emu.url, "POST", PG, { headers: { ...auth, ...json }, chunks }), [413]);
    expectRefused(
      await raw(emu.url, "POST", PG, { headers: { ...auth, "content-type": "text/plain" }, chunks }),
      [413],
    );
    // right at the limit the body is read, and the rule on the field refuses it
    const atLimit = await raw(emu.url, "POST", PG, { headers: { ...auth, ...json }, body: over(BODY_LIMIT) });
    expectIssue(atLimit, ["description"], /at most 256/);
    expect(await state()).toEqual(before);
    await expectAlive();
  });
});

describe("paths", () => {
  test("dot segments, double and encoded slashes, long and non-UUID ids: 4xx, no other object read or changed", async () => {
    const before = await state();
    const other = FX.connection("auth0");
    const reads: [string, string, number[], RegExp?][] = [
      // `..` is not resolved: no route, rather than another kind's list or object
      ["GET", `${PG}/../auth0`, [404], /Route GET:.*\.\.\/auth0 not found/],
      ["GET", `${PG}/%2e%2e/auth0`, [404], /not found/],
      ["GET", `${PG}/${conn.id}/..`, [404]],
      ["GET", `${PG}/..%2F..%2Fauth0/${other.id}`, [404], /not found/],
      ["GET", `${PG}/..%2F..%2Fauth0%2F${other.id}`, [422], /UUID/],
      ["GET", `/api/v1/app-connections//postgres/${conn.id}`, [404]],
      ["GET", `${PG}//${conn.id}`, [404]],
      ["GET", `${PG}/${conn.id}%2F..%2F${other.id}`, [422], /UUID/],
      ["GET", `${PG}/${conn.id}%00`, [422], /UUID/],
      ["GET", `${PG}/%zz`, [400], /not a valid url component/],
      ["GET", `${PG}/${"a".repeat(100)}`, [422], /UUID/],
      ["GET", `${PG}/${"a".repeat(8000)}`, [414], /max param length/],
      ["GET", `${PG}/connection-name/..%2F..%2Fetc%2Fpasswd`, [404], /with name \.\.\/\.\.\/etc\/passwd/],
      ["GET", `${PG}/connection-name/%ED%A0%80`, [400, 404]], // a UTF-8 encoded lone surrogate
      ["GET", `${SYNCS}?projectId=..%2F..%2F${FX.projectId}`, [404], /Project with ID/],
      ["GET", `${PROFILES}/slug/..%2F${profile.slug}?projectId=${FX.pkiProjectId}`, [404, 422]],
    ];
    const writes: [string, string, number[], RegExp?][] = [
      ["DELETE", `${PG}/..%2F${conn.id}`, [422], /UUID/],
      ["DELETE", `${PG}/${conn.id}/..`, [404]],
      // a lone `..` is the id itself: not a UUID
      ["DELETE", `${PG}/..`, [422], /UUID/],
      ["DELETE", `${PG}/%2e%2e`, [422], /UUID/],
      ["PATCH", `${PG}/${conn.id}%2F..%2F${other.id}`, [422], /UUID/],
      ["DELETE", `${SYNCS}/${sync.id}%2F..`, [422], /UUID/],
      ["DELETE", `${ROTS}/..%2F${rot.id}`, [422], /UUID/],
      ["DELETE", `${PROFILES}/${profile.id}%00`, [422], /UUID/],
      ["DELETE", `${PROFILES}/${"f".repeat(101)}`, [422], /must be a UUID/],
    ];
    for (const [method, path, statuses, message] of [...reads, ...writes]) {
      const r = await raw(emu.url, method, path, {
        headers: method === "PATCH" ? { ...auth, ...json } : auth,
        ...(method === "PATCH" && { body: '{"description":"path trick"}' }),
      });
      try {
        expectRefused(r, statuses, message);
      } catch (e) {
        throw new Error(`${method} ${path.slice(0, 120)}: ${(e as Error).message}`);
      }
    }

    // non-UUID and unknown ids on every id route: 422 naming the id, 404 for a well-formed unknown id
    const unknown = "00000000-0000-4000-8000-00000000dead";
    for (const [base, param] of [
      [PG, "connectionId"],
      [SYNCS, "syncId"],
      [ROTS, "rotationId"],
      [PROFILES, "id"],
    ] as const) {
      for (const method of ["GET", "PATCH", "DELETE"]) {
        const body = method === "PATCH" ? { headers: { ...auth, ...json }, body: "{}" } : { headers: auth };
        expectIssue(await raw(emu.url, method, `${base}/not-a-uuid`, body), [param], /UUID/);
        expectIssue(await raw(emu.url, method, `${base}/${encodeURIComponent("1' OR '1'='1")}`, body), [param]);
        expectRefused(await raw(emu.url, method, `${base}/${unknown}`, body), [404]);
      }
    }

    // a request line beyond Node's 16 KiB header limit is refused before routing (no request id yet)
    const huge = await raw(emu.url, "GET", `${PG}/${"a".repeat(20_000)}`, { headers: auth });
    expect(huge.status).toBe(431);
    expect(huge.body).toMatchObject({ statusCode: 431, error: expect.any(String), message: expect.any(String) });

    expect(await state()).toEqual(before);
    await expectAlive();
  });
});

describe("names and text", () => {
  const odd = [
    "x'; DROP TABLE app_connections; --",
    "Robert'); DELETE FROM secret_syncs WHERE '1'='1",
    'name" OR ""="',
    "😀-emoji-🔑",
    "\u202Eevil\u202C-rtl", // right-to-left override
    "שלום-עולם", // RTL script
    "e\u0301-combining", // e + combining acute
    "Z\u0351\u0345\u0318a\u0300\u0301l\u0303g\u0308o", // zalgo
    "a\u0000b-nul",
    "line\nbreak\ttab\r",
    "bell\u0007-esc\u001b[31m",
    "lone-\ud800-surrogate",
    "%2e%2e/..\\..",
    "名前-ä-ß-ﬁ",
  ];

  test("odd names are refused with a 422 naming the field and the rule; nothing is created", async () => {
    const before = await state();
    const slugRule = /only contain lowercase letters/;
    for (const name of odd) {
      expectIssue(await api.post(PG, connBody(name)), ["name"], slugRule);
      expectIssue(await api.post(SYNCS, syncBody(name)), ["name"], slugRule);
      expectIssue(await api.post(ROTS, rotBody(name)), ["name"], slugRule);
      expectIssue(await api.post(PROFILES, profileBody(name)), ["slug"], slugRule);
      expectIssue(await api.patch(`${PG}/${conn.id}`, { name }), ["name"], slugRule);
      // looked up by name: not found, the name echoed as sent (a lone surrogate has no URL form)
      if (name.includes("\ud800")) continue;
      const byName = await api.get(`${PG}/connection-name/${encodeURIComponent(name)}`);
      expectRefused(byName, [404], /Could not find App Connection with name/);
      expect(byName.body.message).toContain(name);
      expectRefused(
        await api.get(`${SYNCS}/sync-name/${encodeURIComponent(name)}`, { query: { projectId: FX.projectId } }),
        [404],
      );
    }
    expect(await state()).toEqual(before);
  });

  test("odd text in free-text fields is stored and read back exactly; no other object changes", async () => {
    const before = await state();
    const targets: [string, string][] = [
      [`${PG}/${conn.id}`, "appConnection"],
      [`${SYNCS}/${sync.id}`, "secretSync"],
      [`${ROTS}/${rot.id}`, "secretRotation"],
      [`${PROFILES}/${profile.id}`, "certificateProfile"],
    ];
    for (const text of odd) {
      for (const [path, key] of targets) {
        const w = await api.patch(path, { description: text });
        expect(show(w)).toMatch(/^200 /);
        expect(w.body[key].description).toBe(text);
        const r = await api.get(path);
        expect(r.body[key].description).toBe(text);
        expect(Buffer.from(r.body[key].description, "utf16le")).toEqual(Buffer.from(text, "utf16le"));
      }
    }
    // a created object keeps it too
    const created = await api.post(PG, connBody(uniq("odd-text"), { description: odd.join("|") }));
    expect(show(created)).toMatch(/^200 /);
    expect((await api.get(`${PG}/${created.body.appConnection.id}`)).body.appConnection.description).toBe(
      odd.join("|"),
    );

    // only the four targets' descriptions (and their versions and times) changed
    const after = await state();
    const untouched = (s: Json) => ({
      connections: s.connections.filter((c: Json) => c.id !== conn.id && c.id !== created.body.appConnection.id),
      syncs: s.syncs.filter((x: Json) => x.id !== sync.id),
      rotations: s.rotations.filter((x: Json) => x.id !== rot.id),
      profiles: s.profiles.filter((x: Json) => x.id !== profile.id),
    });
    expect(untouched(after)).toEqual(untouched(before));
    const last = odd[odd.length - 1];
    expect(after.connections.find((c: Json) => c.id === conn.id).description).toBe(last);
    expect(after.syncs.find((x: Json) => x.id === sync.id).description).toBe(last);
    expect(after.rotations.find((x: Json) => x.id === rot.id).description).toBe(last);
    expect(after.profiles.find((x: Json) => x.id === profile.id).description).toBe(last);
  });
});

describe("prototype pollution", () => {
  const proto = (): Json => Object.prototype;
  const clean = () => {
    expect(({} as Json).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
    expect(Object.keys(proto())).toEqual([]);
  };

  test("__proto__ and constructor.prototype keys, top level and nested: 400 naming the key, nothing created or polluted", async () => {
    const before = await state();
    const p = '{"polluted":"yes"}';
    const cp = `{"prototype":${p}}`;
    /** JSON text with `extra` (raw text) spliced into the object at `at` (a top-level key) or at the top. */
    const splice = (body: object, extra: string, at?: string) => {
      const text = JSON.stringify(body);
      if (!at) return text.replace(/^\{/, `{${extra},`);
      return text.replace(`"${at}":{`, `"${at}":{${extra},`);
    };
    const cases: [string, string, string, string][] = [
      // method, path, body, the key path the message must name
      ["POST", PG, splice(connBody(uniq("pp")), `"__proto__":${p}`), "__proto__"],
      ["POST", PG, splice(connBody(uniq("pp")), `"constructor":${cp}`), "constructor.prototype"],
      ["POST", PG, splice(connBody(uniq("pp")), `"\\u005f_proto__":${p}`), "__proto__"],
      ["POST", PG, splice(connBody(uniq("pp")), `"__proto__":${p}`, "credentials"), "credentials.__proto__"],
      [
        "POST",
        PG,
        splice(connBody(uniq("pp")), `"constructor":${cp}`, "credentials"),
        "credentials.constructor.prototype",
      ],
      [
        "POST",
        SYNCS,
        splice(syncBody(uniq("pp")), `"__proto__":${p}`, "destinationConfig"),
        "destinationConfig.__proto__",
      ],
      ["POST", SYNCS, splice(syncBody(uniq("pp")), `"__proto__":${p}`, "syncOptions"), "syncOptions.__proto__"],
      [
        "POST",
        SYNCS,
        splice(syncBody(uniq("pp")), `"constructor":${cp}`, "syncOptions"),
        "syncOptions.constructor.prototype",
      ],
      ["POST", ROTS, splice(rotBody(uniq("pp")), `"__proto__":${p}`, "parameters"), "parameters.__proto__"],
      ["POST", ROTS, splice(rotBody(uniq("pp")), `"__proto__":${p}`, "secretsMapping"), "secretsMapping.__proto__"],
      ["POST", PROFILES, splice(profileBody(uniq("pp")), `"__proto__":${p}`), "__proto__"],
      ["PATCH", `${PG}/${conn.id}`, `{"description":"x","__proto__":${p}}`, "__proto__"],
      ["PATCH", `${PG}/${conn.id}`, `{"credentials":{"a":[{"__proto__":${p}}]}}`, "credentials.a.0.__proto__"],
      [
        "PATCH",
        `${SYNCS}/${sync.id}`,
        `{"destinationConfig":{"constructor":${cp}}}`,
        "destinationConfig.constructor.prototype",
      ],
      ["PATCH", `${ROTS}/${rot.id}`, `{"parameters":{"__proto__":${p}}}`, "parameters.__proto__"],
      ["PATCH", `${PROFILES}/${profile.id}`, `{"defaults":{"__proto__":${p}}}`, "defaults.__proto__"],
    ];
    for (const [method, path, body, key] of cases) {
      const r = await raw(emu.url, method, path, { headers: { ...auth, ...json }, body });
      expectRefused(r, [400]);
      expect(r.body.error).toBe("BadRequest");
      expect(r.body.message).toBe(`${key}: the key is not allowed in a request body (it could change prototypes)`);
      clean();
    }
    expect(await state()).toEqual(before);
  });

  test("constructor, prototype and Object.prototype method names as plain keys, and in query strings: accepted with the keys dropped, or 4xx", async () => {
    const plain = {
      constructor: { polluted: "yes" },
      prototype: { polluted: "yes" },
      hasOwnProperty: 1,
      toString: "x",
    };
    const name = uniq("plain-keys");
    const c = await api.post(PG, {
      ...connBody(name),
      ...plain,
      credentials: { ...pg.credentials, ...plain },
    });
    expect(show(c)).toMatch(/^200 /);
    const s = await api.post(SYNCS, {
      ...syncBody(uniq("plain-keys")),
      ...plain,
      syncOptions: { initialSyncBehavior: "overwrite-destination", ...plain },
      destinationConfig: { vaultBaseUrl: `https://${uniq("pk")}.vault.azure.net`, ...plain },
    });
    expect(show(s)).toMatch(/^200 /);
    const r = await api.post(ROTS, {
      ...rotBody(uniq("plain-keys")),
      ...plain,
      parameters: { username1: "a", username2: "b", ...plain },
    });
    expect(show(r)).toMatch(/^200 /);
    const m = await api.post(ROTS, {
      ...rotBody(uniq("plain-keys")),
      secretsMapping: { username: uniq("U").toUpperCase(), password: uniq("P").toUpperCase(), ...plain },
    });
    expect([200, 422]).toContain(m.status);
    if (m.status !== 200) expectRefused(m, [422]);
    clean();

    // the keys are dropped: stored and read back without them
    const reads = [
      (await api.get(`${PG}/${c.body.appConnection.id}`)).body.appConnection,
      (await api.get(`${SYNCS}/${s.body.secretSync.id}`)).body.secretSync,
      (await api.get(`${ROTS}/${r.body.secretRotation.id}`)).body.secretRotation,
    ];
    for (const o of reads) {
      for (const part of [o, o.credentials, o.syncOptions, o.destinationConfig, o.parameters]) {
        if (!part) continue;
        for (const k of Object.keys(plain)) expect(Object.hasOwn(part, k)).toBe(false);
      }
    }

    // query strings: nothing parsed into a prototype
    for (const qs of [
      "__proto__[polluted]=yes",
      "__proto__.polluted=yes",
      "constructor[prototype][polluted]=yes",
      "constructor.prototype.polluted=yes",
      "projectId=__proto__",
    ]) {
      for (const path of [PG, SYNCS, ROTS, PROFILES, apiPaths.auditLogs]) {
        const q = await raw(emu.url, "GET", `${path}?${qs}`, { headers: auth });
        if (q.status !== 200) expectRefused(q, [400, 403, 404, 422]);
        clean();
      }
    }

    // later responses carry no injected field
    for (const path of [
      PG,
      `${PG}/${conn.id}`,
      `${SYNCS}/${sync.id}`,
      `${ROTS}/${rot.id}`,
      `${PROFILES}/${profile.id}`,
    ]) {
      const later = await raw(emu.url, "GET", path, { headers: auth });
      expect(later.status).toBe(200);
      expect(later.text).not.toContain("polluted");
    }
    const fresh = await api.post(PG, connBody(uniq("after-pollution")));
    expect(show(fresh)).toMatch(/^200 /);
    expect(JSON.stringify(fresh.body)).not.toContain("polluted");
    clean();
  });
});

describe("load", () => {
  test("1,000 concurrent mixed requests on one project: each a success or a clear 4xx, none dropped, the store consistent", async () => {
    const run = uniq("burst");
    const hot = (await api.post(PG, connBody(`${run}-hot`))).body.appConnection;
    const dup = `${run}-dup`;
    const kinds = ["create", "patch", "read", "duplicate"] as const;
    const N = 1000;
    const t0 = performance.now();
    const results = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const kind = kinds[i % kinds.length]!;
        try {
          const res =
            kind === "create"
              ? await api.post(PG, connBody(`${run}-c${i}`))
              : kind === "patch"
                ? await api.patch(`${PG}/${hot.id}`, { description: `d${i}` })
                : kind === "read"
                  ? await (i % 8 === 2 ? api.get(`${PG}/${hot.id}`) : api.get(`${PG}/connection-name/${hot.name}`))
                  : await api.post(PG, connBody(dup));
          return { kind, i, res };
        } catch (err) {
          return { kind, i, err: err as Error };
        }
      }),
    );
    const ms = Math.round(performance.now() - t0);

    const dropped = results.filter((r) => r.err);
    expect(dropped.map((r) => `${r.kind} ${r.i}: ${r.err!.message}`)).toEqual([]);
    const statuses = results.map((r) => r.res!.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const r of results) if (r.res!.status >= 400) expectRefused(r.res!, [400]);
    const ok = (kind: string) => results.filter((r) => r.kind === kind && r.res!.status === 200);

    // every create with a distinct name made exactly one object
    expect(ok("create")).toHaveLength(N / 4);
    const list = (await api.get(PG)).body.appConnections as Json[];
    const made = list.filter((c) => c.name.startsWith(`${run}-c`));
    expect(made.map((c) => c.name).sort()).toEqual(
      ok("create")
        .map((r) => `${run}-c${r.i}`)
        .sort(),
    );
    // one name, many creates: exactly one won, the rest were told the name is taken
    expect(ok("duplicate")).toHaveLength(1);
    for (const r of results.filter((x) => x.kind === "duplicate" && x.res!.status !== 200)) {
      expectRefused(r.res!, [400], new RegExp(`"${dup}" already exists`));
    }
    expect(list.filter((c) => c.name === dup)).toHaveLength(1);
    // concurrent PATCHes of one object: all applied one at a time; it holds the last one's value
    const patches = ok("patch");
    expect(patches).toHaveLength(N / 4);
    const final = (await api.get(`${PG}/${hot.id}`)).body.appConnection;
    expect(final.version).toBe(hot.version + N / 4);
    const versions = patches.map((r) => r.res!.body.appConnection.version).sort((a, b) => a - b);
    expect(new Set(versions).size).toBe(N / 4);
    const lastWrite = patches.find((r) => r.res!.body.appConnection.version === final.version)!;
    expect(final.description).toBe(`d${lastWrite.i}`);
    expect(ok("read")).toHaveLength(N / 4);
    console.info(
      `1,000 concurrent requests: all answered in ${ms} ms (${Math.round((N / ms) * 1000)}/s), 0 dropped, 0 5xx`,
    );
    await expectAlive();
  });
});

describe("durability (--data, the built CLI in a child process)", () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-durability-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  interface Child {
    proc: ChildProcess;
    url: string;
    token: string;
  }

  /** Starts `node dist/emulator/cli.js --json --data <file>` and reads its one summary line. */
  async function spawnCli(file: string): Promise<Child> {
    const proc = spawn(process.execPath, [CLI, "--port", "0", "--json", "--no-rate-limit", "--data", file], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    proc.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((resolve, reject) => {
      const rl = createInterface({ input: proc.stdout! });
      rl.once("line", resolve);
      proc.once("exit", (code) => reject(new Error(`emulator exited with ${code}: ${stderr}`)));
    });
    const summary = JSON.parse(line) as { url: string; token: string };
    return { proc, url: summary.url, token: summary.token };
  }

  const exited = (c: Child) =>
    c.proc.exitCode !== null || c.proc.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => c.proc.once("exit", () => r()));

  /** Sends one write and kills the emulator with SIGKILL the moment the response's status line arrives. */
  async function writeThenKill(c: Child, method: string, path: string, body?: unknown): Promise<number> {
    const u = new URL(c.url);
    const data = body === undefined ? undefined : JSON.stringify(body);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          method,
          path,
          headers: { authorization: `Bearer ${c.token}`, ...(data !== undefined && json) },
        },
        (res) => {
          c.proc.kill("SIGKILL");
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on("error", reject);
      req.end(data);
    });
    await exited(c);
    expect(c.proc.signalCode).toBe("SIGKILL");
    return status;
  }

  const get = (c: Child, path: string) => new Api(c.url, c.token).get(path);

  test("dist is built from the current emulator sources", () => {
    const stale = ["index", "cli", "server", "persistence", "audit", "store", "errors"].filter(
      (f) =>
        statSync(join(ROOT, "dist", "emulator", `${f}.js`)).mtimeMs <
        statSync(join(ROOT, "emulator", `${f}.ts`)).mtimeMs,
    );
    if (stale.length) throw new Error(`dist/emulator is older than ${stale.join(", ")}: run npm run build`);
  });

  // Each restart is a new node process loading the emulator: seconds on a busy machine. The rounds
  // are tests of their own, each waiting on its conditions (a response, an exit, a summary line),
  // with room for a loaded machine; the emulator of one round is the next round's.
  const ROUND_TIMEOUT = 3 * 60_000;
  const file = join(dir, "state.json");
  let c: Child | undefined;
  let kills = 0;
  afterAll(async () => {
    if (!c) return;
    c.proc.kill("SIGKILL");
    await exited(c);
  });

  test.each([1, 2, 3, 4, 5])(
    "an acknowledged create, update and delete each survive kill -9 right after the response (round %i of 5)",
    async (round) => {
      c ??= await spawnCli(file);
      const name = uniq(`durable-${round}`);
      expect(await writeThenKill(c, "POST", PG, connBody(name))).toBe(200);
      kills++;
      c = await spawnCli(file);
      const created = await get(c, `${PG}/connection-name/${name}`);
      expect(show(created)).toMatch(/^200 /);
      const id = created.body.appConnection.id as string;

      const description = `after update ${round} ${"é😀".repeat(round - 1)}`;
      expect(await writeThenKill(c, "PATCH", `${PG}/${id}`, { description })).toBe(200);
      kills++;
      c = await spawnCli(file);
      const updated = (await get(c, `${PG}/${id}`)).body.appConnection;
      expect(updated.description).toBe(description);
      expect(updated.version).toBe(2);

      expect(await writeThenKill(c, "DELETE", `${PG}/${id}`)).toBe(200);
      kills++;
      c = await spawnCli(file);
      expectRefused(await get(c, `${PG}/${id}`), [404]);
      // the fixtures and earlier rounds are intact
      expect((await get(c, `${PG}/${pg.id}`)).status).toBe(200);
    },
    ROUND_TIMEOUT,
  );

  test(
    "concurrent writes: every one acknowledged before a kill -9 is there after it",
    async () => {
      c ??= await spawnCli(file);
      const live = c;
      const names = Array.from({ length: 20 }, (_, i) => uniq(`burst-${i}`));
      const acked: string[] = [];
      const u = new URL(live.url);
      await new Promise<void>((resolve) => {
        let settled = 0;
        for (const name of names) {
          const req = request(
            {
              host: u.hostname,
              port: u.port,
              method: "POST",
              path: PG,
              headers: { ...json, authorization: `Bearer ${live.token}` },
            },
            (res) => {
              if (res.statusCode === 200) acked.push(name);
              if (acked.length === 10) live.proc.kill("SIGKILL");
              res.resume();
              if (++settled === names.length) resolve();
            },
          );
          req.on("error", () => {
            if (++settled === names.length) resolve();
          });
          req.end(JSON.stringify(connBody(name)));
        }
      });
      await exited(live);
      kills++;
      expect(acked.length).toBeGreaterThanOrEqual(10);
      c = await spawnCli(file);
      for (const name of acked) expect(show(await get(c, `${PG}/connection-name/${name}`))).toMatch(/^200 /);
      console.info(
        `kill -9 trials: ${kills} survived (5 creates, 5 updates, 5 deletes, 1 burst of ${acked.length} acknowledged creates)`,
      );
    },
    ROUND_TIMEOUT,
  );

  test(
    "a clean stop leaves the data file only",
    async () => {
      c ??= await spawnCli(file);
      const last = c;
      c = undefined;
      last.proc.kill("SIGTERM");
      await exited(last);
      expect(last.proc.exitCode ?? last.proc.signalCode).not.toBe("SIGKILL");
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp") || f.endsWith(".journal"))).toEqual([]);
    },
    ROUND_TIMEOUT,
  );
});
