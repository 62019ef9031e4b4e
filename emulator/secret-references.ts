import { posix } from "node:path";
import { forbidden } from "./errors";
import type { Store } from "./store";

/**
 * Secret references, as the service expands them on a read that asks for it
 * (`expandSecretReferences=true`; docs/service-api.md §12). A value may name other secrets:
 * `${KEY}` in its own folder, `${env.KEY}` at the root of another environment, `${env.a.b.KEY}`
 * in folder `/a/b` of that environment, always in the same project. A read with expansion gets
 * each reference replaced by the value it names, and the references in that value in turn, to a
 * depth of 10, never following a secret back into itself. A reference to a secret that does not
 * exist (or whose value is empty) stays as written. Each secret a reference names must be one the
 * caller may read the value of (`canExpandValue`, services/secret-v2-bridge/secret-v2-bridge-fns.ts),
 * whether it exists or not; otherwise the read is a 403 naming both secrets.
 */

const REFERENCE = /\$\{([\w.-]+)\}/g;
const MAX_DEPTH = 10;

interface Place {
  projectId: string;
  environment: string;
  secretPath: string;
}

const hasReference = (value: string) => new RegExp(REFERENCE.source).test(value);

/** Where a reference (`KEY` or `env.a.b.KEY`) found in a value at `from` points. */
function target(reference: string, from: Place): Place & { key: string } {
  const parts = reference.trim().split(".");
  if (parts.length === 1) return { ...from, key: parts[0]! };
  return {
    projectId: from.projectId,
    environment: parts[0]!,
    secretPath: posix.join("/", ...parts.slice(1, -1)),
    key: parts.at(-1)!,
  };
}

/** The value a reference names; "" when its environment, folder or secret does not exist. */
function valueAt(store: Store, at: Place & { key: string }): string {
  const env = store.environmentBySlug(at.projectId, at.environment);
  const folder = env && store.folderByEnvPath(env.id, at.secretPath);
  return (folder && store.secrets.get(folder.id)?.get(at.key)?.value) ?? "";
}

const idOf = (at: Place & { key: string }) => `${at.environment}:${at.secretPath}:${at.key}`;

/** A multi-line value in one line, quoted, as the service gives an expanded value kept unencoded. */
const oneLine = (value: string) => (value.includes("\n") ? `"${value.replaceAll("\n", "\\n")}"` : value);

/**
 * The value of secret `key` at `place` with its references expanded. Every reference of a value
 * is replaced where it appears in the whole result, and the values that replace them are searched
 * for references in turn (from the last found), as the service's walk does.
 */
export function expandReferences(
  store: Store,
  place: Place,
  secret: { key: string; value: string; skipMultilineEncoding: boolean | null },
  /** Whether the caller may read the value of the secret `key` at `environment` and `secretPath`. */
  canExpand: (environment: string, secretPath: string, key: string) => boolean = () => true,
): string {
  if (!secret.value || !hasReference(secret.value)) return secret.value;
  let expanded = secret.value;
  const pending = [{ value: secret.value, at: place, depth: 0, seen: new Set([idOf({ ...place, key: secret.key })]) }];
  while (pending.length > 0) {
    const { value, at, depth, seen } = pending.pop()!;
    if (depth > MAX_DEPTH) continue;
    for (const [written, reference] of value.matchAll(REFERENCE)) {
      const to = target(reference!, at);
      if (!canExpand(to.environment, to.secretPath, to.key))
        throw forbidden(
          `You do not have permission to read secret '${to.key}' in environment '${to.environment}' at path '${to.secretPath}', which is referenced by secret '${secret.key}' in environment '${place.environment}' at path '${place.secretPath}'.`,
        );
      const found = valueAt(store, to);
      if (hasReference(found) && !seen.has(idOf(to)))
        pending.push({ value: found, at: to, depth: depth + 1, seen: new Set([...seen, idOf(to)]) });
      if (found) expanded = expanded.replaceAll(written, () => found);
    }
  }
  return secret.skipMultilineEncoding ? oneLine(expanded) : expanded;
}
