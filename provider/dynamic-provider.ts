import type * as dynamic from "@pulumi/pulumi/dynamic";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { isAlreadyExists, isAmbiguous } from "../sdk/errors";
import { backoffDelayMs, defaultRetryOptions } from "../sdk/retry";
import { issuesFromZod } from "../sdk/schemas";
import { apiClient, configurationProblem, endpointProblem } from "./config";
import { RESOURCE_NAME_KEY, type ResourceDefinition, SettleFailure, replaceFields } from "./definition";
import { isNotFound } from "./not-found";
import { ProgramKeys } from "./program-keys";
import { sharedReads } from "./shared-reads";
import {
  type ProviderState,
  CHANGED_OUTSIDE,
  SECRET_REVISIONS_KEY,
  type SecretRevisions,
  changedOutside,
  decodeState,
  encodeState,
  fingerprintDrifted,
  secretRevisionsIn,
} from "./state";
import {
  type Plain,
  type SecretHashes,
  changedSecrets,
  compact,
  containsUnknown,
  getPath,
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
  /** The PATCH body: every changed patchable arg, whole (a dropped arg whose absence means a value gets that value). */
  patch: Plain;
  /** A provider option changed (nothing to send). */
  optionsChanged: boolean;
  /** Work the last step left unfinished is to be run again. */
  resume: boolean;
}

type Definition = ResourceDefinition<{ id: string }>;

/**
 * Options whose change later is no change: `adoptExisting` acts only on create (a program removes
 * it once the object is adopted); `untypedDestination` only widens what `check` accepts (a
 * program moving a sync between `GenericSecretSync` and `SecretSync` changes nothing at the service).
 */
const CREATE_ONLY_OPTIONS = ["adoptExisting", "untypedDestination"];

/** The object's `updatedAt` as a write (or a find) returned it: see `ProviderState.changedAt`. */
const changedAtOf = (remote: { id: string }): string | undefined => {
  const at = "updatedAt" in remote ? remote.updatedAt : undefined;
  return typeof at === "string" ? at : undefined;
};

/** The named endpoint a resource's options (or last outputs) point at; undefined for the stack's. */
const endpointOf = (options: Plain): string | undefined =>
  typeof options.endpoint === "string" ? options.endpoint : undefined;

/** Creates sent for one resource before a failure whose outcome stays unknown is reported. */
const CREATE_ATTEMPTS = 5;

/** Splits inputs into the API's args and the provider's options. */
function split(def: Definition, inputs: Plain): { args: Plain; options: Plain } {
  const optionKeys = Object.keys(def.options.shape);
  const args: Plain = {};
  const options: Plain = {};
  for (const [k, v] of Object.entries(inputs)) {
    if (k === "__provider" || k === RESOURCE_NAME_KEY || k === SECRET_REVISIONS_KEY) continue;
    (optionKeys.includes(k) ? options : args)[k] = v;
  }
  return { args, options };
}

const secretPathsOf = (def: Definition, args: Plain) => def.secretPaths?.of(args) ?? [];

/** The replace set for these args; with the kind not known yet, the kind itself. */
function replaceable(def: Definition, args: Plain, options: Plain): string[] {
  const schemas = def.schemas(args, options);
  if (typeof schemas !== "string") return replaceFields(def, schemas);
  return def.kindField ? [def.kindField] : [];
}

/** What it takes to go from the state `olds` to the program's `args` and `options`. */
export function plan(def: Definition, args: Plain, options: Plain, olds: Plain): Plan {
  const state = decodeState(olds, Object.keys(def.reported));
  const secretPaths = secretPathsOf(def, args);
  const plainArgs = withoutPaths(args, secretPaths);
  const differs = (value: unknown, k: string) => containsUnknown(value) || !sameValue(value, state.observed[k]);

  const absentMeans = def.absentMeans ?? {};
  /** The value the program asks for: the declared one, or what leaving the arg out means. */
  const wanted = (from: Plain, k: string) => (from[k] !== undefined ? from[k] : absentMeans[k]);
  /** Declared, or its absence means something: an arg left out otherwise is not a wish to change it. */
  const counts = (k: string) => args[k] !== undefined || k in absentMeans;

  const changed = new Set<string>();
  for (const k of new Set([...Object.keys(plainArgs), ...Object.keys(absentMeans)])) {
    if (differs(wanted(plainArgs, k), k)) changed.add(k);
  }
  for (const p of changedSecrets(args, secretPaths, state.secretHashes)) changed.add(p.split(".")[0]!);
  const fingerprint = def.fingerprint;
  if (fingerprint && args[fingerprint.field] !== undefined && fingerprintDrifted(state)) changed.add(fingerprint.field);

  const replaceSet = replaceable(def, args, options);
  const replaces = replaceSet.filter((k) => counts(k) && differs(wanted(args, k), k));
  const patch: Plain = {};
  for (const field of changed) if (!replaceSet.includes(field)) patch[field] = wanted(args, field);
  // An option older state lacks counts as its default, so a release adding an option does not
  // make every existing resource show a change.
  const previousOption = (k: string) =>
    olds[k] !== undefined ? olds[k] : def.options.shape[k]?.safeParse(undefined).data;
  // The object lives at one endpoint: another one is another object.
  if (!sameValue(endpointOf(options), endpointOf(olds))) replaces.push("endpoint");
  const optionsChanged = Object.keys(options).some(
    (k) => !CREATE_ONLY_OPTIONS.includes(k) && k !== "endpoint" && !sameValue(options[k], previousOption(k)),
  );
  const resume = def.jobs?.resume.needed(olds) === true;
  return { changed: [...changed], replaces, patch, optionsChanged, resume };
}

/**
 * The revisions of the program's secret values against the last inputs (`olds`): raised where the
 * value differs from the one there; kept where the last inputs hold none to compare with (after a
 * refresh, which never sees secrets), unless the refresh saw the value change outside the program.
 */
function secretRevisions(paths: readonly string[], args: Plain, olds: Plain): SecretRevisions | undefined {
  const before = secretRevisionsIn(olds) ?? {};
  const revisions: SecretRevisions = {};
  for (const p of paths) {
    const value = getPath(args, p);
    if (value === undefined || value === null) continue;
    const old = getPath(olds, p);
    const revision = before[p];
    if (revision === undefined || revision === CHANGED_OUTSIDE) revisions[p] = 1;
    else
      revisions[p] = old !== undefined && (containsUnknown(value) || !sameValue(old, value)) ? revision + 1 : revision;
  }
  return Object.keys(revisions).length ? revisions : undefined;
}

/** Check failures from zod issues, leaving out values still unknown during preview. */
function failuresOf(issues: readonly z.core.$ZodIssue[], args: Plain): dynamic.CheckFailure[] {
  const known = issues.filter((i) => !unknownAt(args, i.path));
  return issuesFromZod(known).map((i) => ({ property: i.path, reason: i.message }));
}

/** Builds the dynamic provider of a resource definition. */
export function dynamicProvider<Remote extends { id: string }>(
  definition: ResourceDefinition<Remote>,
): dynamic.ResourceProvider {
  // The core reads a definition through its generic shape (`Plain` args, any `Remote`).
  const def = definition as unknown as Definition;

  const exclusiveKey = (args: Plain, options: Plain) => def.exclusive?.key(args, options);
  const keys = def.exclusive && new ProgramKeys(def.exclusive);
  const exclusively = <T>(key: string | undefined, work: () => Promise<T>) =>
    keys ? keys.exclusively(key, work) : work();
  /** Replacements the engine asked for in this process (diff), by id: their delete comes next. */
  const replacing = new Map<string, Plain>();

  /** The family's shared reads at a client's endpoint, when the service lists the family by project. */
  const shared = (client: SecretOpsClient) => def.listed && sharedReads(client, def.type, def.listed.list);
  const projectOf = (values: Plain) => def.listed?.projectOf(values);
  /** After a write (whatever its outcome): what was listed of the project may be stale. */
  const wrote = (client: SecretOpsClient, values: Plain) => {
    const projectId = projectOf(values);
    if (projectId !== undefined) shared(client)?.invalidate(projectId);
  };
  /**
   * The object as its project's list, shared with the reads near in time, has it; otherwise (not
   * listed, or no list) its own read, which tells gone from hidden.
   */
  const readObject = async (client: SecretOpsClient, id: string, outs: Plain) => {
    const projectId = projectOf(outs);
    const listed = projectId === undefined ? undefined : await shared(client)?.find(projectId, id);
    return listed ?? def.read(client, id, outs);
  };

  const read = (remote: { id: string }, fields: Readonly<Record<string, (r: never) => unknown>>): Plain =>
    // Each field reads the definition's own `Remote`, which `remote` is (the SDK parsed it).
    compact(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f(remote as never)])));
  const argsOf = (remote: { id: string }) => read(remote, def.reported);

  /** The service's object in the outputs' shape (also what a refresh reports). */
  const observedOutputs = (remote: { id: string }, options: Plain, extra: Partial<ProviderState> = {}): Plain => {
    const state = { fingerprint: def.fingerprint?.of(remote), ...extra };
    return compact({ ...argsOf(remote), ...read(remote, def.computed), ...options, ...encodeState(state) });
  };

  /** What a write records of the program's inputs: the args it declared, the secrets' revisions. */
  const declaredBy = (inputs: Plain): Partial<ProviderState> => {
    const { args } = split(def, inputs);
    return {
      declared: Object.keys(args).filter((k) => args[k] !== undefined && k in def.reported),
      secretRevisions: secretRevisionsIn(inputs),
    };
  };

  /** Outputs after a write: the service's object, the options, and hashes of the secrets sent. */
  const outputsAfterWrite = (
    remote: { id: string },
    inputs: Plain,
    options: Plain,
    changedAt: string | undefined,
    previous?: SecretHashes,
  ): Plain => {
    const { args } = split(def, inputs);
    const outputs = observedOutputs(remote, options, {
      secretHashes: hashSecrets(args, secretPathsOf(def, args), previous),
      ...declaredBy(inputs),
      changedAt,
    });
    // Our write produced this fingerprint: later reads compare theirs against it.
    if (outputs.fingerprint !== undefined) outputs.appliedFingerprint = outputs.fingerprint;
    return outputs;
  };

  const settle = async (
    client: SecretOpsClient,
    remote: { id: string },
    inputs: Plain,
    options: Plain,
    { previous, made = false }: { previous?: SecretHashes; made?: boolean } = {},
  ) => {
    if (!def.jobs) return remote;
    try {
      return await def.jobs.settle(client, remote, options, made);
    } catch (e) {
      if (!(e instanceof SettleFailure)) throw e;
      // The shape the dynamic-provider host turns into a partial failure: the resource stays in state.
      // A definition's `settle` fails with its own `Remote`.
      const properties = outputsAfterWrite(e.remote as { id: string }, inputs, options, changedAtOf(remote), previous);
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
        ? String(cause instanceof Error ? cause.message : cause).replace(/\.$/, "")
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

  /** A create step: adoption or the create, then the work the service does after it. */
  const createStep = async (
    client: SecretOpsClient,
    inputs: Plain,
    args: Plain,
    options: Plain,
  ): Promise<dynamic.CreateResult> => {
    let remote: { id: string } | undefined;
    let made = false;
    if (options.adoptExisting || def.manageExisting) {
      remote = await def.find(client, args);
      if (!remote && def.manageExisting) throw new Error(def.manageExisting.notFound(args));
      if (remote) {
        // Adoption: the found object is the last known state; apply what the program changes. A
        // secret the service never shows cannot be compared, so it is taken as the one the service
        // holds and not written (an adoption that writes nothing stays nothing: `secretops import`);
        // an arg sent for its other fields carries its secrets too. A later change of the value is
        // written as usual. The settings of an object made elsewhere (`manageExisting`) are what
        // the program sets, so their secrets are written on create.
        const compared = def.manageExisting ? args : withoutPaths(args, secretPathsOf(def, args));
        const { patch } = plan(def, compared, options, argsOf(remote));
        for (const k of Object.keys(patch)) if (args[k] !== undefined) patch[k] = args[k];
        if (Object.keys(patch).length) remote = await def.update(client, remote.id, patch, args, options);
      }
    }
    if (!remote) {
      remote = await exclusively(exclusiveKey(args, options), () => createOnce(client, args, options));
      made = true;
    }
    const changedAt = changedAtOf(remote);
    remote = await settle(client, remote, inputs, options, { made });
    return { id: remote.id, outs: outputsAfterWrite(remote, inputs, options, changedAt) };
  };

  /** An update step: the PATCH (or the unfinished work resumed), then the work the service does after it. */
  const updateStep = async (
    client: SecretOpsClient,
    id: string,
    olds: Plain,
    news: Plain,
  ): Promise<dynamic.UpdateResult> => {
    const { args, options } = split(def, news);
    const p = plan(def, args, options, olds);
    const previous = decodeState(olds, Object.keys(def.reported)).secretHashes;
    let remote: { id: string };
    const key = exclusiveKey(args, options);
    // The key the resource held, by its own last options (an opt-out switched on leaves it too).
    const previousKey = exclusiveKey(olds, olds);
    const patch = p.patch;
    try {
      if (Object.keys(patch).length) {
        const write = () => def.update(client, id, patch, olds, options);
        try {
          remote = await (key !== previousKey ? exclusively(key, write) : write());
        } finally {
          wrote(client, olds);
        }
      } else if (p.resume) {
        try {
          remote = await def.jobs!.resume.run(client, id, olds);
        } finally {
          wrote(client, olds);
        }
      }
      // Only provider options changed: nothing to send.
      else
        return {
          outs: compact({ ...olds, ...options, ...encodeState({ ...decodeState(olds, []), ...declaredBy(news) }) }),
        };
    } finally {
      // Whatever the step did, a resource of the program waiting for this one to leave its key goes on.
      keys?.left(previousKey, key);
    }
    const changedAt = changedAtOf(remote);
    remote = await settle(client, remote, news, options, { previous });
    return { outs: outputsAfterWrite(remote, news, options, changedAt, previous) };
  };

  /** The program's args and options against the schemas and the service's rules. */
  const checkArgs = (olds: Plain, news: Plain): dynamic.CheckResult => {
    const { args, options } = split(def, news);
    const failures: dynamic.CheckFailure[] = [...(def.transitionFailures?.(olds ?? {}, news) ?? [])];
    const problem = configurationProblem();
    if (problem) failures.push({ property: "", reason: problem });
    const parsedOptions = def.options.safeParse(options);
    if (!parsedOptions.success) failures.push(...failuresOf(parsedOptions.error.issues, args));
    const endpoint = parsedOptions.success ? endpointOf(parsedOptions.data) : undefined;
    const endpointIssue = endpoint === undefined ? undefined : endpointProblem(endpoint);
    if (endpointIssue) failures.push({ property: "endpoint", reason: endpointIssue });
    // The kind is not known yet during preview: nothing more to check until it is.
    if (def.kindField && unknownAt(args, [def.kindField])) return { inputs: news, failures };
    const schemas = def.schemas(args, parsedOptions.data ?? {});
    if (typeof schemas === "string") {
      failures.push({ property: def.kindField ?? "", reason: schemas });
      return { inputs: news, failures };
    }
    // The kind field selects the schema (and the route); the body the schema describes is the rest.
    const { [def.kindField ?? ""]: _kind, ...body } = args;
    const parsed = schemas.args.safeParse(def.kindField ? body : args);
    if (!parsed.success) return { inputs: news, failures: [...failures, ...failuresOf(parsed.error.issues, args)] };
    // A kind's rules take its own body's type; this is that body, as its schema parsed it.
    for (const issue of schemas.rules?.(parsed.data as never) ?? []) {
      if (!unknownAt(args, issue.path.split("."))) failures.push({ property: issue.path, reason: issue.message });
    }
    if (failures.length || !parsedOptions.success) return { inputs: news, failures };
    const inputs: Plain = { ...parsed.data, ...parsedOptions.data };
    if (def.kindField) inputs[def.kindField] = args[def.kindField];
    const revisions = secretRevisions(secretPathsOf(def, args), args, olds ?? {});
    if (revisions) inputs[SECRET_REVISIONS_KEY] = revisions;
    if (keys) {
      const name = typeof news[RESOURCE_NAME_KEY] === "string" ? news[RESOURCE_NAME_KEY] : String(args.name);
      const previous = split(def, olds ?? {});
      const previousKey = exclusiveKey(previous.args, previous.options);
      const conflict = keys.hold(name, args, exclusiveKey(args, parsedOptions.data), previousKey);
      if (conflict) return { inputs: news, failures: [conflict] };
    }
    return { inputs };
  };

  return {
    async check(olds: Plain, news: Plain): Promise<dynamic.CheckResult> {
      return checkArgs(olds, news);
    },

    async diff(id: string, olds: Plain, news: Plain): Promise<dynamic.DiffResult> {
      const { args, options } = split(def, news);
      const p = plan(def, args, options, olds);
      if (p.replaces.length > 0) replacing.set(id, args);
      return {
        changes: p.changed.length > 0 || p.optionsChanged || p.resume || p.replaces.length > 0,
        replaces: p.replaces,
        deleteBeforeReplace: p.replaces.length > 0 && def.deleteBeforeReplace,
      };
    },

    async create(inputs: Plain): Promise<dynamic.CreateResult> {
      const { args, options } = split(def, inputs);
      const client = apiClient(endpointOf(options));
      try {
        return await createStep(client, inputs, args, options);
      } finally {
        wrote(client, args);
      }
    },

    async read(id: string, outs: Plain): Promise<dynamic.ReadResult> {
      const remote = await readObject(apiClient(endpointOf(outs)), id, outs);
      if (!remote) return { id: "", props: {} };
      const options = Object.fromEntries(Object.keys(def.options.shape).map((k) => [k, outs[k]]));
      // What records our last write (secret hashes and revisions, the applied fingerprint, the
      // declared args): a refresh keeps it.
      const { observed: _observed, fingerprint: _read, ...written } = decodeState(outs, Object.keys(def.reported));
      // A secret changed out of band (the fingerprint moved): the revisions say which.
      const fingerprint = def.fingerprint;
      if (fingerprint && fingerprintDrifted({ ...written, observed: {}, fingerprint: fingerprint.of(remote) })) {
        written.secretRevisions = changedOutside(written.secretRevisions, fingerprint.field);
      }
      const props = observedOutputs(remote, options, written);
      // Inputs follow the service, so the next preview shows drift against the program; only in
      // the args the program declared (state from older releases: all of them).
      const observed = argsOf(remote);
      const declared = written.declared ?? Object.keys(observed);
      const inputs = Object.fromEntries(declared.map((k) => [k, observed[k]]));
      return { id, props, inputs: compact({ ...inputs, ...options, [SECRET_REVISIONS_KEY]: written.secretRevisions }) };
    },

    async update(id: string, olds: Plain, news: Plain): Promise<dynamic.UpdateResult> {
      // An endpoint change replaces the resource, so the old and new endpoints are the same here.
      const client = apiClient(endpointOf(split(def, news).options));
      return updateStep(client, id, olds, news);
    },

    async delete(id: string, outs: Plain): Promise<void> {
      const successor = replacing.get(id);
      replacing.delete(id);
      const client = apiClient(endpointOf(outs));
      try {
        await def.delete(client, id, outs, successor);
      } catch (e) {
        if (!isNotFound(e)) throw e; // already gone is what delete wants
      } finally {
        wrote(client, outs);
      }
    },
  };
}
