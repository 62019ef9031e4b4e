import { createHash } from "node:crypto";

/**
 * Hashing the emulator's modules share (fixture ids, certificate signatures, credential
 * fingerprints, pushed values). A leaf: it imports none of the emulator's modules, so the store,
 * the records and the certificates each depend on it in one direction.
 */

/** JSON with object keys sorted, so equal values hash equally whatever the key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

export const sha256Hex = (s: string) => createHash("sha256").update(s).digest("hex");
