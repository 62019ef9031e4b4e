import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { isAmbiguous } from "../sdk/errors";
import { apiClient } from "./config";
import { isNotFound } from "./not-found";
import {
  Plain,
  SecretHashes,
  changedSecrets,
  compact,
  containsUnknown,
  hashSecrets,
  isPlainObject,
  sameValue,
  unknownAt,
  withoutPaths,
} from "./values";

/**
 * The one generic resource scaffold. A resource family declares what is specific to it (its
 * schema per kind, which fields force replacement, which are secret, its API calls and how the
 * service's object maps back onto its args); this file turns that into a dynamic provider:
 *
 *   program args ─► check (zod) ─► diff (field by field) ─► create/update (SDK) ─► outputs
 */

/** A server object mapped onto the args' shape: what diff compares against. */
export type Projection = Plain;

export interface Family<Remote extends { id: string }> {
  /** The type name, e.g. "SecretSync". */
  readonly name: string;
  /** The arg that selects the kind row (`destination`, `type`, `app`), if any. */
  readonly kindField?: string;
  /** The API args schema for these inputs, or a message when the kind is unknown. */
  schema(inputs: Plain): z.ZodType | string;
  /** Rules on the change from the previous inputs to the new ones (one-way switches). */
  transitionFailures?(olds: Plain, news: Plain): dynamic.CheckFailure[];
  /** Provider-only options (never sent to the API), with their defaults. */
  readonly options: z.ZodObject;
  /** Args the PATCH body does not accept: a change replaces the resource. */
  readonly replaceOnChange: readonly string[];
  /** Replacement deletes first, because a user-given name or slug must stay unique. */
  readonly deleteBeforeReplace: boolean;
  /** Dotted paths of secret values in the args: hashed in state, never stored, never returned. */
  secretPaths(inputs: Plain): readonly string[];
  /** Maps a service object onto the args' shape (without secrets). */
  project(remote: Remote): Projection;
  /** Read-only outputs the service computes (status, version, ids of related objects…). */
  computed(remote: Remote): Plain;
  /**
   * Args a program may stop declaring, and the value that clears them on the service (null for a
   * description, …). Other undeclared args are left as the service has them.
   */
  readonly clearable?: Readonly<Record<string, unknown>>;
  /**
   * A fingerprint of values the service never returns (e.g. `credentialsHash`), and the arg it
   * covers: when the service's fingerprint moves away from the one our last write produced, that
   * arg has drifted out of band.
   */
  readonly fingerprint?: { field: string; of(remote: Remote): string | undefined };

  /**
   * The object already exists and is only managed: create finds it (`findExisting`) and applies
   * the declared args, delete releases it without touching it. No `create` then.
   */
  readonly manageExisting?: { notFound(args: Plain): string };
  create?(client: SecretOpsClient, args: Plain, options: Plain): Promise<Remote>;
  /** Finds the object a create would have made (by name or slug): adoption and ambiguous creates. */
  findExisting(client: SecretOpsClient, args: Plain): Promise<Remote | undefined>;
  /** Undefined when the object is gone. */
  read(client: SecretOpsClient, id: string, outs: Plain): Promise<Remote | undefined>;
  update(client: SecretOpsClient, id: string, patch: Plain, outs: Plain, options: Plain): Promise<Remote>;
  delete(client: SecretOpsClient, id: string, outs: Plain): Promise<void>;
  /**
   * Work the last create/update left unfinished (a failed sync job): when `needed` says so, diff
   * reports a change and update runs `run` (then `settle`) even if no arg changed.
   */
  readonly resume?: {
    needed(outs: Plain): boolean;
    run(client: SecretOpsClient, id: string, outs: Plain): Promise<Remote>;
  };
  /** Work after create/update, e.g. waiting for a sync job. Throw `SettleFailure` to keep the resource. */
  settle?(client: SecretOpsClient, remote: Remote, options: Plain): Promise<Remote>;
}

/**
 * Thrown by `settle` when the object exists but did not reach the state asked for (a failed sync
 * job): the engine keeps the resource in state, with outputs from `remote`, and fails the step.
 */
export class SettleFailure<Remote> extends Error {
  constructor(
    message: string,
    readonly remote: Remote,
  ) {
    super(message);
  }
}

/** The error shape the dynamic-provider host turns into a partial failure ("init error"). */
function partialFailure(message: string, id: string, properties: Plain): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}

const SECRET_HASHES = "secretHashes";
/** What the service last reported, in the args' shape: diff compares against exactly this. */
const OBSERVED = "observed";
const FINGERPRINT = "fingerprint";
const APPLIED_FINGERPRINT = "appliedFingerprint";

/** Splits checked inputs into API args and provider options. */
function split(family: Family<{ id: string }>, inputs: Plain): { args: Plain; options: Plain } {
  const optionKeys = Object.keys(family.options.shape);
  const args: Plain = {};
  const options: Plain = {};
  for (const [k, v] of Object.entries(inputs)) {
    if (k === "__provider") continue;
    (optionKeys.includes(k) ? options : args)[k] = v;
  }
  return { args, options };
}

function observedOf(olds: Plain): Projection {
  return isPlainObject(olds[OBSERVED]) ? olds[OBSERVED] : {};
}

/** Args whose desired value differs from what the service last reported, secrets included. */
function changedFields(family: Family<{ id: string }>, args: Plain, olds: Plain): string[] {
  const secretPaths = family.secretPaths(args);
  const plainArgs = withoutPaths(args, secretPaths);
  const observed = observedOf(olds);
  const fields = new Set<string>();
  const candidates = new Set([...Object.keys(plainArgs), ...Object.keys(family.clearable ?? {})]);
  for (const k of candidates) {
    if (containsUnknown(plainArgs[k]) || !sameValue(plainArgs[k], observed[k])) fields.add(k);
  }
  for (const p of changedSecrets(args, secretPaths, olds[SECRET_HASHES] as SecretHashes | undefined)) {
    fields.add(p.split(".")[0]!);
  }
  const fp = family.fingerprint;
  if (
    fp &&
    args[fp.field] !== undefined &&
    olds[APPLIED_FINGERPRINT] !== undefined &&
    olds[FINGERPRINT] !== olds[APPLIED_FINGERPRINT]
  ) {
    fields.add(fp.field);
  }
  return [...fields];
}

/** Outputs after a write: the service's object, the options, and hashes of the secrets sent. */
function outputsOf(
  family: Family<{ id: string }>,
  remote: { id: string },
  args: Plain,
  options: Plain,
  previous?: SecretHashes,
): Plain {
  const outputs = observedOutputs(family, remote, options);
  outputs[SECRET_HASHES] = hashSecrets(args, family.secretPaths(args), previous);
  // Our write produced this fingerprint: later reads compare theirs against it.
  if (outputs[FINGERPRINT] !== undefined) outputs[APPLIED_FINGERPRINT] = outputs[FINGERPRINT];
  return outputs;
}

/** The service's object in the outputs' shape (also what a refresh reports). */
function observedOutputs(family: Family<{ id: string }>, remote: { id: string }, options: Plain): Plain {
  const observed = compact(family.project(remote as never));
  return compact({
    ...observed,
    ...family.computed(remote as never),
    ...options,
    [OBSERVED]: observed,
    [FINGERPRINT]: family.fingerprint?.of(remote as never),
  });
}

/** Builds the dynamic provider for a family. Runs inside the provider process. */
export function providerFor<Remote extends { id: string }>(family: Family<Remote>): dynamic.ResourceProvider {
  const fam = family as unknown as Family<{ id: string }>;

  const settle = async (
    client: SecretOpsClient,
    remote: Remote,
    args: Plain,
    options: Plain,
    previous?: SecretHashes,
  ) => {
    if (!family.settle) return remote;
    try {
      return await family.settle(client, remote, options);
    } catch (e) {
      if (e instanceof SettleFailure) {
        throw partialFailure(e.message, remote.id, outputsOf(fam, e.remote as Remote, args, options, previous));
      }
      throw e;
    }
  };

  return {
    async check(olds: Plain, news: Plain): Promise<dynamic.CheckResult> {
      const optionsResult = family.options.safeParse(split(fam, news).options);
      const { args } = split(fam, news);
      const failures: dynamic.CheckFailure[] = [...(family.transitionFailures?.(olds ?? {}, news) ?? [])];
      if (!optionsResult.success) {
        for (const i of optionsResult.error.issues) failures.push({ property: i.path.join("."), reason: i.message });
      }
      if (family.kindField && unknownAt(args, [family.kindField])) {
        // The kind is not known yet during preview: nothing more to check until it is.
        return { inputs: news, failures };
      }
      const schema = family.schema(args);
      if (typeof schema === "string") {
        failures.push({ property: family.kindField ?? "", reason: schema });
        return { inputs: news, failures };
      }
      const parsed = schema.safeParse(args);
      if (parsed.success) {
        if (failures.length) return { inputs: news, failures };
        const inputs: Plain = { ...(parsed.data as Plain), ...optionsResult.data };
        if (family.kindField) inputs[family.kindField] = args[family.kindField];
        return { inputs };
      }
      for (const issue of parsed.error.issues) {
        // Values unknown during preview are validated once they are known.
        if (unknownAt(args, issue.path)) continue;
        failures.push({ property: issue.path.map(String).join("."), reason: issue.message });
      }
      return { inputs: news, failures };
    },

    async diff(_id: string, olds: Plain, news: Plain): Promise<dynamic.DiffResult> {
      const { args, options } = split(fam, news);
      const observed = observedOf(olds);
      // Only declared identity args count: an arg the program leaves out is not a wish to change it.
      const replaces = family.replaceOnChange.filter(
        (k) => args[k] !== undefined && (containsUnknown(args[k]) || !sameValue(args[k], observed[k])),
      );
      // An option older state lacks counts as its default, so a release adding an option does not
      // make every existing resource show a change.
      const previousOption = (k: string) =>
        olds[k] !== undefined ? olds[k] : (family.options.shape[k] as z.ZodType).safeParse(undefined).data;
      const changedOptions = Object.keys(options).filter((k) => !sameValue(options[k], previousOption(k)));
      const changes =
        changedFields(fam, args, olds).length > 0 || changedOptions.length > 0 || family.resume?.needed(olds) === true;
      return {
        changes: changes || replaces.length > 0,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && family.deleteBeforeReplace,
      };
    },

    async create(inputs: Plain): Promise<dynamic.CreateResult> {
      const client = apiClient();
      const { args, options } = split(fam, inputs);
      let remote: Remote | undefined;
      if (options.adoptExisting || family.manageExisting) {
        remote = await family.findExisting(client, args);
        if (!remote && family.manageExisting) throw new Error(family.manageExisting.notFound(args));
        if (remote) {
          const patch = patchFor(fam, args, { [OBSERVED]: family.project(remote) });
          if (Object.keys(patch).length) remote = await family.update(client, remote.id, patch, args, options);
        }
      }
      if (!remote) {
        if (!family.create) throw new Error(`${family.name} cannot be created`);
        try {
          remote = await family.create(client, args, options);
        } catch (e) {
          // The request may have reached the service: look before anything is retried.
          if (!isAmbiguous(e)) throw e;
          remote = await family.findExisting(client, args);
          if (!remote) throw e;
        }
      }
      remote = await settle(client, remote, args, options);
      return { id: remote.id, outs: outputsOf(fam, remote, args, options) };
    },

    async read(id: string, outs: Plain): Promise<dynamic.ReadResult> {
      const remote = await family.read(apiClient(), id, outs);
      if (!remote) return { id: "", props: {} };
      const options = Object.fromEntries(Object.keys(family.options.shape).map((k) => [k, outs[k]]));
      // Secret hashes and the applied fingerprint record our last write: a refresh keeps them.
      const props: Plain = compact({
        ...observedOutputs(fam, remote, options),
        [SECRET_HASHES]: outs[SECRET_HASHES],
        [APPLIED_FINGERPRINT]: outs[APPLIED_FINGERPRINT],
      });
      // Inputs follow the service, so the next preview shows drift against the program.
      return { id, props, inputs: compact({ ...family.project(remote), ...options }) };
    },

    async update(id: string, olds: Plain, news: Plain): Promise<dynamic.UpdateResult> {
      const client = apiClient();
      const { args, options } = split(fam, news);
      const patch = patchFor(fam, args, olds);
      const previous = olds[SECRET_HASHES] as SecretHashes | undefined;
      let remote: Remote;
      if (Object.keys(patch).length) {
        remote = await family.update(client, id, patch, olds, options);
      } else if (family.resume?.needed(olds)) {
        remote = await family.resume.run(client, id, olds);
      } else {
        // Only provider options changed: nothing to send.
        return { outs: { ...olds, ...options } };
      }
      remote = await settle(client, remote, args, options, previous);
      return { outs: outputsOf(fam, remote, args, options, previous) };
    },

    async delete(id: string, outs: Plain): Promise<void> {
      try {
        await family.delete(apiClient(), id, outs);
      } catch (e) {
        if (!isNotFound(e)) throw e; // already gone is what delete wants
      }
    },
  };
}

/** The PATCH body: every changed field, whole (a field cleared by the program gets its cleared value). */
function patchFor(family: Family<{ id: string }>, args: Plain, olds: Plain): Plain {
  const patch: Plain = {};
  for (const field of changedFields(family, args, olds)) {
    if (family.replaceOnChange.includes(field)) continue;
    if (family.kindField === field) continue;
    patch[field] = args[field] !== undefined ? args[field] : family.clearable?.[field];
  }
  return patch;
}
