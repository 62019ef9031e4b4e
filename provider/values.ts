import { createHmac, randomBytes } from "node:crypto";

/**
 * Small pure helpers on plain property values, shared by check and diff.
 */

/** The value the engine sends for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The program's name of the resource, which the resource class registers beside its args
 * (provider/program-side.ts) for messages that name other resources of the program. `check`
 * leaves it out of the inputs it returns, so it is never stored.
 */
export const RESOURCE_NAME_KEY = "__resourceName";

/**
 * Where the program's top-level args that are Outputs come from: arg → a token of the Output
 * object, the same for every resource the program passes that one Output to (`secretPath:
 * folder.secretPath`). The resource class registers it beside its args (provider/program-side.ts),
 * known at preview while the values are not, so `check` can tell that two keys are the same
 * (`uniqueIn`, provider/program-keys.ts). `check` leaves it out of the args and inputs: it is never
 * stored nor sent to the service.
 */
export const OUTPUT_ORIGINS_KEY = "__outputOrigins";

/** The origins the program registered beside a resource's args (`OUTPUT_ORIGINS_KEY`): none when absent. */
export function outputOriginsOf(values: Plain): Readonly<Record<string, string>> {
  const origins = values[OUTPUT_ORIGINS_KEY];
  if (!isPlainObject(origins)) return {};
  return Object.fromEntries(Object.entries(origins).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export type Plain = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Plain {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True when the value is, or contains, an unknown. */
export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isPlainObject(v)) return Object.values(v).some(containsUnknown);
  return false;
}

/** True when the value at `path`, or any of its ancestors, is unknown. */
export function unknownAt(root: unknown, path: readonly PropertyKey[]): boolean {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === UNKNOWN) return true;
    if (isPlainObject(cur)) cur = cur[String(key)];
    else if (Array.isArray(cur)) cur = cur[Number(key)];
    else return false;
  }
  return containsUnknown(cur);
}

export function getPath(root: unknown, path: string): unknown {
  let cur = root;
  for (const key of path.split(".")) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/**
 * A deep copy without `undefined` values: the engine's wire format (protobuf Struct) rejects them
 * (an undefined field becomes absent, an undefined element null).
 */
export function compact(value: Plain): Plain {
  const out: Plain = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = compactValue(v);
  return out;
}

function compactValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : compactValue(x)));
  return isPlainObject(v) ? compact(v) : v;
}

/** A deep copy without the values at `paths` (dotted). */
export function withoutPaths(value: Plain, paths: readonly string[]): Plain {
  const out: Plain = { ...value };
  for (const p of paths) {
    const [head, ...rest] = p.split(".");
    const inner = out[head!];
    if (inner === undefined) continue;
    if (rest.length === 0) delete out[head!];
    else if (isPlainObject(inner)) out[head!] = withoutPaths(inner, [rest.join(".")]);
  }
  return out;
}

/**
 * Equality for diffs: key order does not matter, and a missing key, `undefined` and `null` are
 * the same (the service returns null for what was never set).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (b === undefined || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return a === b;
}

/**
 * Secret inputs are never stored in outputs: a keyed hash of what was last sent is, so diff can
 * tell a changed secret from an unchanged one. The key is random per resource, and the whole
 * record is itself a secret output.
 */
export interface SecretHashes {
  key: string;
  values: Record<string, string>;
}

export function hashSecrets(inputs: Plain, paths: readonly string[], previous?: SecretHashes): SecretHashes {
  const key = previous?.key ?? randomBytes(16).toString("hex");
  const values: Record<string, string> = {};
  for (const p of paths) {
    const v = getPath(inputs, p);
    if (v !== undefined && v !== null) values[p] = hashOne(key, v);
  }
  return { key, values };
}

export function hashOne(key: string, value: unknown): string {
  return createHmac("sha256", key).update(JSON.stringify(value)).digest("hex");
}

/** The secret paths whose value differs from the one last sent. */
export function changedSecrets(inputs: Plain, paths: readonly string[], previous: SecretHashes | undefined): string[] {
  return paths.filter((p) => {
    const v = getPath(inputs, p);
    const before = previous?.values[p];
    if (v === undefined || v === null) return before !== undefined;
    if (containsUnknown(v)) return true;
    return before === undefined || hashOne(previous!.key, v) !== before;
  });
}
