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
