import { z } from "zod";
import { type Plain, type SecretHashes, isPlainObject } from "./values";

/** The shapes this provider writes into state (`encodeState`), read back leniently: anything else counts as absent. */
const SecretHashesSchema = z.object({ key: z.string(), values: z.record(z.string(), z.string()) });
const SecretRevisionsSchema = z.record(z.string(), z.number());

/**
 * What the provider keeps in a resource's outputs beside the outputs themselves, in one typed
 * record. The keys are the ones stacks written by earlier releases hold, so they read the same.
 * `observed` is not written any more: it is exactly the args-shaped outputs (state stays small),
 * and older state's copy is still read.
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
  /**
   * The args the program declared at our last write: a refresh reports the service's values of
   * these only, so the next preview shows no removal of args the program never declared. Absent
   * when it declared every arg the service reports (and in state from older releases): all of them.
   * Stored as the shorter of the list and the reported args it leaves out (`undeclared`), and not
   * at all when it leaves none out: a program leaves out few, and the engine writes every
   * resource's state at each step.
   */
  declared?: string[];
  /** The revisions of the secret args (`SECRET_REVISIONS_KEY`), carried through a refresh. */
  secretRevisions?: SecretRevisions;
  /**
   * The object's `updatedAt` when a step last brought it to the declared state (the service's
   * clock): its create or update event is at or after it, whoever wrote it. A change of provider
   * options alone, which sends nothing, and a refresh leave it (`secretops verify` reads it). Not
   * stored while it is the `updatedAt` output (`withoutImpliedState`), which then stands for it.
   */
  changedAt?: string;
  /**
   * The object was adopted as found: the step that took it (`adoptExisting`, or an object only
   * ever managed) had nothing to change, so no step of this stack has written it and the audit log
   * holds no event of this stack for it (`secretops verify` looks for none). Kept by a refresh and
   * by a change of provider options alone; the next write drops it and records `changedAt`.
   */
  adoptedAsFound?: true;
}

/** What a step that brought the object to the declared state records of its write: see `ProviderState`. */
export type WriteRecord = Pick<ProviderState, "changedAt" | "adoptedAsFound">;

/**
 * A number per secret path, raised by `check` when the program's secret value differs from the one
 * in the last inputs. The engine masks every secret in a preview as the same `[secret]`, so a
 * changed secret would show no changed field; this plain input shows which one changed, and
 * nothing of its value. It is not an arg: never sent, never diffed.
 */
export type SecretRevisions = Record<string, number>;
export const SECRET_REVISIONS_KEY = "secretRevisions";

/**
 * The revision a refresh gives the secrets a fingerprint covers when the service's fingerprint
 * moved away from the one our last write produced (out-of-band drift): the next `check` raises it
 * to 1, so the preview shows which secrets `up` writes again (`credentials.password: 0 => 1`).
 */
export const CHANGED_OUTSIDE = 0;

/** The revisions with the secrets under `field` (a fingerprint's arg) marked as changed outside. */
export function changedOutside(revisions: SecretRevisions | undefined, field: string): SecretRevisions | undefined {
  if (!revisions) return revisions;
  return Object.fromEntries(
    Object.entries(revisions).map(([p, r]) => [p, p === field || p.startsWith(`${field}.`) ? CHANGED_OUTSIDE : r]),
  );
}

/**
 * The provider state held in a resource's outputs (from any release); `argNames` are the
 * args-shaped outputs.
 */
export function decodeState(outs: Plain, argNames: readonly string[]): ProviderState {
  return {
    observed: isPlainObject(outs.observed)
      ? outs.observed
      : Object.fromEntries(argNames.filter((k) => outs[k] !== undefined).map((k) => [k, outs[k]])),
    secretHashes: SecretHashesSchema.safeParse(outs.secretHashes).data,
    fingerprint: typeof outs.fingerprint === "string" ? outs.fingerprint : undefined,
    appliedFingerprint: typeof outs.appliedFingerprint === "string" ? outs.appliedFingerprint : undefined,
    declared: declaredIn(outs, argNames),
    secretRevisions: secretRevisionsIn(outs),
    changedAt: changedAtIn(outs),
    adoptedAsFound: outs.adoptedAsFound === true ? true : undefined,
  };
}

const stringsIn = (v: unknown) => (Array.isArray(v) ? v.filter((k): k is string => typeof k === "string") : undefined);

/** The declared args as stored: the list, or the reported args (`argNames`) but those left out. */
function declaredIn(outs: Plain, argNames: readonly string[]): string[] | undefined {
  const undeclared = stringsIn(outs.undeclared);
  return stringsIn(outs.declared) ?? (undeclared && argNames.filter((k) => !undeclared.includes(k)));
}

/** `changedAt` as stored, else the `updatedAt` output it was left out for (none when adopted as found). */
export function changedAtIn(outs: Plain): string | undefined {
  if (typeof outs.changedAt === "string") return outs.changedAt;
  return outs.adoptedAsFound !== true && typeof outs.updatedAt === "string" ? outs.updatedAt : undefined;
}

/**
 * Outputs without the provider state they imply: `changedAt` while it is the `updatedAt` output
 * (a write's record, until a refresh sees the object changed since). The engine writes every
 * resource's state at each step, so bytes every resource repeats cost time at scale.
 */
export function withoutImpliedState(outputs: Plain): Plain {
  if (outputs.changedAt === undefined || outputs.changedAt !== outputs.updatedAt) return outputs;
  const { changedAt: _implied, ...rest } = outputs;
  return rest;
}

/** The secret revisions held in inputs or outputs, if any. */
export function secretRevisionsIn(props: Plain): SecretRevisions | undefined {
  const revisions = props[SECRET_REVISIONS_KEY];
  return SecretRevisionsSchema.safeParse(revisions).data;
}

/**
 * The provider state as output properties, beside the args-shaped outputs that are `observed`
 * (`argNames`). Secret hashes are kept only when there is a secret (undefined ones are left out by
 * the caller).
 */
export function encodeState(state: Omit<ProviderState, "observed">, argNames: readonly string[]): Plain {
  const hashes = state.secretHashes && Object.keys(state.secretHashes.values).length ? state.secretHashes : undefined;
  const { declared } = state;
  const undeclared = declared && argNames.filter((k) => !declared.includes(k));
  // None left out: no list, which means all of them.
  const stored = undeclared?.length ? (undeclared.length < declared!.length ? { undeclared } : { declared }) : {};
  return {
    secretHashes: hashes,
    fingerprint: state.fingerprint,
    appliedFingerprint: state.appliedFingerprint,
    declared: stored.declared,
    undeclared: stored.undeclared,
    [SECRET_REVISIONS_KEY]: state.secretRevisions,
    changedAt: state.changedAt,
    adoptedAsFound: state.adoptedAsFound,
  };
}

/** The fingerprint drifted: the service's differs from the one our last write produced. */
export function fingerprintDrifted(state: ProviderState): boolean {
  return state.appliedFingerprint !== undefined && state.fingerprint !== state.appliedFingerprint;
}
