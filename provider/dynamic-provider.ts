import type * as dynamic from "@pulumi/pulumi/dynamic";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { isAlreadyExists, isAmbiguous } from "../sdk/errors";
import { backoffDelayMs, defaultRetryOptions } from "../sdk/retry";
import { issuesFromZod } from "../sdk/schemas/issues";
import { apiClient, configurationProblem, endpointProblem } from "./config";
import { type Field, type ResourceDefinition, SettleFailure, replaceFields } from "./definition";
import { warn } from "./engine-voice";
import { type Holder, HeldObjects } from "./held-objects";
import { isNotFound } from "./not-found";
import { ProgramKeys } from "./program-keys";
import { environmentRenamed, folderChanged, followedPlace } from "./folder-moves";

import {
  type ProviderState,
  CHANGED_OUTSIDE,
  SECRET_REVISIONS_KEY,
  type SecretRevisions,
  type WriteRecord,
  changedOutside,
  decodeState,
  encodeState,
  withoutImpliedState,
  fingerprintDrifted,
  secretRevisionsIn,
} from "./state";
import {
  OUTPUT_ORIGINS_KEY,
  RESOURCE_NAME_KEY,
  type Plain,
  type SecretHashes,
  changedSecrets,
  compact,
  containsUnknown,
  getPath,
  hashOne,
  hashSecrets,
  outputOriginsOf,
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
  /** The args whose change is only where its renamed environment or folder took it (`inTree`): nothing to send. */
  followed?: Plain;
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

/**
 * What a step records of its write: the object's `updatedAt` from the write's answer; an adoption
 * that wrote nothing records that instead (`ProviderState.adoptedAsFound`), and no time.
 */
const writeRecord = (remote: { id: string }, wrote: boolean): WriteRecord =>
  wrote ? { changedAt: changedAtOf(remote) } : { adoptedAsFound: true };

/** The named endpoint a resource's options (or last outputs) point at; undefined for the stack's. */
const endpointOf = (options: Plain): string | undefined =>
  typeof options.endpoint === "string" ? options.endpoint : undefined;

/** Creates sent for one resource before a failure whose outcome stays unknown is reported. */
const CREATE_ATTEMPTS = 5;

/**
 * Splits inputs into the API's args and the provider's options, an option left out taking its
 * default: state holds an option only where it is not its default (`withoutDefaults`).
 */
function split(def: Definition, inputs: Plain): { args: Plain; options: Plain } {
  const defaults = optionDefaults(def);
  const args: Plain = {};
  const options: Plain = { ...defaults };
  for (const [k, v] of Object.entries(inputs)) {
    if (k === "__provider" || k === RESOURCE_NAME_KEY || k === OUTPUT_ORIGINS_KEY || k === SECRET_REVISIONS_KEY)
      continue;
    if (!(k in def.options.shape)) args[k] = v;
    else if (v !== undefined) options[k] = v;
  }
  return { args, options };
}

const defaultsByDefinition = new WeakMap<Definition, Plain>();
/** The options' defaults (those that have one), as their schema gives them. */
function optionDefaults(def: Definition): Plain {
  let defaults = defaultsByDefinition.get(def);
  if (!defaults) {
    const entries = Object.entries(def.options.shape).map(([k, schema]) => [k, schema.safeParse(undefined).data]);
    defaults = compact(Object.fromEntries(entries));
    defaultsByDefinition.set(def, defaults);
  }
  return defaults;
}

/**
 * The options as state holds them: those at their default left out (each resource's state is
 * rewritten at every step of the engine, so bytes repeated in every resource cost time; issue 49).
 */
function withoutDefaults(def: Definition, options: Plain): Plain {
  const defaults = optionDefaults(def);
  return Object.fromEntries(Object.entries(options).filter(([k, v]) => v !== undefined && !sameValue(v, defaults[k])));
}

/**
 * The args but those at the value their absence means (`absentMeans`): the service holds the same
 * either way, and inputs left out cost nothing where the engine rewrites every resource's state
 * at each step. What the program asks of such an arg is still `wanted` in `plan`. One the last
 * inputs (`olds`) hold stays: the engine shows a change by the inputs, and a preview should not
 * show it removed (state from an older release, or a value the program stops declaring).
 */
function withoutAbsentMeaning(def: Definition, args: Plain, olds: Plain = {}): Plain {
  const absentMeans = def.absentMeans ?? {};
  const left = (k: string, v: unknown) => k in absentMeans && sameValue(v, absentMeans[k]) && olds[k] === undefined;
  return Object.fromEntries(Object.entries(args).filter(([k, v]) => !left(k, v)));
}

const secretPathsOf = (def: Definition, args: Plain) => def.secretPaths?.of(args) ?? [];

/** An arg a new object needs that the program left out of an existing one: never written (`requiredOnCreate`). */
const leftAlone = (def: Definition, args: Plain, path: string) =>
  def.requiredOnCreate?.[path] !== undefined && getPath(args, path) === undefined;

/** The failures of a create without the args a new object needs (`requiredOnCreate`). */
const missingOnCreate = (def: Definition, args: Plain): dynamic.CheckFailure[] =>
  Object.entries(def.requiredOnCreate ?? {})
    .filter(([path]) => getPath(args, path) === undefined)
    .map(([property, reason]) => ({ property, reason }));

/** The inputs of a resource the engine has no state of yet: a create (an import's read gives its own). */
const isNew = (olds: Plain | undefined) => !olds || Object.keys(olds).length === 0;

/** The program's name of the resource, where the step was given it (check, and the native plugin's steps). */
const programName = (values: Plain): string | undefined =>
  typeof values[RESOURCE_NAME_KEY] === "string" ? values[RESOURCE_NAME_KEY] : undefined;

/** What identifies a resource's checked inputs across its steps: its args and options. */
function identity(def: Definition, inputs: Plain): Plain {
  const { args, options } = split(def, inputs);
  return { ...args, ...options };
}

/** The resource of the program these inputs are, as held objects record it. */
const holderOf = (ctx: ProviderContext, inputs: Plain): Holder => ({
  name: programName(inputs) ?? ctx.held.nameOf(identity(ctx.def, inputs)),
});

/** The replace set for these args; with the kind not known yet, the kind itself. */
function replaceable(def: Definition, args: Plain, options: Plain): string[] {
  const schemas = def.schemas(args, options);
  if (typeof schemas !== "string") return replaceFields(def, schemas);
  return def.kindField ? [def.kindField] : [];
}

/** What it takes to go from the state `olds` to the program's `args` and `options`. */
export function plan(def: Definition, args: Plain, options: Plain, olds: Plain): Plan {
  const state = decodeState(olds, Object.keys(def.reported));
  const observed = { ...state.observed, ...def.unrecorded?.(olds) };
  const secretPaths = secretPathsOf(def, args);
  const plainArgs = withoutPaths(args, secretPaths);
  const differs = (value: unknown, k: string) => containsUnknown(value) || !sameValue(value, observed[k]);

  const absentMeans = def.absentMeans ?? {};
  /** The value the program asks for: the declared one, or what leaving the arg out means. */
  const wanted = (from: Plain, k: string) => (from[k] !== undefined ? from[k] : absentMeans[k]);
  /** Declared, or its absence means something: an arg left out otherwise is not a wish to change it. */
  const counts = (k: string) => args[k] !== undefined || k in absentMeans;

  const changed = new Set<string>();
  for (const k of new Set([...Object.keys(plainArgs), ...Object.keys(absentMeans)])) {
    if (!def.createOnly?.includes(k) && differs(wanted(plainArgs, k), k)) changed.add(k);
  }
  for (const p of changedSecrets(args, secretPaths, state.secretHashes)) {
    // Left out, a value the service holds is left as it is (a secret's value): no change.
    if (!leftAlone(def, args, p)) changed.add(p.split(".")[0]!);
  }
  const fingerprint = def.fingerprint;
  if (fingerprint && args[fingerprint.field] !== undefined && fingerprintDrifted(state)) changed.add(fingerprint.field);

  const replaceSet = replaceable(def, args, options);
  const replaces = replaceSet.filter((k) => counts(k) && differs(wanted(args, k), k));
  const patch: Plain = {};
  for (const field of changed) if (!replaceSet.includes(field)) patch[field] = wanted(args, field);
  // An option older state lacks counts as its default, so a release adding an option does not
  // make every existing resource show a change.
  const previousOption = (k: string) => (olds[k] !== undefined ? olds[k] : optionDefaults(def)[k]);
  // The object lives at one endpoint: another one is another object.
  if (!sameValue(endpointOf(options), endpointOf(olds))) replaces.push("endpoint");
  const optionsChanged = Object.keys(options).some(
    (k) => !CREATE_ONLY_OPTIONS.includes(k) && k !== "endpoint" && !sameValue(options[k], previousOption(k)),
  );
  const resume = def.jobs?.resume.needed(olds) === true;
  const p: Plan = { changed: [...changed], replaces, patch, optionsChanged, resume };
  return def.inTree ? followTree(def.inTree.pathField, p, args, state.observed, endpointOf(options)) : p;
}

/** The plan without the changes of the object's place where it moved with its renamed container. */
function followTree(pathField: string | undefined, p: Plan, args: Plain, observed: Plain, endpoint?: string): Plan {
  const place = ["environment", ...(pathField ? [pathField] : [])];
  if (!place.some((f) => p.changed.includes(f) || p.replaces.includes(f))) return p;
  const followed = followedPlace(pathField, args, observed, endpoint);
  if (!Object.keys(followed).length) return p;
  const others = (fields: string[]) => fields.filter((f) => !(f in followed));
  const patch = Object.fromEntries(Object.entries(p.patch).filter(([f]) => !(f in followed)));
  return { ...p, changed: others(p.changed), replaces: others(p.replaces), patch, followed };
}

/**
 * A container's diff records what it does to the place of the objects in it
 * (provider/folder-moves.ts): replaced, what is in it is made anew in the new one; changed in place
 * (renamed, or not), what is in it stays in it, at the slug or path it gives them now. Those name
 * it by outputs that an update leaves unknown at preview (a folder's `secretPath`), which then
 * read as where they are now.
 */
function recordTreeChange(def: Definition, p: Plan, args: Plain, olds: Plain): void {
  const holds = def.inTree?.holds;
  if (!holds) return;
  const observed = decodeState(olds, Object.keys(def.reported)).observed;
  const before = holds.of(observed);
  if (before === undefined) return;
  const after = p.replaces.length ? undefined : holds.of({ ...args, ...p.followed });
  if (after !== undefined && containsUnknown(after)) return;
  if (holds.kind === "environment") {
    if (after !== undefined) environmentRenamed(endpointOf(olds), observed.projectId, before, after);
    return;
  }
  const scope = { endpoint: endpointOf(olds), projectId: observed.projectId, environment: observed.environment };
  if (p.replaces.length) folderChanged(scope, before, "replaced");
  else if (after !== undefined) folderChanged(scope, before, { to: after });
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

/**
 * What the steps of one definition's provider share in the provider process, which serves every
 * resource of the program. It is never serialized: the engine's state holds only the resource
 * type (provider/program-side.ts), and this is built from the definition in the provider process.
 */
interface ProviderContext {
  readonly def: Definition;
  /** The values at most one resource of the program may hold, when the definition has such a rule. */
  readonly keys: ProgramKeys | undefined;
  /** Replacements the engine asked for in this process (diff), by id: their delete comes next. */
  readonly replacing: Map<string, Plain>;
  /** The objects the program's resources hold in this operation: no delete removes them. */
  readonly held: HeldObjects;
}

/** Builds the dynamic provider of a resource definition. */
export function dynamicProvider<Remote extends { id: string }>(
  definition: ResourceDefinition<Remote>,
): dynamic.ResourceProvider {
  // The core reads a definition through its generic shape (`Plain` args, any `Remote`): its
  // methods and fields take their parameters both ways (definition.ts).
  const def: Definition = definition;
  const ctx: ProviderContext = {
    def,
    keys: def.exclusive && new ProgramKeys(def.exclusive),
    replacing: new Map(),
    held: new HeldObjects(),
  };
  return {
    async check(olds: Plain, news: Plain): Promise<dynamic.CheckResult> {
      return checkInputs(ctx, olds, news);
    },
    async diff(id: string, olds: Plain, news: Plain): Promise<dynamic.DiffResult> {
      return diffInputs(ctx, id, olds, news);
    },
    async create(inputs: Plain): Promise<dynamic.CreateResult> {
      return createResource(ctx, inputs);
    },
    async read(id: string, outs: Plain): Promise<dynamic.ReadResult> {
      return readResource(ctx, id, outs);
    },
    async update(id: string, olds: Plain, news: Plain): Promise<dynamic.UpdateResult> {
      return updateResource(ctx, id, olds, news);
    },
    async delete(id: string, outs: Plain): Promise<void> {
      return deleteResource(ctx, id, outs);
    },
  };
}

// The steps the engine calls, one a method of the provider.

/** check: the program's args and options against the schemas and the service's rules. */
function checkInputs(ctx: ProviderContext, olds: Plain, news: Plain): dynamic.CheckResult {
  const { def } = ctx;
  const { args, options } = split(def, news);
  const parsedOptions = def.options.safeParse(options);
  const failures = settingFailures(def, olds, news, args, parsedOptions);
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
  for (const issue of schemas.rules?.(parsed.data) ?? []) {
    if (!unknownAt(args, issue.path.split("."))) failures.push({ property: issue.path, reason: issue.message });
  }
  if (isNew(olds) && !parsedOptions.data?.adoptExisting) failures.push(...missingOnCreate(def, args));
  if (failures.length || !parsedOptions.success) return { inputs: news, failures };
  const data = def.canonical ? def.canonical(parsed.data) : parsed.data;
  const inputs: Plain = compact({
    ...withoutAbsentMeaning(def, data, olds ?? {}),
    ...withoutDefaults(def, parsedOptions.data ?? {}),
  });
  if (def.kindField) inputs[def.kindField] = args[def.kindField];
  const revisions = secretRevisions(secretPathsOf(def, args), args, olds ?? {});
  if (revisions) inputs[SECRET_REVISIONS_KEY] = revisions;
  // The key of the args as parsed (a folder's default path `/` included).
  const conflict = exclusiveConflict(ctx, olds, news, { ...args, ...data }, parsedOptions.data);
  if (conflict) return { inputs: news, failures: [conflict] };
  const name = programName(news);
  if (name !== undefined) ctx.held.named(identity(def, inputs), name);
  return { inputs };
}

/** diff: the plan from the last state to the program's inputs, as the engine reads a diff. */
function diffInputs(ctx: ProviderContext, id: string, olds: Plain, news: Plain): dynamic.DiffResult {
  const { args, options } = split(ctx.def, news);
  const p = plan(ctx.def, args, options, olds);
  recordTreeChange(ctx.def, p, args, olds);
  if (p.replaces.length > 0) ctx.replacing.set(id, args);
  // Kept by a resource of the program: no delete in this operation may remove it.
  else ctx.held.hold(endpointOf(options), id, holderOf(ctx, news));
  return {
    changes: p.changed.length > 0 || p.optionsChanged || p.resume || p.replaces.length > 0 || p.followed !== undefined,
    replaces: p.replaces,
    deleteBeforeReplace: p.replaces.length > 0 && ctx.def.deleteBeforeReplace,
  };
}

/** create: adoption or the create, then the work the service does after it. */
async function createResource(ctx: ProviderContext, inputs: Plain): Promise<dynamic.CreateResult> {
  const { def } = ctx;
  const { args, options } = split(def, inputs);
  const client = apiClient(endpointOf(options));
  try {
    const holder = holderOf(ctx, inputs);
    const heldElsewhere = (found: { id: string }) => refuseHeldElsewhere(ctx, def, found, args, options, holder);
    let made = false;
    let wrote = true;
    let remote = await exclusively(ctx, exclusiveKey(def, args, options), async () => {
      const adopted = await adoptExisting(def, client, args, options, heldElsewhere);
      if (adopted) {
        wrote = adopted.wrote;
        return adopted.remote;
      }
      const [missing] = missingOnCreate(def, args);
      if (missing) throw new Error(`${missing.property}: ${missing.reason}`);
      made = true;
      return createOnce(def, client, args, options, holder, heldElsewhere);
    });
    ctx.held.hold(endpointOf(options), remote.id, holder);
    const record = writeRecord(remote, wrote);
    remote = await settle(def, client, remote, inputs, options, { made, record });
    return { id: remote.id, outs: outputsAfterWrite(def, remote, inputs, options, record) };
  } finally {
    wrote(def, client, args);
  }
}

/** read (refresh): the service's object as outputs, and inputs that follow it where it drifted. */
async function readResource(ctx: ProviderContext, id: string, outs: Plain): Promise<dynamic.ReadResult> {
  const { def } = ctx;
  const remote = await readObject(def, apiClient(endpointOf(outs)), id, outs);
  if (!remote) return { id: "", props: {} };
  const options = withoutDefaults(def, Object.fromEntries(Object.keys(def.options.shape).map((k) => [k, outs[k]])));
  // What records our last write (secret hashes and revisions, the applied fingerprint, the
  // declared args): a refresh keeps it.
  const { observed: last, fingerprint: _read, ...written } = decodeState(outs, Object.keys(def.reported));
  // A secret changed out of band (the fingerprint moved, or the value returned is not the one
  // written): the revisions say which.
  const fingerprint = def.fingerprint;
  const fingerprintDrift =
    fingerprint && fingerprintDrifted({ ...written, observed: {}, fingerprint: fingerprint.of(remote) });
  if (fingerprintDrift) written.secretRevisions = changedOutside(written.secretRevisions, fingerprint.field);
  const returnedDrift = markReturnedSecretDrift(def, remote, written);
  written.secretHashes = withReturnedHashes(def, remote, written.secretHashes);
  const secretDrift = fingerprintDrift || returnedDrift;
  const props = observedOutputs(def, remote, options, written);
  const observed = argsOf(def, remote);
  // Imported by another key than its id (`importKey`): the resource takes the object's id.
  const readId = def.importKey !== undefined ? remote.id : id;
  // The args are as the last step or refresh saw them (a sync's status may have moved): no
  // inputs, and the engine keeps the ones it has, so none are built, encoded and sent back for
  // each resource of a large refresh.
  if (!secretDrift && sameValue(observed, last)) return { id: readId, props };
  // Inputs follow the service, so the next preview shows drift against the program; only in
  // the args the program declared (no list: all of them).
  const declared = written.declared ?? Object.keys(observed);
  const inputs = withoutAbsentMeaning(def, Object.fromEntries(declared.map((k) => [k, observed[k]])));
  return {
    id: readId,
    props,
    inputs: compact({ ...inputs, ...options, [SECRET_REVISIONS_KEY]: written.secretRevisions }),
  };
}

/**
 * The secrets the service returns whose value is not the one last written (`returnedSecrets`):
 * their hash is replaced by a mark no value hashes to, so the next plan writes the program's value
 * again, and their revision says they changed outside. The value read is compared and dropped.
 */
function markReturnedSecretDrift(def: Definition, remote: { id: string }, written: Partial<ProviderState>): boolean {
  const hashes = written.secretHashes;
  if (!def.returnedSecrets || !hashes) return false;
  const drifted = Object.entries(def.returnedSecrets).flatMap(([path, read]) => {
    const value = read(remote);
    const last = hashes.values[path];
    return typeof value === "string" && last !== undefined && hashOne(hashes.key, value) !== last ? [path] : [];
  });
  if (!drifted.length) return false;
  written.secretHashes = {
    ...hashes,
    values: { ...hashes.values, ...Object.fromEntries(drifted.map((p) => [p, CHANGED_OUTSIDE_HASH])) },
  };
  for (const p of drifted) written.secretRevisions = changedOutside(written.secretRevisions, p);
  return true;
}

/**
 * The hashes with those of the secrets the service returns where none is held (an import, an
 * adoption or a write of an object whose value the program leaves out): a program that then gives
 * the same value writes nothing. The value read is hashed and dropped.
 */
function withReturnedHashes(
  def: Definition,
  remote: { id: string },
  hashes: SecretHashes | undefined,
): SecretHashes | undefined {
  const read = Object.entries(def.returnedSecrets ?? {}).flatMap(([path, field]) => {
    const value = field(remote);
    return hashes?.values[path] === undefined && typeof value === "string" ? [[path, value] as const] : [];
  });
  if (!read.length) return hashes;
  const fresh = hashSecrets(
    Object.fromEntries(read),
    read.map(([path]) => path),
    hashes,
  );
  return { key: fresh.key, values: { ...hashes?.values, ...fresh.values } };
}

/** A secret hash no value has: what a value changed outside the program is marked with. */
const CHANGED_OUTSIDE_HASH = "changed outside the program";

/** update: the PATCH (or the unfinished work resumed), then the work the service does after it. */
async function updateResource(
  ctx: ProviderContext,
  id: string,
  olds: Plain,
  news: Plain,
): Promise<dynamic.UpdateResult> {
  const { def } = ctx;
  const { args, options } = split(def, news);
  // An endpoint change replaces the resource, so the old and new endpoints are the same here.
  const client = apiClient(endpointOf(options));
  const p = plan(def, args, options, olds);
  const previous = decodeState(olds, Object.keys(def.reported)).secretHashes;
  const key = exclusiveKey(def, args, options);
  // The key the resource held, by its own last options (an opt-out switched on leaves it too).
  const previousKey = exclusiveKey(def, olds, olds);
  // Moved with its renamed environment or folder: found, and written if need be, where it is now.
  const where = { ...olds, ...p.followed };
  let remote: { id: string } | undefined;
  try {
    remote = await sendChange(ctx, client, id, where, options, p, key !== previousKey ? key : undefined);
  } finally {
    // Whatever the step did, a resource of the program waiting for this one to leave its key goes on.
    ctx.keys?.left(previousKey, key);
  }
  if (!remote && p.followed !== undefined) return movedWithContainer(def, client, id, where, news, options, previous);
  // Only provider options changed: nothing was sent.
  if (!remote)
    return {
      outs: withoutImpliedState(
        compact({
          ...olds,
          ...Object.fromEntries(Object.keys(def.options.shape).map((k) => [k, undefined])),
          ...withoutDefaults(def, options),
          ...encodeState({ ...decodeState(olds, []), ...declaredBy(def, news) }, Object.keys(def.reported)),
        }),
      ),
    };
  const record = writeRecord(remote, true);
  remote = await settle(def, client, remote, news, options, { previous, record });
  return { outs: outputsAfterWrite(def, remote, news, options, record, previous) };
}

/**
 * An update with nothing to send but the object's new place, where its renamed container took it: its
 * outputs from a read there (nothing was written, so the last write's time stays).
 */
async function movedWithContainer(
  def: Definition,
  client: SecretOpsClient,
  id: string,
  where: Plain,
  news: Plain,
  options: Plain,
  previous: SecretHashes | undefined,
): Promise<dynamic.UpdateResult> {
  const remote = await readObject(def, client, id, where);
  if (!remote) throw new Error(`${objectLabel(def, where, id)} is not where its renamed environment or folder took it`);
  const { changedAt, adoptedAsFound } = decodeState(where, []);
  return { outs: outputsAfterWrite(def, remote, news, options, { changedAt, adoptedAsFound }, previous) };
}

/**
 * delete: the object goes (already gone is what delete wants), unless a resource the program
 * declares holds it (provider/held-objects.ts): then it stays, and the warning says why.
 */
async function deleteResource(ctx: ProviderContext, id: string, outs: Plain): Promise<void> {
  const successor = ctx.replacing.get(id);
  ctx.replacing.delete(id);
  const holder = ctx.held.holderOf(endpointOf(outs), id);
  // An object only ever managed is released, never deleted: nothing to say.
  if (holder) return ctx.def.manageExisting ? undefined : warn(keptForHolder(ctx.def, id, outs, holder));
  const client = apiClient(endpointOf(outs));
  try {
    // The options state left out are their defaults.
    await ctx.def.delete(client, id, { ...outs, ...split(ctx.def, outs).options }, successor);
  } catch (e) {
    if (!isNotFound(e)) throw e;
  } finally {
    wrote(ctx.def, client, outs);
  }
}

// The parts of check.

/** Failures of the settings around the args: a one-way switch turned back, the stack's config, the options. */
function settingFailures(
  def: Definition,
  olds: Plain,
  news: Plain,
  args: Plain,
  parsedOptions: z.ZodSafeParseResult<Plain>,
): dynamic.CheckFailure[] {
  const failures: dynamic.CheckFailure[] = [...(def.transitionFailures?.(olds ?? {}, news) ?? [])];
  const problem = configurationProblem();
  if (problem) failures.push({ property: "", reason: problem });
  if (!parsedOptions.success) failures.push(...failuresOf(parsedOptions.error.issues, args));
  const endpoint = parsedOptions.success ? endpointOf(parsedOptions.data) : undefined;
  const endpointIssue = endpoint === undefined ? undefined : endpointProblem(endpoint);
  if (endpointIssue) failures.push({ property: "endpoint", reason: endpointIssue });
  return failures;
}

/**
 * Holds the args' exclusive key for this resource of the program; the failure when another
 * resource holds it (`Exclusive`).
 */
function exclusiveConflict(
  ctx: ProviderContext,
  olds: Plain,
  news: Plain,
  args: Plain,
  options: Plain = {},
): dynamic.CheckFailure | undefined {
  if (!ctx.keys) return undefined;
  const name = programName(news) ?? String(args.name);
  const previous = split(ctx.def, olds ?? {});
  const previousKey = exclusiveKey(ctx.def, previous.args, previous.options);
  // At preview, an unknown arg's key part is the Output it comes from (`uniqueIn`).
  const key = ctx.def.exclusive?.key(args, options, outputOriginsOf(news));
  return ctx.keys.hold(name, args, key, previousKey);
}

// The writes of create and update.

const exclusiveKey = (def: Definition, args: Plain, options: Plain) => def.exclusive?.key(args, options);

/** Runs a write taking an exclusive key one at a time with the program's other writes taking it. */
const exclusively = <T>(ctx: ProviderContext, key: string | undefined, work: () => Promise<T>) =>
  ctx.keys ? ctx.keys.exclusively(key, work) : work();

/**
 * Adoption (`adoptExisting`, or an object only ever managed): the found object is the last known
 * state; what the program changes is applied. A secret the service returns (a secret's value) is
 * compared in memory and written only when it differs; one it never shows cannot be compared, so
 * it is taken as the one the service holds and not written (an adoption that writes nothing stays
 * nothing: `secretops import`); an arg sent for its other fields carries its secrets too. A later
 * change of the value is written as usual. The settings of an object made elsewhere
 * (`manageExisting`) are what the program sets, so their secrets are written on create.
 * `wrote`: whether it sent anything (nothing: the object was adopted as found).
 * Undefined: nothing to adopt, the object is to be created.
 */
async function adoptExisting(
  def: Definition,
  client: SecretOpsClient,
  args: Plain,
  options: Plain,
  heldElsewhere: (found: { id: string }) => void,
): Promise<{ remote: { id: string }; wrote: boolean } | undefined> {
  if (!options.adoptExisting && !def.manageExisting) return undefined;
  const remote = await def.find(client, args);
  if (!remote && def.manageExisting) throw new Error(def.manageExisting.notFound(args));
  if (!remote) return undefined;
  heldElsewhere(remote);
  const compared = def.manageExisting ? args : withoutPaths(args, secretPathsOf(def, args));
  const { patch } = plan(def, compared, options, argsOf(def, remote));
  for (const p of returnedSecretsDiffering(def, remote, args)) patch[p.split(".")[0]!] = undefined;
  for (const k of Object.keys(patch)) if (args[k] !== undefined) patch[k] = args[k];
  if (!Object.keys(patch).length) return { remote, wrote: false };
  return { remote: await def.update(client, remote.id, patch, args, options), wrote: true };
}

/** The secrets the program gives that the service returns with another value (`returnedSecrets`). */
function returnedSecretsDiffering(def: Definition, remote: { id: string }, args: Plain): string[] {
  return Object.entries(def.returnedSecrets ?? {}).flatMap(([path, read]) => {
    const wanted = getPath(args, path);
    const held = read(remote);
    return wanted !== undefined && typeof held === "string" && !sameValue(held, wanted) ? [path] : [];
  });
}

/**
 * Creates the object exactly once, whatever the service or the network does. Names and slugs are
 * unique, so an outcome left unknown (a 5xx, a reset or a timeout after the request was sent) is
 * settled by reading by name: found, it is the one we made; not found, nothing landed and the
 * create is sent again. A name already taken is one our earlier run made when its id never
 * reached the state (a killed `pulumi up`): it is ours when it matches what the program
 * declares; otherwise it is someone else's, and the create fails saying so.
 */
async function createOnce(
  def: Definition,
  client: SecretOpsClient,
  args: Plain,
  options: Plain,
  holder: Holder,
  heldElsewhere: (found: { id: string }) => void,
): Promise<{ id: string }> {
  if (!def.create) throw new Error(`${def.type} cannot be created`);
  // A service that would store the object under another name when this one is taken: look first.
  const taken = def.renamesTakenNames ? await def.find(client, args) : undefined;
  if (taken) {
    heldElsewhere(taken);
    const claimed = await claim(def, client, taken, args, options, undefined);
    await warn(tookOver(def, taken.id, args, holder));
    return claimed;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await def.create(client, args, options);
    } catch (e) {
      if (!isAmbiguous(e) && !isAlreadyExists(e)) throw e;
      const found = await def.find(client, args);
      if (!found) {
        if (attempt >= CREATE_ATTEMPTS) throw e;
        await sleep(backoffDelayMs(attempt, defaultRetryOptions));
        continue;
      }
      heldElsewhere(found);
      const claimed = await claim(def, client, found, args, options, e);
      // Taken before our first create was sent: not ours from this step, so say whose it may be.
      if (attempt === 1 && isAlreadyExists(e)) await warn(tookOver(def, found.id, args, holder));
      return claimed;
    }
  }
}

/**
 * A create (or adoption) that found its object held by another resource the program declares: two
 * resources of one program declare one object (their scope was not known at preview, so `check`
 * could not tell). Refused before anything is written to it.
 */
function refuseHeldElsewhere(
  ctx: ProviderContext,
  def: Definition,
  found: { id: string },
  args: Plain,
  options: Plain,
  holder: Holder,
): void {
  const other = ctx.held.holderOf(endpointOf(options), found.id);
  if (!other || other.name === holder.name) return;
  throw new Error(
    `${objectLabel(def, args, found.id)} is held by ${resourceLabel(other, "another resource of this program")}, ` +
      `and ${resourceLabel(holder, "this resource")} declares it too: two resources cannot manage one object; ` +
      `give one of them another ${nameKeyOf(args) ?? "name"}`,
  );
}

/** Takes a found object as the one this create made, if it is: see `createOnce`. */
async function claim(
  def: Definition,
  client: SecretOpsClient,
  found: { id: string },
  args: Plain,
  options: Plain,
  cause: unknown,
): Promise<{ id: string }> {
  const secretPaths = secretPathsOf(def, args);
  const declared = withoutPaths(args, secretPaths);
  const observed = argsOf(def, found);
  // What the service takes only on create it never reports: it cannot tell.
  const differing = Object.keys(declared).filter(
    (k) => !def.createOnly?.includes(k) && !sameValue(declared[k], observed[k]),
  );
  if (differing.length) {
    const key = nameKeyOf(args) ?? "name";
    const taken = isAlreadyExists(cause)
      ? String(cause instanceof Error ? cause.message : cause).replace(/\.$/, "")
      : `a ${def.type} with the ${key} "${String(args[key])}" already exists`;
    throw new Error(
      `${key}: ${taken}, and it differs from the program in ${differing.join(", ")}, so this stack did not ` +
        `make it; set adoptExisting: true to manage it, or choose another ${key}. If a resource of this ` +
        `stack holds it under another name (renamed in the program), give this resource its old name as an ` +
        `alias (aliases: [{ name: "<old name>" }]) so the engine keeps one resource`,
    );
  }
  // Secrets never come back, so they cannot be compared: written again, they are the program's.
  const resend = [...new Set(secretPaths.map((p) => p.split(".")[0]!))].filter((k) => args[k] !== undefined);
  if (!resend.length) return found;
  return def.update(client, found.id, Object.fromEntries(resend.map((k) => [k, args[k]])), args, options);
}

/**
 * An update's call: the PATCH, or the unfinished work resumed; undefined when only provider
 * options changed (nothing to send). `takesKey`: the exclusive key the PATCH moves the resource to.
 */
async function sendChange(
  ctx: ProviderContext,
  client: SecretOpsClient,
  id: string,
  olds: Plain,
  options: Plain,
  p: Plan,
  takesKey: string | undefined,
): Promise<{ id: string } | undefined> {
  const { def } = ctx;
  const patch = p.patch;
  if (!Object.keys(patch).length && !p.resume) return undefined;
  try {
    if (!Object.keys(patch).length) return await def.jobs!.resume.run(client, id, olds);
    const write = () => def.update(client, id, patch, olds, options);
    return await (takesKey !== undefined ? exclusively(ctx, takesKey, write) : write());
  } finally {
    wrote(def, client, olds);
  }
}

/**
 * Waits for the work the service does after a write (`jobs`). A failed job leaves the object in
 * state: the error carries its outputs, the shape the dynamic-provider host turns into a partial
 * failure.
 */
async function settle(
  def: Definition,
  client: SecretOpsClient,
  remote: { id: string },
  inputs: Plain,
  options: Plain,
  { previous, made = false, record }: { previous?: SecretHashes; made?: boolean; record: WriteRecord },
): Promise<{ id: string }> {
  if (!def.jobs) return remote;
  try {
    return await def.jobs.settle(client, remote, options, made);
  } catch (e) {
    if (!(e instanceof SettleFailure)) throw e;
    // A definition's `settle` fails with its own `Remote`.
    const failed: { id: string } = e.remote;
    const properties = outputsAfterWrite(def, failed, inputs, options, record, previous);
    throw Object.assign(new Error(e.message), { id: remote.id, properties, reasons: [e.message] });
  }
}

// What the steps say about an object two resources of the stack hold.

/** The service's object as messages name it: its type, name or slug, and id. */
function objectLabel(def: Definition, values: Plain, id: string): string {
  const key = nameKeyOf(values);
  return key ? `${def.type} "${String(values[key])}" (id ${id})` : `${def.type} ${id}`;
}

/** The arg that names an object where the service keeps names unique: its slug, name or key. */
const nameKeyOf = (values: Plain) => ["slug", "name", "secretName"].find((k) => typeof values[k] === "string");

const resourceLabel = (holder: Holder, otherwise: string) =>
  holder.name !== undefined ? `the resource "${holder.name}"` : otherwise;

const RENAME_ADVICE =
  'To rename a resource in place, give it its old name as an alias: aliases: [{ name: "<old name>" }]';

/** The warning of a delete that leaves the object to the resource of the program holding it. */
function keptForHolder(def: Definition, id: string, outs: Plain, holder: Holder): string {
  return (
    `${objectLabel(def, outs, id)} was not deleted: ${resourceLabel(holder, "a resource the program declares")} ` +
    `holds it now; only the record of the resource that left the program is removed. ${RENAME_ADVICE}`
  );
}

/** The warning of a create that took an existing object matching the program. */
function tookOver(def: Definition, id: string, args: Plain, holder: Holder): string {
  return (
    `${resourceLabel(holder, `a new ${def.type}`)} took over ${objectLabel(def, args, id)}, which existed and ` +
    `matches the program: made by an interrupted update, or held by a resource of this stack under another ` +
    `name (renamed), whose delete then leaves it in place. ${RENAME_ADVICE}`
  );
}

// Reads, and the outputs the steps report.

/** The family's shared reads at a client's endpoint, when the service lists the family by project. */
const sharedReadsAt = (def: Definition, client: SecretOpsClient) => def.listed?.reads.at(client);

/** After a write (whatever its outcome): what was listed of the project may be stale. */
function wrote(def: Definition, client: SecretOpsClient, values: Plain): void {
  const scope = def.listed?.scopeOf(values);
  if (scope !== undefined) sharedReadsAt(def, client)?.invalidate(scope);
}

/**
 * The object as its project's list, shared with the reads near in time, has it; otherwise (not
 * listed, or no list) its own read, which tells gone from hidden.
 */
async function readObject(def: Definition, client: SecretOpsClient, id: string, outs: Plain) {
  const scope = def.listed?.scopeOf(outs);
  const listed = scope === undefined ? undefined : await sharedReadsAt(def, client)?.find(scope, id);
  return listed ?? def.read(client, id, outs);
}

/** The fields a mapping reads of the service's object. */
const fieldsOf = (remote: { id: string }, fields: Readonly<Record<string, Field<{ id: string }>>>): Plain =>
  // Each field reads the definition's own `Remote`, which `remote` is (the SDK parsed it).
  compact(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f(remote)])));

/** The service's object as args. */
const argsOf = (def: Definition, remote: { id: string }) => fieldsOf(remote, def.reported);

/**
 * The service's object in the outputs' shape (also what a refresh reports). A computed field the
 * service answers null is left out (the program reads undefined for both, and the engine writes
 * every resource's state at each step).
 */
function observedOutputs(
  def: Definition,
  remote: { id: string },
  options: Plain,
  extra: Partial<ProviderState> = {},
): Plain {
  const state = { fingerprint: def.fingerprint?.of(remote), ...extra };
  const computed = Object.entries(fieldsOf(remote, def.computed)).filter(([, v]) => v !== null);
  return withoutImpliedState(
    compact({
      ...argsOf(def, remote),
      ...Object.fromEntries(computed),
      ...withoutDefaults(def, options),
      ...encodeState(state, Object.keys(def.reported)),
    }),
  );
}

/** What a write records of the program's inputs: the args it declared, the secrets' revisions. */
function declaredBy(def: Definition, inputs: Plain): Partial<ProviderState> {
  const { args } = split(def, inputs);
  return {
    // An arg whose absence means a value is declared either way (`absentMeans`).
    declared: Object.keys(def.reported).filter((k) => args[k] !== undefined || k in (def.absentMeans ?? {})),
    secretRevisions: secretRevisionsIn(inputs),
  };
}

/**
 * Outputs after a write (or an adoption that wrote nothing): the service's object, the options,
 * hashes of the secrets sent, and what the step wrote (`record`).
 */
function outputsAfterWrite(
  def: Definition,
  remote: { id: string },
  inputs: Plain,
  options: Plain,
  record: WriteRecord,
  previous?: SecretHashes,
): Plain {
  const { args } = split(def, inputs);
  const hashes = hashSecrets(args, secretPathsOf(def, args), previous);
  // What the program left alone keeps the hash of the value the service holds.
  for (const p of secretPathsOf(def, args)) {
    const held = previous?.values[p];
    if (held !== undefined && leftAlone(def, args, p)) hashes.values[p] = held;
  }
  const outputs = observedOutputs(def, remote, options, {
    secretHashes: withReturnedHashes(def, remote, hashes),
    ...declaredBy(def, inputs),
    ...record,
  });
  // Our write produced this fingerprint: later reads compare theirs against it.
  if (outputs.fingerprint !== undefined) outputs.appliedFingerprint = outputs.fingerprint;
  return outputs;
}
