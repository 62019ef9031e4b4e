import { type Plain, type SecretHashes, isPlainObject } from "./values";

/**
 * What the provider keeps in a resource's outputs beside the outputs themselves, in one typed
 * record. The keys are the ones stacks written by earlier releases hold, so they read the same.
 */
export interface ProviderState {
  /** What the service last reported, in the args' shape: diff compares the program against exactly this. */
  observed: Plain;
  /** Keyed hashes of the secret args last sent (never the secrets). */
  secretHashes?: SecretHashes;
  /** The service's fingerprint of what it never returns (`credentialsHash`), as last read. */
  fingerprint?: string;
  /** The fingerprint our last write produced: a read that differs from it is out-of-band drift. */
  appliedFingerprint?: string;
}

const KEYS = ["observed", "secretHashes", "fingerprint", "appliedFingerprint"] as const;

/** The provider state held in a resource's outputs (from any release). */
export function decodeState(outs: Plain): ProviderState {
  return {
    observed: isPlainObject(outs.observed) ? outs.observed : {},
    secretHashes: isPlainObject(outs.secretHashes) ? (outs.secretHashes as unknown as SecretHashes) : undefined,
    fingerprint: typeof outs.fingerprint === "string" ? outs.fingerprint : undefined,
    appliedFingerprint: typeof outs.appliedFingerprint === "string" ? outs.appliedFingerprint : undefined,
  };
}

/** The provider state as output properties (undefined ones left out by the caller's `compact`). */
export function encodeState(state: ProviderState): Plain {
  return Object.fromEntries(KEYS.map((k) => [k, state[k]]));
}

/** The fingerprint drifted: the service's differs from the one our last write produced. */
export function fingerprintDrifted(state: ProviderState): boolean {
  return state.appliedFingerprint !== undefined && state.fingerprint !== state.appliedFingerprint;
}
