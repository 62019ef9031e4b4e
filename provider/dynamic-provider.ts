import type * as dynamic from "@pulumi/pulumi/dynamic";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { isAlreadyExists, isAmbiguous } from "../sdk/errors";
import { backoffDelayMs, defaultRetryOptions } from "../sdk/retry";
import { formatIssue, issuesFromZod } from "../sdk/schemas";
import { apiClient } from "./config";
import { type ResourceDefinition, SettleFailure, replaceFields, secretArgs } from "./definition";
import { isNotFound } from "./not-found";
import { type ProviderState, decodeState, encodeState, fingerprintDrifted } from "./state";
import {
  type Plain,
  type SecretHashes,
  changedSecrets,
  compact,
  containsUnknown,
  hashSecrets,
  sameValue,
  unknownAt,
  withoutPaths,
} from "./values";

/**
 * Runs in the provider process: turns a resource definition into the dynamic provider the engine
 * calls. Data flows one way:
 *
 *   program args ─► check (schemas, rules) ─► plan (diff) ─► SDK call ─► response ─► outputs
 */

/** What a change from the last known state to the program's args takes; diff, update and adoption share it. */
export interface Plan {
  /** Args whose desired value differs from what the service last reported (secrets by their hash). */
  changed: string[];
  /** Changed args the PATCH body does not take: the resource is replaced. */
  replaces: string[];
  /** The PATCH body: every changed patchable arg, whole (a dropped clearable arg gets its cleared value). */
  patch: Plain;
  /** A provider option changed (nothing to send). */
  optionsChanged: boolean;
  /** Work the last step left unfinished is to be run again. */
  resume: boolean;
}

type Definition = ResourceDefinition<{ id: string }>;

/** Creates sent for one resource before a failure whose outcome stays unknown is reported. */
const CREATE_ATTEMPTS = 5;

/** Splits inputs into the API's args and the provider's options. */
function split(def: Definition, inputs: Plain): { args: Plain; options: Plain } {
  const optionKeys = Object.keys(def.options.shape);
  const args: Plain = {};
  const options: Plain = {};
  for (const [k, v] of Object.entries(inputs)) {
    if (k === "__provider") continue;
    (optionKeys.includes(k) ? options : args)[k] = v;
  }
  return { args, options };
}

const secretPathsOf = (def: Definition, args: Plain) => def.secretPaths?.of(args) ?? [];

/** The replace set for these args; with the kind not known yet, the kind itself. */
function replaceable(def: Definition, args: Plain): string[] {
  const schemas = def.schemas(args);
  if (typeof schemas !== "string") return replaceFields(def, schemas);
  return def.kindField ? [def.kindField] : [];
}

/** What it takes to go from the state `olds` to the program's `args` and `options`. */
export function plan(def: Definition, args: Plain, options: Plain, olds: Plain): Plan {
  const state = decodeState(olds, Object.keys(def.args));
  const secretPaths = secretPathsOf(def, args);
  const plainArgs = withoutPaths(args, secretPaths);
  const differs = (value: unknown, k: string) => containsUnknown(value) || !sameValue(value, state.observed[k]);

  const changed = new Set<string>();
  for (const k of new Set([...Object.keys(plainArgs), ...Object.keys(def.clearable ?? {})])) {
    if (differs(plainArgs[k], k)) changed.add(k);
  }
  for (const p of changedSecrets(args, secretPaths, state.secretHashes)) changed.add(p.split(".")[0]!);
  const fingerprint = def.manageExisting?.fingerprint;
  if (fingerprint && args[fingerprint.field] !== undefined && fingerprintDrifted(state)) changed.add(fingerprint.field);

  const replaceSet = replaceable(def, args);
  // Only declared args count: an arg the program leaves out is not a wish to change it.
  const replaces = replaceSet.filter((k) => args[k] !== undefined && differs(args[k], k));
  const patch: Plain = {};
  for (const field of changed) {
    if (replaceSet.includes(field)) continue;
    patch[field] = args[field] !== undefined ? args[field] : def.clearable?.[field];
  }
  // An option older state lacks counts as its default, so a release adding an option does not
  // make every existing resource show a change.
  const previousOption = (k: string) =>
    olds[k] !== undefined ? olds[k] : (def.options.shape[k] as z.ZodType).safeParse(undefined).data;
  const optionsChanged = Object.keys(options).some((k) => !sameValue(options[k], previousOption(k)));
  const resume = def.jobs?.resume.needed(olds) === true;
  return { changed: [...changed], replaces, patch, optionsChanged, resume };
}

/** Check failures from zod issues, leaving out values still unknown during preview. */
function failuresOf(issues: readonly z.core.$ZodIssue[], args: Plain): dynamic.CheckFailure[] {
  const known = issues.filter((i) => !unknownAt(args, i.path));
  return issuesFromZod(known).map((i) => ({ property: i.path, reason: i.message }));
}

/**
 * The engine prints a failure as `property <p> value {<inputs[p]>} has a problem: <reason>`,
 * looking `p` up among the top-level inputs only, and it prints a secret's plaintext there. A
 * failure on a top-level arg that holds a secret (`estConfig`, `credentials`) is therefore
 * reported on the resource, in the same `path: rule` words, so the value is never shown. Nested
 * paths (`credentials.port`) are not top-level keys and print as `<nil>`.
 */
function withoutEchoedSecrets(def: Definition, failures: dynamic.CheckFailure[]): dynamic.CheckFailure[] {
  const secret = secretArgs(def);
  return failures.map((f) =>
    secret.includes(f.property) ? { property: "", reason: formatIssue({ path: f.property, message: f.reason }) } : f,
  );
}

/** Builds the dynamic provider of a resource definition. */
export function dynamicProvider<Remote extends { id: string }>(
  definition: ResourceDefinition<Remote>,
): dynamic.ResourceProvider {
  const def = definition as unknown as Definition;

  const read = (remote: { id: string }, fields: Readonly<Record<string, (r: never) => unknown>>): Plain =>
    compact(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f(remote as never)])));
  const argsOf = (remote: { id: string }) => read(remote, def.args);

  /** The service's object in the outputs' shape (also what a refresh reports). */
  const observedOutputs = (remote: { id: string }, options: Plain, extra: Partial<ProviderState> = {}): Plain => {
    const state = { fingerprint: def.manageExisting?.fingerprint?.of(remote), ...extra };
    return compact({ ...argsOf(remote), ...read(remote, def.computed), ...options, ...encodeState(state) });
  };

  /** Outputs after a write: the service's object, the options, and hashes of the secrets sent. */
  const outputsAfterWrite = (remote: { id: string }, args: Plain, options: Plain, previous?: SecretHashes): Plain => {
    const outputs = observedOutputs(remote, options, {
      secretHashes: hashSecrets(args, secretPathsOf(def, args), previous),
    });
    // Our write produced this fingerprint: later reads compare theirs against it.
    if (outputs.fingerprint !== undefined) outputs.appliedFingerprint = outputs.fingerprint;
    return outputs;
  };

  const settle = async (
    client: SecretOpsClient,
    remote: { id: string },
    args: Plain,
    options: Plain,
    previous?: SecretHashes,
  ) => {
    if (!def.jobs) return remote;
    try {
      return await def.jobs.settle(client, remote, options);
    } catch (e) {
      if (!(e instanceof SettleFailure)) throw e;
      // The shape the dynamic-provider host turns into a partial failure: the resource stays in state.
      const properties = outputsAfterWrite(e.remote as { id: string }, args, options, previous);
      throw Object.assign(new Error(e.message), { id: remote.id, properties, reasons: [e.message] });
    }
  };

  /**
   * Creates the object exactly once, whatever the service or the network does. Names and slugs are
   * unique, so an outcome left unknown (a 5xx, a reset or a timeout after the request was sent) is
   * settled by reading by name: found, it is the one we made; not found, nothing landed and the
   * create is sent again. A name already taken is one our earlier run made when its id never
   * reached the state (a killed `pulumi up`): it is ours when it matches what the program
   * declares; otherwise it is someone else's, and the create fails saying so.
   */
  const createOnce = async (client: SecretOpsClient, args: Plain, options: Plain): Promise<{ id: string }> => {
    if (!def.create) throw new Error(`${def.type} cannot be created`);
    for (let attempt = 1; ; attempt++) {
      try {
        return await def.create(client, args, options);
      } catch (e) {
        if (!isAmbiguous(e) && !isAlreadyExists(e)) throw e;
        const found = await def.find(client, args);
        if (found) return await claim(client, found, args, options, e);
        if (attempt >= CREATE_ATTEMPTS) throw e;
        await sleep(backoffDelayMs(attempt, defaultRetryOptions));
      }
    }
  };

  /** Takes a found object as the one this create made, if it is: see `createOnce`. */
  const claim = async (client: SecretOpsClient, found: { id: string }, args: Plain, options: Plain, cause: unknown) => {
    const secretPaths = secretPathsOf(def, args);
    const declared = withoutPaths(args, secretPaths);
    const observed = argsOf(found);
    const differing = Object.keys(declared).filter((k) => !sameValue(declared[k], observed[k]));
    if (differing.length) {
      const key = args.slug !== undefined ? "slug" : "name";
      const taken = isAlreadyExists(cause)
        ? (cause as Error).message.replace(/\.$/, "")
        : `a ${def.type} with the ${key} "${String(args[key])}" already exists`;
      throw new Error(
        `${key}: ${taken}, and it differs from the program in ${differing.join(", ")}, so this stack did not ` +
          `make it; set adoptExisting: true to manage it, or choose another ${key}`,
      );
    }
    // Secrets never come back, so they cannot be compared: written again, they are the program's.
    const resend = [...new Set(secretPaths.map((p) => p.split(".")[0]!))].filter((k) => args[k] !== undefined);
    if (!resend.length) return found;
    return def.update(client, found.id, Object.fromEntries(resend.map((k) => [k, args[k]])), args, options);
  };

  /** The program's args and options against the schemas and the service's rules. */
  const checkArgs = (olds: Plain, news: Plain): dynamic.CheckResult => {
    const { args, options } = split(def, news);
    const failures: dynamic.CheckFailure[] = [...(def.manageExisting?.transitionFailures?.(olds ?? {}, news) ?? [])];
    const parsedOptions = def.options.safeParse(options);
    if (!parsedOptions.success) failures.push(...failuresOf(parsedOptions.error.issues, args));
    // The kind is not known yet during preview: nothing more to check until it is.
    if (def.kindField && unknownAt(args, [def.kindField])) return { inputs: news, failures };
    const schemas = def.schemas(args);
    if (typeof schemas === "string") {
      failures.push({ property: def.kindField ?? "", reason: schemas });
      return { inputs: news, failures };
    }
    const parsed = schemas.args.safeParse(args);
    if (!parsed.success) return { inputs: news, failures: [...failures, ...failuresOf(parsed.error.issues, args)] };
    for (const issue of schemas.rules?.(parsed.data as never) ?? []) {
      if (!unknownAt(args, issue.path.split("."))) failures.push({ property: issue.path, reason: issue.message });
    }
    if (failures.length || !parsedOptions.success) return { inputs: news, failures };
    const inputs: Plain = { ...(parsed.data as Plain), ...parsedOptions.data };
    if (def.kindField) inputs[def.kindField] = args[def.kindField];
    return { inputs };
  };

  return {
    async check(olds: Plain, news: Plain): Promise<dynamic.CheckResult> {
      const result = checkArgs(olds, news);
      return result.failures ? { ...result, failures: withoutEchoedSecrets(def, result.failures) } : result;
    },

    async diff(_id: string, olds: Plain, news: Plain): Promise<dynamic.DiffResult> {
      const { args, options } = split(def, news);
      const p = plan(def, args, options, olds);
      return {
        changes: p.changed.length > 0 || p.optionsChanged || p.resume || p.replaces.length > 0,
        replaces: p.replaces,
        deleteBeforeReplace: p.replaces.length > 0 && def.deleteBeforeReplace,
      };
    },

    async create(inputs: Plain): Promise<dynamic.CreateResult> {
      const client = apiClient();
      const { args, options } = split(def, inputs);
      let remote: { id: string } | undefined;
      if (options.adoptExisting || def.manageExisting) {
        remote = await def.find(client, args);
        if (!remote && def.manageExisting) throw new Error(def.manageExisting.notFound(args));
        if (remote) {
          // Adoption: the found object is the last known state; apply what the program changes.
          const { patch } = plan(def, args, options, argsOf(remote));
          if (Object.keys(patch).length) remote = await def.update(client, remote.id, patch, args, options);
        }
      }
      remote ??= await createOnce(client, args, options);
      remote = await settle(client, remote, args, options);
      return { id: remote.id, outs: outputsAfterWrite(remote, args, options) };
    },

    async read(id: string, outs: Plain): Promise<dynamic.ReadResult> {
      const remote = await def.read(apiClient(), id, outs);
      if (!remote) return { id: "", props: {} };
      const options = Object.fromEntries(Object.keys(def.options.shape).map((k) => [k, outs[k]]));
      // Secret hashes and the applied fingerprint record our last write: a refresh keeps them.
      const { secretHashes, appliedFingerprint } = decodeState(outs, Object.keys(def.args));
      const props = observedOutputs(remote, options, { secretHashes, appliedFingerprint });
      // Inputs follow the service, so the next preview shows drift against the program.
      return { id, props, inputs: compact({ ...argsOf(remote), ...options }) };
    },

    async update(id: string, olds: Plain, news: Plain): Promise<dynamic.UpdateResult> {
      const client = apiClient();
      const { args, options } = split(def, news);
      const p = plan(def, args, options, olds);
      const previous = decodeState(olds, Object.keys(def.args)).secretHashes;
      let remote: { id: string };
      if (Object.keys(p.patch).length) remote = await def.update(client, id, p.patch, olds, options);
      else if (p.resume) remote = await def.jobs!.resume.run(client, id, olds);
      // Only provider options changed: nothing to send.
      else return { outs: { ...olds, ...options } };
      remote = await settle(client, remote, args, options, previous);
      return { outs: outputsAfterWrite(remote, args, options, previous) };
    },

    async delete(id: string, outs: Plain): Promise<void> {
      try {
        await def.delete(apiClient(), id, outs);
      } catch (e) {
        if (!isNotFound(e)) throw e; // already gone is what delete wants
      }
    },
  };
}
