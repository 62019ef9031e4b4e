import { createHmac, randomBytes } from "node:crypto";

/**
 * Small pure helpers on plain property values, shared by check and diff.
 */

/** The value the engine sends for inputs not yet known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

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
 * A deep copy without `undefined` values: the engine's wire format (protobuf Struct) rejects them.
 * The copy has the value's type (an undefined field becomes absent, an undefined element null).
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : compact(v))) as T;
  if (!isPlainObject(value)) return value;
  const out: Plain = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = compact(v);
  return out as T;
}

/** A deep copy without the values at `paths` (dotted), typed as the value (its secret paths are optional). */
export function withoutPaths<T>(value: T, paths: readonly string[]): T {
  if (!isPlainObject(value)) return value;
  const out: Plain = { ...value };
  for (const p of paths) {
    const [head, ...rest] = p.split(".");
    if (!(head! in out)) continue;
    if (rest.length === 0) delete out[head!];
    else out[head!] = withoutPaths(out[head!], [rest.join(".")]);
  }
  return out as T;
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
