import { SecretOpsValidationError } from "./errors";

/**
 * Kinds are rows: the slug a method receives selects its row in a shared table (kind, destination,
 * rotation type). An unknown slug is a validation error, raised before anything is sent.
 */
export function requireRow<R>(
  lookup: (slug: string) => R | undefined,
  slug: unknown,
  field: string,
  known: readonly string[],
): R {
  const row = typeof slug === "string" ? lookup(slug) : undefined;
  if (!row) throw new SecretOpsValidationError([{ path: field, message: `must be one of ${known.join(", ")}` }]);
  return row;
}

/** One schema per row, built on first use (the factories build a fresh schema on every call). */
export function perRow<R extends object, S>(build: (row: R) => S): (row: R) => S {
  const cache = new WeakMap<R, S>();
  return (row) => {
    let s = cache.get(row);
    if (s === undefined) {
      s = build(row);
      cache.set(row, s);
    }
    return s;
  };
}
