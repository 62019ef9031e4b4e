import { z } from "zod";
import { isFieldOfAnotherBranch } from "../sdk/schemas";

/**
 * The request schemas as the service parses them. The shared schemas refuse a key outside an
 * object's shape (`strictObject`, sdk/schemas/common.ts): that is the program side's guard rail.
 * The service's request schemas are plain `z.object`s, which drop such a key and go on (no
 * `.strict()` in the request schemas of services/secret-sync/, services/app-connection/ or
 * ee/services/secret-rotation-v2/). The emulator answers as the service does, so it parses with a
 * twin of each schema in which every strict object strips instead.
 *
 * A twin rather than "drop the keys zod reports, parse again": a union then behaves as the
 * service's does (its first branch that passes once stripped wins, as in zod), and no
 * `unrecognized_keys` issue can reach a 422, beside another error or inside a union's branches.
 */

type Def = Record<string, unknown> & { type: string };

const twins = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with every strict object stripping unknown keys instead; everything else (rules, transforms, defaults) kept. */
export function stripTwin<S extends z.ZodType>(schema: S): S {
  let twin = twins.get(schema);
  if (!twin) {
    // Registered first, so a recursive schema (through z.lazy) ends.
    twins.set(schema, schema);
    twin = build(schema);
    twins.set(schema, twin);
  }
  return twin as S;
}

function build(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as unknown as Def;
  // A copy with the def's getters kept: a default's `defaultValue` is a getter that clones the
  // value on each parse, so two parses never share one object.
  const next = Object.defineProperties({}, Object.getOwnPropertyDescriptors(def)) as Def;
  let changed = false;
  const swap = (key: string, value: unknown) => {
    if (value !== def[key]) {
      Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true });
      changed = true;
    }
  };
  if (def.type === "object") {
    const shape = def["shape"] as Record<string, z.ZodType>;
    const twinShape = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, stripTwin(v)]));
    if (Object.keys(shape).some((k) => twinShape[k] !== shape[k])) swap("shape", twinShape);
    // A strict object's catchall is `never`; without one, zod strips (a loose object's `unknown` stays).
    const catchall = def["catchall"] as z.ZodType | undefined;
    if (catchall?._zod.def.type === "never") swap("catchall", undefined);
  }
  for (const key of ["innerType", "in", "out", "left", "right", "element", "keyType", "valueType", "rest"]) {
    const inner = def[key];
    if (inner instanceof z.ZodType) swap(key, stripTwin(inner));
  }
  for (const key of ["options", "items"]) {
    const list = def[key];
    if (Array.isArray(list)) {
      const twinList = (list as z.ZodType[]).map((o) => stripTwin(o));
      if (twinList.some((o, i) => o !== list[i])) swap(key, twinList);
    }
  }
  if (def.type === "lazy") {
    const getter = def["getter"] as () => z.ZodType;
    swap("getter", () => stripTwin(getter()));
  }
  return changed ? schema.clone(next as never) : schema;
}

/** What `parseAsService` answers: the parsed value, or the issues of a 422. */
export type ServiceParse = { success: true; data: unknown } | { success: false; issues: z.core.$ZodIssue[] };

/**
 * Parses a request part as the service would: with the strip twin, and without the fields the
 * row's rules name as belonging to another branch of the service's union (`fieldOfAnotherBranch`:
 * github's `org` with `scope: "repository"`, aws-secrets-manager's `secretName` with one-to-one),
 * which the service's branch drops. Each round removes at least one key of the input, so it ends.
 */
export function parseAsService(schema: z.ZodType, input: unknown): ServiceParse {
  const twin = stripTwin(schema);
  let value = input;
  for (;;) {
    const r = twin.safeParse(value);
    if (r.success) return { success: true, data: r.data };
    const drops = r.error.issues.filter(isFieldOfAnotherBranch).map((i) => i.path);
    const next = drops.reduce(dropAt, value);
    if (drops.length === 0 || next === value) return { success: false, issues: r.error.issues };
    value = next;
  }
}

/**
 * `value` without the key at the end of `path`; the objects on the way are copied (shallowly), the
 * rest shared. The same `value` when there is no such key.
 */
function dropAt(value: unknown, path: readonly PropertyKey[]): unknown {
  if (value === null || typeof value !== "object" || path.length === 0) return value;
  const [head, ...rest] = path as [PropertyKey, ...PropertyKey[]];
  const record = value as Record<PropertyKey, unknown>;
  if (!Object.hasOwn(record, head)) return value;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...record }) as Record<PropertyKey, unknown>;
  if (rest.length === 0) {
    delete copy[head];
    return copy;
  }
  const inner = dropAt(record[head], rest);
  if (inner === record[head]) return value;
  copy[head] = inner;
  return copy;
}
