import { z } from "zod";
import { parseAsService, stripTwin } from "../../emulator/service-schemas";
import {
  appConnectionKinds,
  appConnectionOperations,
  knownSyncDestinations,
  rotationTypes,
  secretRotationOperations,
  secretSyncOperations,
  strictObject,
  type AppConnectionKind,
  type RotationType,
} from "../../sdk/schemas";

/**
 * The strip twins the emulator parses requests with (emulator/service-schemas.ts): the service's
 * plain z.object drops an unknown key and keeps every other rule.
 */

test("a strict object's twin drops unknown keys, nested ones too; its rules, transforms and defaults stay", () => {
  const schema = strictObject({
    name: z.string().min(2),
    path: z.string().transform((p) => p.toUpperCase()),
    flag: z.boolean().default(true),
    inner: strictObject({ n: z.number() }).optional(),
    list: z.array(strictObject({ k: z.string() })).optional(),
  }).refine((o) => o.name !== "no", { error: "not no", path: ["name"] });
  const twin = stripTwin(schema);
  expect(twin.parse({ name: "ok", path: "a", x: 1, inner: { n: 1, y: 2 }, list: [{ k: "v", z: 3 }] })).toEqual({
    name: "ok",
    path: "A",
    flag: true,
    inner: { n: 1 },
    list: [{ k: "v" }],
  });
  expect(twin.safeParse({ name: "no", path: "a" }).error?.issues.map((i) => i.message)).toEqual(["not no"]);
  expect(twin.safeParse({ name: "n", path: "a", x: 1 }).error?.issues.map((i) => i.code)).toEqual(["too_small"]);
  // the original stays strict; the twin is built once
  expect(schema.safeParse({ name: "ok", path: "a", x: 1 }).success).toBe(false);
  expect(stripTwin(schema)).toBe(twin);
});

test("a union picks its first branch that passes once stripped, as the service's zod does", () => {
  const u = z.union([strictObject({ a: z.string() }), strictObject({ a: z.string(), b: z.string() })]);
  expect(parseAsService(u, { a: "1", b: "2" })).toEqual({ success: true, data: { a: "1" } });
});

test("a default object is fresh on each parse", () => {
  const schema = strictObject({ at: strictObject({ h: z.number() }).default({ h: 0 }) });
  const a = stripTwin(schema).parse({}) as { at: { h: number } };
  const b = stripTwin(schema).parse({}) as { at: { h: number } };
  expect(a.at).toEqual({ h: 0 });
  expect(a.at).not.toBe(b.at);
});

test("every row's example body parses the same with the twin as with the strict schema", () => {
  for (const d of knownSyncDestinations) {
    const body = secretSyncOperations(d).update.body;
    const input = { destinationConfig: d.example.destinationConfig };
    expect(stripTwin(body).parse(input)).toEqual(body.parse(input));
  }
  for (const t of Object.values(rotationTypes) as RotationType[]) {
    const body = secretRotationOperations(t).update.body;
    const input = { parameters: t.example.parameters };
    expect(stripTwin(body).parse(input)).toEqual(body.parse(input));
  }
  for (const k of Object.values(appConnectionKinds) as AppConnectionKind[]) {
    const body = appConnectionOperations(k).create.body;
    const input = { name: "c", method: k.example.method, credentials: k.example.credentials };
    expect(stripTwin(body).parse(input)).toEqual(body.parse(input));
  }
});
