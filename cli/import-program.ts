import { appConnectionKind, enrollmentTypes, knownSyncDestinationRow, rotationType } from "../sdk/schemas";
import type { AppConnection, CertificateProfile, SecretRotation, SecretSync } from "../sdk/schemas";
import { appConnectionDefinition } from "../provider/app-connection";
import { certificateProfileDefinition } from "../provider/certificate-profile";
import type { Field } from "../provider/definition";
import { secretRotationDefinition } from "../provider/secret-rotation";
import { secretSyncDefinition } from "../provider/secret-sync";
import { type Plain, isPlainObject } from "../provider/values";
import { counted } from "./common";

/**
 * `secretops import`'s writer: the service's objects, as its list routes report them, become one
 * resource each of a TypeScript Pulumi program. Each resource's args are its definition's
 * `reported` fields (what `diff` compares against), so an adopted object differs from its
 * program in nothing; the secrets the service never returns become `config.requireSecret` reads.
 */

export type Family = "connections" | "syncs" | "rotations" | "profiles";
export const FAMILIES: readonly Family[] = ["connections", "syncs", "rotations", "profiles"];

/** `2 connections, 1 sync, 0 rotations, 0 profiles`. */
export const familyCounts = (counts: Record<Family, number>) =>
  FAMILIES.map((f) => counted(counts[f], f.slice(0, -1), f)).join(", ");

/** The objects read from the service, by family. */
export interface Found {
  connections: AppConnection[];
  syncs: SecretSync[];
  rotations: SecretRotation[];
  profiles: CertificateProfile[];
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
}

/** How one family's objects become resources: a row each. */
interface FamilyRow<Remote> {
  /** The resource class (`secretops.<className>`); `untyped` for a kind the package has no row for. */
  className: string;
  untypedClassName?: string;
  /** Suffix of the variable names (`vercelProdSync`). */
  suffix: string;
  reported: Readonly<Record<string, Field<Remote>>>;
  /** The name the service knows it by (its logical name in the program). */
  nameOf(remote: Remote): string;
  /** Undefined when the package types the kind; otherwise why (and whether it can be written untyped). */
  untyped(remote: Remote): { reason: string; writable: boolean } | undefined;
  /** The secret arg paths the object's kind takes, which the service never returns. */
  secretPaths(args: Plain): string[];
}

const rows: { [F in Family]: FamilyRow<Found[F][number]> } = {
  connections: {
    className: "AppConnection",
    suffix: "Connection",
    reported: appConnectionDefinition.reported,
    nameOf: (c) => c.name,
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
    className: "SecretSync",
    untypedClassName: "GenericSecretSync",
    suffix: "Sync",
    reported: secretSyncDefinition.reported,
    nameOf: (s) => s.name,
    untyped: (s) =>
      knownSyncDestinationRow(s.destination)
        ? undefined
        : { reason: `destination "${s.destination}" is newer than this package`, writable: true },
    secretPaths: () => [],
  },
  rotations: {
    className: "SecretRotation",
    suffix: "Rotation",
    reported: secretRotationDefinition.reported,
    nameOf: (r) => r.name,
    untyped: (r) =>
      rotationType(r.type)
        ? undefined
        : { reason: `rotation type "${r.type}" is newer than this package`, writable: false },
    secretPaths: () => [],
  },
  profiles: {
    className: "CertificateProfile",
    suffix: "Profile",
    reported: certificateProfileDefinition.reported,
    nameOf: (p) => p.slug,
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
};

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

/** `vercel-prod` → `vercelProd`. */
function camel(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words
    .map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w[0]!.toLowerCase() + w.slice(1)))
    .join("");
  return /^[0-9]/.test(joined) || !joined ? `_${joined}` : joined;
}

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

/**
 * The module for these objects. Resources appear family by family (connections first, which the
 * others reference by variable), each family in name order, so that a second import of the same
 * objects writes the same file.
 */
export function importProgram(found: Found, options: WriteOptions): ImportProgram {
  const variables = uniqueNames();
  const configKeys = uniqueNames();
  const skipped: Skipped[] = [];
  const secrets: SecretConfig[] = [];
  const counts: Record<Family, number> = { connections: 0, syncs: 0, rotations: 0, profiles: 0 };
  const connectionVariables = new Map<string, string>();
  const blocks: string[] = [];
  const projects = new Map<string, string>();
  const projectIds = [...new Set(FAMILIES.flatMap((f) => found[f].map(projectOf)))]
    .filter((p): p is string => typeof p === "string")
    .sort();
  projectIds.forEach((id, i) => projects.set(id, projectIds.length === 1 ? "projectId" : `projectId${i + 1}`));

  for (const family of FAMILIES) {
    const row = rows[family] as FamilyRow<{ id: string }>;
    const names = uniqueNames("-");
    // By name, then project and id: the same objects always give the same file.
    const order = (o: { id: string }) => [row.nameOf(o), projectOf(o) ?? "", o.id].join("\u0000");
    const objects = [...(found[family] as { id: string }[])].sort((a, b) => (order(a) < order(b) ? -1 : 1));
    // A name the family uses in several projects (or scopes) gets the project's number.
    const uses = new Map<string, number>();
    for (const o of objects) uses.set(row.nameOf(o), (uses.get(row.nameOf(o)) ?? 0) + 1);
    for (const remote of objects) {
      const serviceName = row.nameOf(remote);
      const project = projectOf(remote);
      const scope = project ? projects.get(project)!.replace("projectId", "p") : "org";
      const untyped = row.untyped(remote);
      if (untyped && !untyped.writable) {
        skipped.push({ family, name: serviceName, reason: `${untyped.reason}: not written` });
        continue;
      }
      if (untyped)
        skipped.push({ family, name: serviceName, reason: `${untyped.reason}: written as ${row.untypedClassName}` });
      const resourceName = names(uses.get(serviceName)! > 1 ? `${serviceName}-${scope}` : serviceName);
      const variable = variables(camel(resourceName) + row.suffix);
      if (family === "connections") connectionVariables.set(remote.id, variable);

      const args: Plain = {};
      for (const [k, field] of Object.entries(row.reported)) {
        const v = field(remote);
        if (v !== undefined && v !== null) args[k] = v;
      }
      const comments: string[] = [];
      for (const path of row.secretPaths(args)) {
        const key = configKeys(camel(`${resourceName}-${row.suffix}-${path.split(".").pop()!}`));
        setPath(args, path, new Code(`config.requireSecret(${JSON.stringify(key)})`));
        secrets.push({ key, resource: resourceName, path });
      }
      if (typeof args.projectId === "string" && projects.has(args.projectId)) {
        args.projectId = new Code(projects.get(args.projectId)!);
      }
      if (typeof args.connectionId === "string") {
        const connection = connectionVariables.get(args.connectionId);
        if (connection) args.connectionId = new Code(`${connection}.id`);
        else comments.push(`connectionId: a connection this import did not write (${args.connectionId})`);
      }
      if (untyped) comments.push(`${untyped.reason}: its fields are not checked by this package`);
      if (args.isPlatformManagedCredentials === true) {
        comments.push(
          "platform-managed credentials: the service holds their secret parts and refuses to change them, so keep the config value as set",
        );
      }
      const className = untyped ? row.untypedClassName! : row.className;
      const construct = `export const ${variable} = new secretops.${className}(`;
      const argsWith = { ...args, adoptExisting: true };
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
    `// (${familyCounts(counts)}), each adopting the object the service already has.`,
    "// Every field is as the service reported it; `adoptExisting` may be removed after the first `pulumi up`.",
    ...(options.retainOnDelete
      ? ["// retainOnDelete: removing a resource or destroying the stack leaves its object at the service."]
      : []),
    ...(secrets.length
      ? [
          "//",
          "// Secrets the service never returns are read from the stack's config. Set each before `pulumi up`",
          "// (the value the service holds: adoption does not send it, a later change does):",
          ...secrets.map((s) => `//   pulumi config set --secret ${s.key}`),
        ]
      : []),
  ];
  const source = [
    ...header,
    "",
    ...(secrets.length ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as secretops from "secretops-pulumi";',
    "",
    ...(secrets.length ? ["const config = new pulumi.Config();", ""] : []),
    ...[...projects].map(([id, name]) => `const ${name} = ${JSON.stringify(id)};`),
    ...(projects.size ? [""] : []),
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
