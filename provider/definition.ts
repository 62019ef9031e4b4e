import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import type { Issue } from "../sdk/schemas";
import type { FamilyReads } from "./shared-reads";
import type { Plain } from "./values";

/**
 * One typed definition per resource type. Everything else is derived from it: the output names
 * and the class's declared outputs (`reported` and `computed`), the replace set (args the PATCH body
 * does not take), the secret paths, the type token and the provider the engine runs.
 *
 * The core is about as small as `pulumi.dynamic.ResourceProvider`: the schemas, the mapping of
 * the service's object onto args and outputs, and five API calls. What only one resource needs
 * is an optional add-on below the core.
 */

/**
 * Options every resource has, spread into each definition's options schema (so that the program's
 * args type shows them).
 */
export const commonOptions = {
  /**
   * The name of another endpoint to manage this resource at, instead of the stack's
   * (`secretops:apiUrl` and its credentials): its settings are the stack config's
   * `secretops:endpoints.<name>` object (`apiUrl`, and `token` or `clientId`/`clientSecret` as
   * secrets; set with `pulumi config set --path`). Its credentials stay in the stack config,
   * never in the resource's state. Changing it replaces the resource (the object lives at one endpoint).
   */
  endpoint: z.string().min(1, { error: "must not be empty" }).optional(),
};

/** The resource types of this package: the last part of `pulumi-nodejs:dynamic/secretops:<type>`. */
export const resourceTypes = [
  "SecretSync",
  "SecretRotation",
  "CertificateProfile",
  "AppConnection",
  "AppConnectionSettings",
  "Project",
  "ProjectEnvironment",
  "SecretFolder",
  "Secret",
  "CertificateAuthority",
  "CertificatePolicy",
  "MachineIdentity",
  "IdentityAuth",
  "IdentityClientSecret",
  "ProjectRole",
  "ProjectIdentityMembership",
] as const;
export type ResourceType = (typeof resourceTypes)[number];

/** The schemas of one kind (or of the only kind): what `check` validates and what a PATCH takes. */
export interface KindSchemas {
  /** The args as declared in the program (provider options aside). */
  readonly args: z.ZodObject;
  /** The PATCH body. Args it does not take force a replacement. */
  readonly update: z.ZodObject;
  /** The service's rules beyond the args schema (from the operations table), run by `check`. */
  rules?(args: Plain): Issue[];
}

/** A resource's last outputs: the args the service reported, the options, and the computed outputs. */
export type Outs<Args, Options> = Args & Options & Plain;

/** Reads one field of the service's object. */
export type Field<Remote> = {
  // A method's parameter compares both ways: the generic core reads any definition's fields.
  read(remote: Remote): unknown;
}["read"];

/**
 * `Args` and `Options`: what `check` made of the program's args and options (the kind's schema's
 * output and the options schema's), which the API calls receive. The generic core passes `Plain`
 * values; a typed definition fits it because these are methods (their parameters compare both ways).
 * `outs`, the last outputs, hold the args the service reported, the options and the computed outputs.
 */
export interface ResourceDefinition<Remote extends { id: string } = { id: string }, Args = Plain, Options = Plain> {
  readonly type: ResourceType;
  /** The arg that selects the kind row (`destination`, `type`, `app`), if any. */
  readonly kindField?: string;
  /**
   * The arg an import id gives before a slash (`<projectId>/<id>`) where the read needs more than
   * the id (an environment's project); by default the kind field.
   */
  readonly importPrefix?: string;
  /**
   * The arg an import id names the object by after its prefix, where that is not the object's id
   * (a role's slug, a membership's identity): the read finds the object by it (its state has no
   * such arg yet), and the resource takes the object's own id.
   */
  readonly importKey?: string;
  /** The schemas for these args' kind (the options may widen what it accepts), or the rule an unknown kind breaks. */
  schemas(args: Plain, options: Plain): KindSchemas | string;
  /** Provider options (never sent to the service), with their defaults. */
  readonly options: z.ZodObject;
  /**
   * What the service reports for each arg: its object mapped onto the args, one entry per arg
   * (secret parts never come back). What diff compares the program's args against, and an output each.
   */
  readonly reported: Readonly<Record<string, Field<Remote>>>;
  /** Read-only outputs the service computes (status, version, ids of related objects…). */
  readonly computed: Readonly<Record<string, Field<Remote>>>;
  /** Dotted paths of secret values in the args, for the kind in `args`; `all` for every kind. */
  readonly secretPaths?: { of(args: Plain): readonly string[]; readonly all: readonly string[] };
  /**
   * Add-on: computed outputs that hold a secret the service showed once (a client secret): secret
   * in state and previews, as secret args are.
   */
  readonly secretOutputs?: readonly string[];
  /**
   * Args the PATCH body takes but the service cannot change in place (its update refuses the
   * result): a change replaces the resource.
   */
  readonly replaceOnChange?: readonly string[];
  /** Replacement deletes first, because a user-given name or slug must stay unique. */
  readonly deleteBeforeReplace: boolean;
  /**
   * Args whose absence means a value: what the service holds when the program leaves the arg out
   * (null: no description, no gateway; for a connection's `projectId`, the organization's scope).
   * A program that stops declaring one asks for that value: a patchable arg is sent with it, one of
   * the replace set replaces the object. Any other undeclared arg is left as the service has it.
   */
  readonly absentMeans?: Readonly<Record<string, unknown>>;
  /**
   * Args the service takes only when it makes the object and never reports (a project's template):
   * what a later change asks for cannot be done, so it is no change, not a replacement.
   */
  readonly createOnly?: readonly string[];
  /**
   * The service does not refuse a name or slug that is taken: it stores the object under another
   * (a certificate policy). The create looks for one by `find` first and takes it as taken.
   */
  readonly renamesTakenNames?: boolean;
  /**
   * Secret args whose value the service returns on a read, by path (a secret's value): a read
   * that returns another value than the one last written is out-of-band drift, reported without
   * the value (the hash of what was written is kept, never the value read).
   */
  readonly returnedSecrets?: Readonly<Record<string, Field<Remote>>>;
  /**
   * Args the schema lets the program leave out of an object that exists (imported, adopted) but
   * that a new object needs, each with the rule a create without it breaks (a secret's value: left
   * out, the resource never writes it). `check` refuses a new resource without them, unless it
   * adopts; a create that finds nothing to adopt refuses before any write, in the same words.
   */
  readonly requiredOnCreate?: Readonly<Record<string, string>>;
  /**
   * The args as `check` keeps them (compared, stored, sent on create), where the service holds
   * one thing under two spellings: a certificate profile's config field at the value the service
   * stores when it is not sent is left out, as `reported` leaves it out.
   */
  canonical?(args: Args): Args;
  /**
   * What state written by an earlier release left out although the service held it (its write's
   * answer did not show it): the args-shaped values diff compares the program against in its
   * place, read from those outputs (`outs`). Only for args the outputs lack; a refresh or the next
   * write records the service's own values.
   */
  unrecorded?(outs: Plain): Plain;

  create?(client: SecretOpsClient, args: Args, options: Options): Promise<Remote>;
  /** Finds the object a create would have made (by name or slug): adoption and ambiguous creates. */
  find(client: SecretOpsClient, args: Args): Promise<Remote | undefined>;
  /** Undefined when the object is gone. */
  read(client: SecretOpsClient, id: string, outs: Outs<Args, Options>): Promise<Remote | undefined>;
  update(
    client: SecretOpsClient,
    id: string,
    patch: Partial<Args>,
    outs: Outs<Args, Options>,
    options: Options,
  ): Promise<Remote>;
  /**
   * `successor`: the args of the resource replacing this one, when the delete is the first half
   * of a replacement (what the old object leaves behind may be the successor's).
   */
  delete(client: SecretOpsClient, id: string, outs: Outs<Args, Options>, successor?: Args): Promise<void>;

  /**
   * Add-on: the service lists a project's (or a folder's) objects of this resource's family in one call. Reads
   * near in time (a refresh reads every resource at once) share such a call instead of one read
   * each (provider/shared-reads.ts); an object the list lacks is confirmed with `read`.
   */
  readonly listed?: Listed<Remote, Outs<Args, Options>>;
  /** Add-on: the object is only managed, never made (connection settings). */
  readonly manageExisting?: ManageExisting<Args>;
  /** Add-on: rules on the change from the previous args to the new ones (one-way switches). */
  transitionFailures?(olds: Plain, news: Plain): dynamic.CheckFailure[];
  /**
   * Add-on: a fingerprint of values the service never returns (`credentialsHash`), and the arg it
   * covers: when the service's fingerprint moves away from the one our last write produced, that
   * arg has drifted out of band.
   */
  readonly fingerprint?: { readonly field: string; of(remote: Remote): string | undefined };
  /** Add-on: work the service does after a write (sync jobs). */
  readonly jobs?: Jobs<Remote, Outs<Args, Options>, Options>;
  /**
   * Add-on: the object is in the tree (its args `projectId` and `environment`, and `pathField`, the
   * path of its folder), and moves with its environment or folder when the program renames one
   * (provider/folder-moves.ts): a change of those args to what the rename gives it is no
   * replacement and no write. `holds`: what a container gives the objects in it, from its args or
   * outputs (an environment its slug, a folder its own path).
   */
  readonly inTree?: {
    readonly pathField?: string;
    readonly holds?: { readonly kind: "environment" | "folder"; of(values: Plain): string | undefined };
  };
  /** Add-on: a value at most one resource of a program may hold (a sync's destination). */
  readonly exclusive?: Exclusive;
}

/** How a family's objects are listed (by project, or by folder): see `ResourceDefinition.listed`. */
export interface Listed<Remote extends { id: string }, Outs = Plain> {
  /**
   * The list an object's args or outputs place it in: its project's id, or the key of a folder
   * (`folderScope`) for the families listed by folder (undefined: not known, read by id).
   */
  scopeOf(values: Outs): string | undefined;
  /** The family's list call (every page of a scope's objects) and its shared reads (`familyReads`). */
  readonly reads: FamilyReads<Remote>;
}

/**
 * A value at most one resource of a program may hold: a sync's destination. One provider process
 * serves every resource of a program and sees each one's `check`, so a second holder is refused
 * at preview, naming both resources, with no API call; and creates and updates that take a key
 * run one at a time per key, so a check-then-write against the service is never interleaved.
 */
export interface Exclusive {
  /**
   * The args' key: resources with different keys never clash, and writes taking one key run one
   * at a time. Undefined when the rule does not apply (an opt-out, a value still unknown).
   * `origins` (from `check` only): the Output each unknown top-level arg comes from, by token
   * (`OUTPUT_ORIGINS_KEY` in provider/values.ts); a key may stand on them where a value is unknown.
   */
  key(args: Plain, options: Plain, origins?: Readonly<Record<string, string>>): string | undefined;
  /** Whether two resources holding one key clash (default: they do). */
  clash?(held: Plain, candidate: Plain): boolean;
  /** The failure of `resource`, whose key `holder` (another resource of the program) already holds. */
  conflict(resource: string, holder: string): dynamic.CheckFailure;
}

/**
 * The object already exists and is only managed: create finds it and applies the declared args,
 * delete releases it untouched. With it come the rules a managed object's settings follow.
 */
export interface ManageExisting<Args = Plain> {
  notFound(args: Args): string;
}

/** Work the service runs after a create or update, which the step waits for. */
export interface Jobs<Remote, Outs = Plain, Options = Plain> {
  /**
   * Waits for the work; throws `SettleFailure` when it failed (the resource stays in state), any
   * other error when the object must not stay (it is not kept in state). `made`: this step
   * created the object (not an update, nor an adoption).
   */
  settle(client: SecretOpsClient, remote: Remote, options: Options, made: boolean): Promise<Remote>;
  /** Work the last step left unfinished: when `needed`, diff reports a change and update runs `run`. */
  readonly resume: {
    needed(outs: Outs): boolean;
    run(client: SecretOpsClient, id: string, outs: Outs): Promise<Remote>;
  };
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

/**
 * Declares a resource: `defineResource<Remote>()({...})`. Curried so that `Remote` types the
 * mapping's parameters while the definition keeps its own literal type, from which the class's
 * output names and types follow.
 */
export function defineResource<Remote extends { id: string }, Args = Plain, Options = Plain>() {
  return <const D extends ResourceDefinition<Remote, Args, Options>>(definition: D): D => definition;
}

/** What the derivations below read of a definition, whatever its `Remote`. */
export type DefinitionShape = Pick<
  ResourceDefinition<never>,
  "type" | "kindField" | "reported" | "computed" | "secretPaths" | "secretOutputs" | "replaceOnChange" | "createOnly"
>;

/** Every output of a resource: its args, then what the service computes. */
export function outputNames(def: DefinitionShape): string[] {
  return [...Object.keys(def.reported), ...Object.keys(def.computed)];
}

/** Args holding a secret somewhere inside: secret as a whole in state and in previews. */
export function secretArgs(def: DefinitionShape): string[] {
  return [...new Set((def.secretPaths?.all ?? []).map((p) => p.split(".")[0]!))];
}

/** What is secret in state and previews: the args holding secrets, and the secret outputs (`secretOutputs`). */
export function secretProperties(def: DefinitionShape): string[] {
  return [...secretArgs(def), ...(def.secretOutputs ?? [])];
}

/**
 * Args the PATCH body does not take or the service cannot change in place, and the kind itself: a
 * change replaces the resource (an arg taken only on create changes nothing later).
 */
export function replaceFields(def: DefinitionShape, schemas: KindSchemas): string[] {
  const patchable = Object.keys(schemas.update.shape).filter((k) => !def.replaceOnChange?.includes(k));
  const fields = Object.keys(schemas.args.shape).filter((k) => !patchable.includes(k) && !def.createOnly?.includes(k));
  return def.kindField && !fields.includes(def.kindField) ? [...fields, def.kindField] : fields;
}
