import { appConnectionKind, enrollmentTypes, knownSyncDestinationRow, rotationType } from "../sdk/schemas";
import type {
  AppConnection,
  CertificatePolicy,
  CertificateProfile,
  IdentityMembershipRecord,
  InternalCa,
  Project,
  ProjectEnvironment,
  ProjectRoleRecord,
  SecretRotation,
  SecretSync,
} from "../sdk/schemas";
import { appConnectionDefinition } from "../provider/app-connection";
import { certificateAuthorityDefinition } from "../provider/certificate-authority";
import { certificatePolicyDefinition } from "../provider/certificate-policy";
import { certificateProfileDefinition } from "../provider/certificate-profile";
import type { ResourceDefinition } from "../provider/definition";
import { projectDefinition } from "../provider/project";
import { projectEnvironmentDefinition } from "../provider/project-environment";
import { projectIdentityMembershipDefinition } from "../provider/project-identity-membership";
import { projectRoleDefinition } from "../provider/project-role";
import { type PlacedSecret, secretDefinition } from "../provider/secret";
import { type PlacedFolder, childPath, secretFolderDefinition } from "../provider/secret-folder";
import { secretRotationDefinition } from "../provider/secret-rotation";
import { secretSyncDefinition } from "../provider/secret-sync";
import { type Plain, getPath, isPlainObject, sameValue } from "../provider/values";
import { counted } from "./common";

/**
 * `secretops import`'s writer: the service's objects, as its list routes report them, become one
 * resource each of a TypeScript Pulumi program. Each resource's args are its definition's
 * `reported` fields (what `diff` compares against), so an adopted object differs from its
 * program in nothing; the secrets the service never returns, and every secret's value (never
 * read), become `config.requireSecret` reads.
 */

export type Family =
  | "projects"
  | "environments"
  | "folders"
  | "secrets"
  | "connections"
  | "syncs"
  | "rotations"
  | "authorities"
  | "policies"
  | "profiles"
  | "roles"
  | "memberships";
/** The module's order: each family after the ones its resources reference by variable. */
export const FAMILIES: readonly Family[] = [
  "projects",
  "environments",
  "folders",
  "secrets",
  "connections",
  "syncs",
  "rotations",
  "authorities",
  "policies",
  "profiles",
  "roles",
  "memberships",
];
/** Each family's nouns, one and several. */
const NOUNS: Record<Family, [string, string]> = {
  projects: ["project", "projects"],
  environments: ["environment", "environments"],
  folders: ["folder", "folders"],
  secrets: ["secret", "secrets"],
  connections: ["connection", "connections"],
  syncs: ["sync", "syncs"],
  rotations: ["rotation", "rotations"],
  authorities: ["certificate authority", "certificate authorities"],
  policies: ["certificate policy", "certificate policies"],
  profiles: ["profile", "profiles"],
  roles: ["project role", "project roles"],
  memberships: ["identity membership", "identity memberships"],
};

/** `2 connections, 1 sync, 1 certificate authority`: the families with anything in them. */
export const familyCounts = (counts: Record<Family, number>) =>
  FAMILIES.filter((f) => counts[f] > 0)
    .map((f) => counted(counts[f], ...NOUNS[f]))
    .join(", ") || "nothing";

/** The objects read from the service, by family. */
export interface Found {
  projects: Project[];
  environments: ProjectEnvironment[];
  folders: PlacedFolder[];
  /** Listed without their values: the program reads each from the stack's config. */
  secrets: PlacedSecret[];
  connections: AppConnection[];
  syncs: SecretSync[];
  rotations: SecretRotation[];
  authorities: InternalCa[];
  policies: CertificatePolicy[];
  profiles: CertificateProfile[];
  /** A project's custom roles, each with its permissions (the list has none: each read by its slug). */
  roles: (ProjectRoleRecord & { projectId: string })[];
  /** A project's identity memberships, with their roles. */
  memberships: (IdentityMembershipRecord & { projectId: string })[];
}

/** An object not written, or written untyped, and why. */
export interface Skipped {
  family: Family;
  name: string;
  reason: string;
}

/** A secret the program reads from stack config: `pulumi config set --secret <key>`. */
export interface SecretConfig {
  key: string;
  /** The resource and the arg path it fills. */
  resource: string;
  path: string;
}

export interface ImportProgram {
  /** The module's source. */
  source: string;
  secrets: SecretConfig[];
  skipped: Skipped[];
  /** Resources written, by family. */
  counts: Record<Family, number>;
}

export interface WriteOptions {
  /** Give every resource `retainOnDelete: true` (default): destroying the stack leaves the objects. */
  retainOnDelete: boolean;
  /**
   * The projects read, which the header names. Not the endpoint: the same objects read through
   * another URL (or a token of another identity) give the same file.
   */
  projects: readonly string[];
  /**
   * Every rotation read, selected or not (default: the ones to write): the secrets a rotation
   * writes are its own (the service refuses to change their values), so they are not written.
   */
  rotations?: readonly SecretRotation[];
}

/** What the rows need beyond each object: the other objects read. */
interface WriteContext {
  /** The rotation writing the secret at this place (project, environment, path, key), if any. */
  rotationWriting(place: unknown[]): string | undefined;
  /** An environment's place in the module's order: its project's order, else after them by slug. */
  environmentRank(projectId: string, slug: string): string;
}

/**
 * An arg naming another object (by id, slug or path) that the program may write: the arg then
 * takes that object's variable's output, which also orders the resources for the engine.
 */
interface Reference {
  /** The arg, dotted. */
  path: string;
  family: Family;
  /** The named object's key (its row's `keyOf`), from the args as reported. */
  key(args: Plain): unknown[];
  /** The output of its variable the arg takes. */
  output: string;
  /** Said in a comment when the object is not written: `a connection`. */
  missing?: string;
}

/** How one family's objects become resources: a row each. */
interface FamilyRow<Remote extends { id: string }> {
  /**
   * The resource's definition: its class (`secretops.<type>`), its `reported` fields (the args
   * written) and the args whose absence means a value (left out when they have it).
   */
  definition: Pick<ResourceDefinition<Remote>, "type" | "reported" | "absentMeans">;
  /** The class for a kind the package has no row for (`untyped`). */
  untypedClassName?: string;
  /** Suffix of the variable names (`vercelProdSync`). */
  suffix: string;
  /** The name the service knows it by: what `--name` matches. */
  nameOf(remote: Remote): string;
  /** Its logical name in the program, where the name alone repeats in a project (default `nameOf`). */
  resourceName?(remote: Remote): string;
  /** What `--kind` matches besides the family: its kind's slug. */
  kindOf?(remote: Remote): string;
  /** What `--environment` matches: families without one are not filtered by it. */
  environmentOf?(remote: Remote): string | undefined;
  /** The module's order within the family (default: name, project, id): parents first where it matters. */
  order?(remote: Remote, all: readonly Remote[], context: WriteContext): string[];
  /** How references find it (default: its id). */
  keyOf?(remote: Remote): unknown[];
  references: readonly Reference[];
  /** Undefined when the package writes it typed; otherwise why not (and whether it can be written untyped). */
  untyped(remote: Remote, context: WriteContext): { reason: string; writable: boolean } | undefined;
  /** The secret arg paths the object's kind takes, which the service never returns (or the import never reads). */
  secretPaths(args: Plain): string[];
  /** The config key of a secret arg (default: the resource's name and the field, `ordersDbConnectionPassword`). */
  configKey?(resourceName: string, path: string): string;
  /** Reported args tidied for the args' schema. */
  tidy?(args: Plain): Plain;
  /** The class adopts by default (`adoptExisting` defaults to true): the option is not written. */
  adoptsByDefault?: boolean;
}

/** A folder's own path. */
const folderPath = (f: PlacedFolder) => childPath(f.parentPath, f.name);
/** `/app/db` as the part of a logical name: `-app-db`; the root as nothing. */
const pathPart = (path: string) => (path === "/" ? "" : path.replace(/\//g, "-"));

const project: Reference = { path: "projectId", family: "projects", key: (a) => [a.projectId], output: "id" };
const environment: Reference = {
  path: "environment",
  family: "environments",
  key: (a) => [a.projectId, a.environment],
  output: "slug",
};
const folderAt = (path: string): Reference => ({
  path,
  family: "folders",
  key: (a) => [a.projectId, a.environment, a[path]],
  output: "secretPath",
});
const connection: Reference = {
  path: "connectionId",
  family: "connections",
  key: (a) => [a.connectionId],
  output: "id",
  missing: "connection",
};
/** Where secrets are: what syncs, rotations and secrets name. */
const place = [project, environment, folderAt("secretPath")];

/** A CA's depth below the roots of its list: a parent is written before its intermediates. */
function caDepth(ca: InternalCa, all: readonly InternalCa[]): number {
  let depth = 0;
  for (let c = ca; depth < all.length; depth++) {
    const parent = all.find((p) => p.id === c.configuration?.parentCaId);
    if (!parent) break;
    c = parent;
  }
  return depth;
}

/** The subject fields of a CA's configuration: empty unless given (the args' default). */
const CA_SUBJECT = ["commonName", "organization", "ou", "country", "province", "locality"];

const rows: { [F in Family]: FamilyRow<Found[F][number]> } = {
  projects: {
    suffix: "Project",
    definition: projectDefinition,
    nameOf: (p) => p.slug,
    references: [],
    untyped: () => undefined,
    secretPaths: () => [],
  },
  environments: {
    suffix: "Environment",
    definition: projectEnvironmentDefinition,
    nameOf: (e) => e.slug,
    environmentOf: (e) => e.slug,
    order: (e, _, context) => [e.projectId, context.environmentRank(e.projectId, e.slug)],
    keyOf: (e) => [e.projectId, e.slug],
    references: [project],
    untyped: () => undefined,
    secretPaths: () => [],
    adoptsByDefault: true,
  },
  folders: {
    suffix: "Folder",
    definition: secretFolderDefinition,
    nameOf: (f) => f.name,
    resourceName: (f) => `${f.environmentSlug}${pathPart(folderPath(f))}`,
    environmentOf: (f) => f.environmentSlug,
    // A parent's path begins its children's: it comes first.
    order: (f, _, context) => [f.projectId, context.environmentRank(f.projectId, f.environmentSlug), folderPath(f)],
    keyOf: (f) => [f.projectId, f.environmentSlug, folderPath(f)],
    references: [project, environment, folderAt("path")],
    untyped: () => undefined,
    secretPaths: () => [],
  },
  secrets: {
    suffix: "Secret",
    definition: secretDefinition,
    nameOf: (s) => s.secretKey,
    resourceName: (s) => `${s.environment}${pathPart(s.secretPath)}-${s.secretKey}`,
    environmentOf: (s) => s.environment,
    order: (s, _, context) => [
      s.projectId,
      context.environmentRank(s.projectId, s.environment),
      s.secretPath,
      s.secretKey,
    ],
    references: place,
    untyped: (s, context) => {
      if (s.type === "personal")
        return { reason: "a personal secret (one user's own value of a shared secret)", writable: false };
      const rotation = context.rotationWriting([s.projectId, s.environment, s.secretPath, s.secretKey]);
      return rotation === undefined ? undefined : { reason: `written by the rotation "${rotation}"`, writable: false };
    },
    secretPaths: () => ["secretValue"],
    // The value's key is the secret's: `devAppDatabaseUrl` for DATABASE_URL in dev's /app.
    configKey: (resourceName) => camel(resourceName),
  },
  connections: {
    suffix: "Connection",
    definition: appConnectionDefinition,
    nameOf: (c) => c.name,
    kindOf: (c) => c.app,
    references: [project],
    untyped: (c) =>
      appConnectionKind(c.app) && appConnectionKind(c.app)!.methods[c.method]
        ? undefined
        : { reason: `connection kind "${c.app}" (method "${c.method}") is newer than this package`, writable: false },
    secretPaths: (args) =>
      (appConnectionKind(String(args.app))?.methods[String(args.method)]?.secretFields ?? []).map(
        (f) => `credentials.${f}`,
      ),
  },
  syncs: {
    untypedClassName: "GenericSecretSync",
    suffix: "Sync",
    definition: secretSyncDefinition,
    nameOf: (s) => s.name,
    kindOf: (s) => s.destination,
    environmentOf: (s) => s.environment?.slug,
    references: [...place, connection],
    untyped: (s) =>
      knownSyncDestinationRow(s.destination)
        ? undefined
        : { reason: `destination "${s.destination}" is newer than this package`, writable: true },
    secretPaths: () => [],
  },
  rotations: {
    suffix: "Rotation",
    definition: secretRotationDefinition,
    nameOf: (r) => r.name,
    kindOf: (r) => r.type,
    environmentOf: (r) => r.environment?.slug,
    references: [...place, connection],
    untyped: (r) =>
      rotationType(r.type)
        ? undefined
        : { reason: `rotation type "${r.type}" is newer than this package`, writable: false },
    secretPaths: () => [],
  },
  authorities: {
    suffix: "Ca",
    definition: certificateAuthorityDefinition,
    nameOf: (c) => c.name,
    order: (c, all) => [c.projectId, String(caDepth(c, all)).padStart(3, "0"), c.name, c.id],
    references: [
      project,
      {
        path: "configuration.parentCaId",
        family: "authorities",
        key: (a) => [getPath(a, "configuration.parentCaId")],
        output: "id",
      },
    ],
    // The args take an active or disabled CA with its end of validity (a pending one gets its certificate by itself).
    untyped: (c) =>
      c.status === "pending-certificate" || !c.configuration?.notAfter
        ? {
            reason: `a CA ${c.status === "pending-certificate" ? "waiting for its certificate" : "without an end of validity"}, which the args do not take`,
            writable: false,
          }
        : undefined,
    secretPaths: () => [],
    // What the service never set is absent (a root's parentCaId, friendlyName), empty subject fields the default.
    tidy: (args) => ({
      ...args,
      configuration: Object.fromEntries(
        Object.entries(isPlainObject(args.configuration) ? args.configuration : {}).filter(
          ([k, v]) => v !== null && v !== undefined && !(CA_SUBJECT.includes(k) && v === ""),
        ),
      ),
    }),
  },
  policies: {
    suffix: "Policy",
    definition: certificatePolicyDefinition,
    nameOf: (p) => p.name,
    references: [project],
    untyped: () => undefined,
    secretPaths: () => [],
  },
  profiles: {
    suffix: "Profile",
    definition: certificateProfileDefinition,
    nameOf: (p) => p.slug,
    kindOf: (p) => p.enrollmentType,
    references: [
      project,
      { path: "caId", family: "authorities", key: (a) => [a.caId], output: "id" },
      { path: "certificatePolicyId", family: "policies", key: (a) => [a.certificatePolicyId], output: "id" },
    ],
    untyped: (p) =>
      p.enrollmentType in enrollmentTypes
        ? undefined
        : { reason: `enrollment type "${p.enrollmentType}" is newer than this package`, writable: false },
    // The current enrollment type's config holds its secrets (an EST passphrase, a SCEP challenge password).
    secretPaths: (args) => {
      const type = enrollmentTypes[args.enrollmentType as keyof typeof enrollmentTypes];
      return type && isPlainObject(args[type.configKey]) ? type.secretFields.map((f) => `${type.configKey}.${f}`) : [];
    },
  },
  roles: {
    suffix: "Role",
    definition: projectRoleDefinition,
    nameOf: (r) => r.slug,
    keyOf: (r) => [r.projectId, r.slug],
    references: [project],
    untyped: () => undefined,
    secretPaths: () => [],
  },
  memberships: {
    suffix: "Membership",
    definition: projectIdentityMembershipDefinition,
    // The identity is named by its id (the import writes no identities); its name names the resource.
    nameOf: (m) => m.identity?.name ?? m.identityId,
    resourceName: (m) => `${m.identity?.name ?? m.identityId}-member`,
    references: [project],
    untyped: () => undefined,
    secretPaths: () => [],
  },
};

/** What the filters of `secretops import` match of an object: its name, kind and environment. */
export function traitsOf<F extends Family>(
  family: F,
  remote: Found[F][number],
): { name: string; kind?: string; environment?: string } {
  const row = rows[family] as FamilyRow<Found[F][number]>;
  return { name: row.nameOf(remote), kind: row.kindOf?.(remote), environment: row.environmentOf?.(remote) };
}

/** Whether `--environment` filters the family. */
export const hasEnvironment = (family: Family) => rows[family].environmentOf !== undefined;

/** Code inside a literal: a variable's output or a config read. */
class Code {
  constructor(readonly code: string) {}
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript literal of a plain value, indented; `Code` is written as is. */
function literal(value: unknown, indent: string): string {
  if (value instanceof Code) return value.code;
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    const inner = indent + "  ";
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join("\n")}\n${indent}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (!entries.length) return "{}";
    const inner = indent + "  ";
    const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));
    // `projectId: projectId` as `projectId`.
    const entry = ([k, v]: [string, unknown]) =>
      v instanceof Code && v.code === k ? `${inner}${k},` : `${inner}${key(k)}: ${literal(v, inner)},`;
    return `{\n${entries.map(entry).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The project an object belongs to (connections may have none: the organization's). */
const projectOf = (o: object): string | undefined => (o as { projectId?: string | null }).projectId ?? undefined;

/** `vercel-prod` → `vercelProd`; `DATABASE_URL` → `databaseUrl` (a word in capitals as a word). */
function camel(name: string): string {
  const words = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => (/[a-z]/.test(w) ? w : w.toLowerCase()));
  const joined = words
    .map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w[0]!.toLowerCase() + w.slice(1)))
    .join("");
  return /^[0-9]/.test(joined) || !joined ? `_${joined}` : joined;
}

/** A variable's name: the suffix once (`ordersDbConnection`, and `emulatorProject` for `emulator-project`). */
const withSuffix = (name: string, suffix: string) =>
  name.length > suffix.length && name.endsWith(suffix) ? name : name + suffix;

/** Hands out names unique within one namespace: `x`, `x2`, `x3`… (or `x-2` with a separator). */
function uniqueNames(separator = "") {
  const taken = new Set<string>();
  return (wanted: string) => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}${separator}${n}`;
    taken.add(name);
    return name;
  };
}

function setPath(target: Plain, path: string, value: unknown) {
  const [head, ...rest] = path.split(".");
  if (!rest.length) {
    target[head!] = value;
    return;
  }
  const inner = isPlainObject(target[head!]) ? { ...(target[head!] as Plain) } : {};
  setPath(inner, rest.join("."), value);
  target[head!] = inner;
}

/** A comment's text as `//` lines of at most `width` characters. */
function commentLines(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = "//";
  for (const word of text.split(" ")) {
    if (line.length + 1 + word.length > width && line !== "//") {
      lines.push(line);
      line = "//";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** The reported fields of an object as args: unset ones, and ones whose absence means their value, left out. */
function reportedArgs<Remote extends { id: string }>(row: FamilyRow<Remote>, remote: Remote): Plain {
  const args: Plain = {};
  const { reported, absentMeans = {} } = row.definition;
  for (const [k, field] of Object.entries(reported)) {
    const v = field(remote);
    const absent = k in absentMeans && sameValue(v, absentMeans[k]);
    if (v !== undefined && v !== null && !absent) args[k] = v;
  }
  return row.tidy ? row.tidy(args) : args;
}

/** The family's objects in the module's order: the same objects always give the same file. */
function ordered<Remote extends { id: string }>(
  row: FamilyRow<Remote>,
  objects: readonly Remote[],
  context: WriteContext,
): Remote[] {
  const order = (o: Remote) =>
    (row.order ? row.order(o, objects, context) : [row.nameOf(o), projectOf(o) ?? "", o.id]).join("\u0000");
  const keyed = objects.map((o) => [order(o), o] as const);
  return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
}

/**
 * The module for these objects. Resources appear family by family (the project, its environments
 * and folders first, which the others reference by variable), each family in its order, so that a
 * second import of the same objects writes the same file.
 */
export function importProgram(found: Found, options: WriteOptions): ImportProgram {
  const variables = uniqueNames();
  const configKeys = uniqueNames();
  const skipped: Skipped[] = [];
  const secrets: SecretConfig[] = [];
  const counts = Object.fromEntries(FAMILIES.map((f) => [f, 0])) as Record<Family, number>;
  /** The variable of each object written, by family and key. */
  const written = new Map<string, string>();
  const writtenKey = (family: Family, key: unknown[]) => JSON.stringify([family, ...key]);
  const blocks: string[] = [];
  const rotating = new Map(
    (options.rotations ?? found.rotations).flatMap((r) =>
      Object.values(r.secretsMapping).map(
        (key) => [JSON.stringify([r.projectId, r.environment?.slug, r.folder?.path, key]), r.name] as const,
      ),
    ),
  );
  const positions = new Map(found.environments.map((e) => [JSON.stringify([e.projectId, e.slug]), e.position ?? 0]));
  const context: WriteContext = {
    rotationWriting: (place) => rotating.get(JSON.stringify(place)),
    environmentRank: (projectId, slug) =>
      `${String(positions.get(JSON.stringify([projectId, slug])) ?? 999999).padStart(6, "0")}\u0000${slug}`,
  };
  // A project not written is a constant; each project's number names what repeats across projects.
  const projectIds = [
    ...new Set([...FAMILIES.flatMap((f) => found[f].map(projectOf)), ...found.projects.map((p) => p.id)]),
  ]
    .filter((p): p is string => typeof p === "string")
    .sort();
  const constants = new Map(
    projectIds.map((id, i) => [id, projectIds.length === 1 ? "projectId" : `projectId${i + 1}`]),
  );
  const constantsUsed = new Set<string>();

  for (const family of FAMILIES) {
    const row = rows[family] as FamilyRow<{ id: string }>;
    const names = uniqueNames("-");
    const baseName = (o: { id: string }) => (row.resourceName ?? row.nameOf)(o);
    const objects = ordered(row, found[family] as { id: string }[], context).filter((remote) => {
      const untyped = row.untyped(remote, context);
      if (untyped && !untyped.writable)
        skipped.push({ family, name: baseName(remote), reason: `${untyped.reason}: not written` });
      return !untyped || untyped.writable;
    });
    // A name the family uses in several projects (or scopes) gets the project's number.
    const uses = new Map<string, number>();
    for (const o of objects) uses.set(baseName(o), (uses.get(baseName(o)) ?? 0) + 1);
    for (const remote of objects) {
      const base = baseName(remote);
      const project = family === "projects" ? remote.id : projectOf(remote);
      const scope = project ? constants.get(project)!.replace("projectId", "p") : "org";
      const untyped = row.untyped(remote, context);
      if (untyped)
        skipped.push({ family, name: base, reason: `${untyped.reason}: written as ${row.untypedClassName}` });
      const resourceName = names(uses.get(base)! > 1 ? `${base}-${scope}` : base);
      const variable = variables(withSuffix(camel(resourceName), row.suffix));
      written.set(writtenKey(family, row.keyOf ? row.keyOf(remote) : [remote.id]), variable);

      const args = reportedArgs(row, remote);
      const comments: string[] = [];
      // What each reference names, read from the args as reported, before any becomes a variable.
      const references = row.references.flatMap((ref) => {
        const value = getPath(args, ref.path);
        const key = ref.key(args);
        return typeof value === "string" && key.every((k) => typeof k === "string") ? [{ ref, value, key }] : [];
      });
      for (const { ref, value, key } of references) {
        const target = written.get(writtenKey(ref.family, key));
        if (target) setPath(args, ref.path, new Code(`${target}.${ref.output}`));
        else if (ref.family === "projects" && constants.has(value)) {
          setPath(args, ref.path, new Code(constants.get(value)!));
          constantsUsed.add(value);
        } else if (ref.missing) comments.push(`${ref.path}: a ${ref.missing} this import did not write (${value})`);
      }
      for (const path of row.secretPaths(args)) {
        const key = configKeys(
          row.configKey?.(resourceName, path) ?? camel(`${resourceName}-${row.suffix}-${path.split(".").pop()!}`),
        );
        setPath(args, path, new Code(`config.requireSecret(${JSON.stringify(key)})`));
        secrets.push({ key, resource: resourceName, path });
      }
      if (untyped) comments.push(`${untyped.reason}: its fields are not checked by this package`);
      if (args.isPlatformManagedCredentials === true) {
        comments.push(
          "platform-managed credentials: the service holds their secret parts and refuses to change them, so keep the config value as set",
        );
      }
      const className = untyped ? row.untypedClassName! : row.definition.type;
      const construct = `export const ${variable} = new secretops.${className}(`;
      const argsWith = row.adoptsByDefault ? args : { ...args, adoptExisting: true };
      // Laid out as prettier lays it out, so that formatting the file changes nothing.
      const call = options.retainOnDelete
        ? `${construct}\n  ${JSON.stringify(resourceName)},\n  ${literal(argsWith, "  ")},\n  { retainOnDelete: true },\n);`
        : `${construct}${JSON.stringify(resourceName)}, ${literal(argsWith, "")});`;
      blocks.push([...comments.map((c) => `// ${c}`), call].join("\n"));
      counts[family]++;
    }
  }

  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const projectList = `${options.projects.length === 1 ? "project" : "projects"} ${[...options.projects].sort().join(", ")}`;
  const header = [
    `// Written by \`secretops import\` from ${projectList}: ${counted(total, "resource")}`,
    ...commentLines(`(${familyCounts(counts)}), each adopting the object the service already has.`),
    "// Every field is as the service reported it; `adoptExisting` may be removed after the first `pulumi up`.",
    ...(options.retainOnDelete
      ? ["// retainOnDelete: removing a resource or destroying the stack leaves its object at the service."]
      : []),
    ...(secrets.length
      ? [
          "//",
          "// Secret values (never read by the import) and the secrets the service never returns are read from",
          "// the stack's config. Set each before `pulumi up` (the value the service holds: adoption sends",
          "// no value the service holds, a later change is sent):",
          ...secrets.map((s) => `//   pulumi config set --secret ${s.key}`),
        ]
      : []),
  ];
  const declared = [...constants].filter(([id]) => constantsUsed.has(id));
  const source = [
    ...header,
    "",
    ...(secrets.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as secretops from "secretops-pulumi";',
    "",
    ...(secrets.length ? ["const config = new pulumi.Config();", ""] : []),
    ...declared.map(([id, name]) => `const ${name} = ${JSON.stringify(id)};`),
    ...(declared.length ? [""] : []),
    blocks.join("\n\n"),
    "",
  ].join("\n");
  return { source, secrets, skipped, counts };
}

/** The TypeScript a written program installs (`npm install`): the newest its tests run with. */
export const PROGRAM_TYPESCRIPT = "~6.0.3";

export interface ProgramFilesOptions {
  /** The project's name (Pulumi.yaml, package.json). */
  name: string;
  /** The module's file name, without .ts. */
  module: string;
  /** package.json's specifier of this package: as the importing user has it (import.ts's `installedSpec`). */
  packageSpec: string;
  /** package.json's specifier of @pulumi/pulumi. */
  pulumiSpec: string;
}

/**
 * The files of a whole program around the module, by file name. Its tsconfig works with every
 * TypeScript the engine can run a program with (`nodenext` from 4.7, as the engine's own default;
 * TypeScript 6 refuses `node`), and the stack's outputs are the resources' ids, by variable.
 */
export function programFiles(o: ProgramFilesOptions): Map<string, string> {
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  return new Map([
    [
      "Pulumi.yaml",
      `name: ${o.name}\ndescription: Objects brought under code by secretops import.\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    ],
    [
      "package.json",
      json({
        name: o.name,
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": o.pulumiSpec, "secretops-pulumi": o.packageSpec },
        devDependencies: { "@types/node": "^20.0.0", typescript: PROGRAM_TYPESCRIPT },
      }),
    ],
    [
      "tsconfig.json",
      json({
        compilerOptions: {
          strict: true,
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          esModuleInterop: true,
          skipLibCheck: true,
          noEmit: true,
          types: ["node"],
        },
        files: ["index.ts", `${o.module}.ts`],
      }),
    ],
    [
      "index.ts",
      [
        'import type { CustomResource } from "@pulumi/pulumi";',
        `import * as imported from "./${o.module}";`,
        "",
        `// The stack's outputs: the id of every resource of ./${o.module}, by its variable.`,
        "export const ids = Object.fromEntries(",
        "  Object.entries(imported as Record<string, CustomResource>).map(([name, resource]) => [name, resource.id]),",
        ");",
        "",
      ].join("\n"),
    ],
  ]);
}
