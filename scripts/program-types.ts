/**
 * `npm run types`: writes provider/program-types.ts, the declarations a TypeScript program checks
 * against (each resource class's constructor, args and outputs), from the types each resource
 * derives from its schemas and kind rows (provider/<resource>.ts), as `npm run schema` writes
 * schema.json from them.
 *
 * Why: the provider is written against the derived types, but a program checked against them
 * makes the compiler evaluate the schemas' library types on every run (`pulumi` runs a TypeScript
 * program through ts-node, type-checked): about a second of the quickstart's type-check. The same
 * types written out as plain interfaces cost a small fraction of that (docs/benchmarks.md).
 *
 * The compiler resolves the derived types here and this writes what it resolved, field by field
 * with the schemas' docs, so the two cannot differ but by a stale file:
 * tests/docs/program-types.test.ts fails then, and checks that every kind's declaration and
 * derived type take the same args.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { appConnectionApps, appConnectionKinds } from "../sdk/schemas/app-connections";
import { enrollmentTypeNames } from "../sdk/schemas/certificate-profiles";
import { identityAuthMethodSlugs } from "../sdk/schemas/identities";
import { rotationTypeSlugs } from "../sdk/schemas/secret-rotations";
import { syncDestinationSlugs } from "../sdk/schemas/secret-syncs";
import { appConnectionDefinition } from "../provider/app-connection";
import { appConnectionSettingsDefinition } from "../provider/app-connection-settings";
import { certificateAuthorityDefinition } from "../provider/certificate-authority";
import { certificatePolicyDefinition } from "../provider/certificate-policy";
import { certificateProfileDefinition } from "../provider/certificate-profile";
import {
  type DefinitionShape,
  type ResourceType,
  outputNames,
  resourceTypes,
  secretProperties,
} from "../provider/definition";
import { identityAuthDefinition } from "../provider/identity-auth";
import { identityClientSecretDefinition } from "../provider/identity-client-secret";
import { machineIdentityDefinition } from "../provider/machine-identity";
import { projectIdentityMembershipDefinition } from "../provider/project-identity-membership";
import { projectRoleDefinition } from "../provider/project-role";
import { projectDefinition } from "../provider/project";
import { projectEnvironmentDefinition } from "../provider/project-environment";
import { secretDefinition } from "../provider/secret";
import { secretFolderDefinition } from "../provider/secret-folder";
import { secretRotationDefinition } from "../provider/secret-rotation";
import { secretSyncDefinition } from "../provider/secret-sync";
import { TIMEOUTS, runSync } from "./run-sync";
import { virtualProgram } from "./virtual-program";

/** The checkout: this file's parent, or (compiled into node_modules/.cache/types/scripts) four up. */
const root = [path.resolve(__dirname, ".."), path.resolve(__dirname, "..", "..", "..", "..")].find((d) =>
  fs.existsSync(path.join(d, "provider", "definition.ts")),
)!;
export const PROGRAM_TYPES_FILE = path.join(root, "provider", "program-types.ts");
export const PROGRAM_RESOURCES_FILE = path.join(root, "provider", "program-resources.ts");

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());
const camel = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** A resource class: its module, and for one whose args depend on a kind, the kind field, its type parameter and slugs. */
interface ResourceClass {
  cls: string;
  module: string;
  kind?: { field: string; param: string; slugs: readonly string[] };
}

const connectionMethods = (app: string): string[] =>
  Object.keys((appConnectionKinds as Record<string, { methods: object }>)[app]!.methods);

const resources: ResourceClass[] = [
  { cls: "SecretSync", module: "secret-sync", kind: { field: "destination", param: "D", slugs: syncDestinationSlugs } },
  { cls: "SecretRotation", module: "secret-rotation", kind: { field: "type", param: "T", slugs: rotationTypeSlugs } },
  {
    cls: "CertificateProfile",
    module: "certificate-profile",
    kind: { field: "enrollmentType", param: "T", slugs: enrollmentTypeNames },
  },
  // A connection's kind is its `app` and `method`: its args are written by method below.
  { cls: "AppConnection", module: "app-connection" },
  {
    cls: "AppConnectionSettings",
    module: "app-connection-settings",
    kind: { field: "app", param: "A", slugs: appConnectionApps },
  },
  { cls: "Project", module: "project" },
  { cls: "ProjectEnvironment", module: "project-environment" },
  { cls: "SecretFolder", module: "secret-folder" },
  { cls: "Secret", module: "secret" },
  { cls: "CertificateAuthority", module: "certificate-authority" },
  { cls: "CertificatePolicy", module: "certificate-policy" },
  { cls: "MachineIdentity", module: "machine-identity" },
  {
    cls: "IdentityAuth",
    module: "identity-auth",
    kind: { field: "method", param: "M", slugs: identityAuthMethodSlugs },
  },
  { cls: "IdentityClientSecret", module: "identity-client-secret" },
  { cls: "ProjectRole", module: "project-role" },
  { cls: "ProjectIdentityMembership", module: "project-identity-membership" },
];

/**
 * Each derived type a declaration is written from, by key, and the declaration written for it.
 * `modules` is where the provider's modules are, as an import names them.
 */
export function derivedTypes(modules = "../provider"): Map<string, { derived: string; declared: string }> {
  const types = new Map<string, { derived: string; declared: string }>();
  const from = (module: string, name: string) => `import("${modules}/${module}").${name}`;
  const declared = (name: string) => from("program-types", name);
  for (const r of resources) {
    types.set(`${r.cls}:instance`, {
      derived: `${from("program-side", "ResourceOf")}<typeof ${from(r.module, `${camel(r.cls)}Definition`)}>`,
      declared: declared(r.cls),
    });
    if (r.kind)
      for (const k of r.kind.slugs)
        types.set(`${r.cls}:${k}`, {
          derived: `${from(r.module, `${r.cls}Args`)}<"${k}">`,
          declared: `${declared(`${r.cls}Args`)}<"${k}">`,
        });
    else if (r.cls !== "AppConnection")
      types.set(`${r.cls}:args`, { derived: from(r.module, `${r.cls}Args`), declared: declared(`${r.cls}Args`) });
  }
  for (const app of appConnectionApps)
    for (const m of connectionMethods(app))
      types.set(`AppConnection:${app}:${m}`, {
        derived: `${from("app-connection", "AppConnectionArgs")}<"${app}", "${m}">`,
        declared: `${declared("AppConnectionArgs")}<"${app}", "${m}">`,
      });
  const others: [string, string][] = [
    ["secret-sync", "GenericSecretSyncArgs"],
    ["secret-sync", "SecretSyncCommonArgs"],
    ["secret-rotation", "SecretRotationCommonArgs"],
    ["audit-logs", "GetAuditLogsArgs"],
    ["audit-logs", "GetAuditLogsResult"],
  ];
  for (const [module, name] of others) types.set(name, { derived: from(module, name), declared: declared(name) });
  return types;
}

/** One field as written, its doc and `name?: type;` (nested interfaces as placeholders until named). */
interface FieldText {
  doc: string[];
  line: string;
}

/** Where a nested interface is used: its resource, kind and path (`DestinationConfig`). */
interface Use {
  prefix: string;
  kind: string;
  path: string;
}

/** Writes TypeScript for the compiler's resolved types. */
class Writer {
  /** Nested interfaces by body (placeholders inside), each with where it is used. */
  private readonly bodies = new Map<string, { id: number; uses: Use[] }>();
  constructor(
    private readonly checker: ts.TypeChecker,
    /** Whether a type is one of the standard library's (`Date`), written by its name. */
    private readonly isStandard: (t: ts.Type) => boolean,
  ) {}

  private members(t: ts.Type): readonly ts.Type[] {
    return t.isUnion() ? t.types : [t];
  }
  /** `X` of an `OutputInstance<X>`, or of an intersection holding one (an `ObjectInput`'s member). */
  private outputOf(t: ts.Type): ts.Type | undefined {
    for (const p of t.isIntersection() ? t.types : [t]) {
      if (p.getSymbol()?.getName() === "OutputInstance") return this.checker.getTypeArguments(p as ts.TypeReference)[0];
    }
    return undefined;
  }
  private isNullish(t: ts.Type) {
    return (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) !== 0;
  }

  /**
   * A field of a program's args: a `pulumi.Input` or an `ObjectInput` as `DeepInput`
   * (provider/inputs.ts) made it, recognized by its `Output` member, or as it is.
   */
  input(t: ts.Type, use: Use): string {
    const outputs = this.members(t).filter((m) => this.outputOf(m));
    if (outputs.length === 0) return this.plain(t, use);
    const objectInputs = outputs.filter((m) => m.isIntersection());
    if (objectInputs.length === 0) return `pulumi.Input<${this.plain(this.outputOf(outputs[0]!)!, use, true)}>`;
    // `DeepInput` of a union of objects is one `ObjectInput` per object.
    return objectInputs
      .map((m, i) => {
        const x = this.members(this.outputOf(m)!);
        const nullish = x.filter((o) => this.isNullish(o)).map((n) => this.checker.typeToString(n));
        const object = x.find((o) => !this.isNullish(o))!;
        const path = objectInputs.length > 1 ? `${use.path}${i + 1}` : use.path;
        const ref = this.nested(object, { ...use, path });
        return `ObjectInput<${ref}${nullish.length ? `, ${nullish.join(" | ")}` : ""}>`;
      })
      .join(" | ");
  }

  /** A type as written; `elementsAreInputs`: an array's elements are a program's (each an `Input`). */
  plain(t: ts.Type, use: Use, elementsAreInputs = false): string {
    const c = this.checker;
    // A `pulumi.Input` inside what is not a program's args (`GenericSecretSync`'s untyped options).
    if (this.members(t).some((m) => this.outputOf(m))) return this.input(t, use);
    if (t.isUnion()) {
      // `boolean` is `true | false`; nullish members last, as one writes them.
      const literals = t.types.map((p) => c.typeToString(p));
      const bool = literals.includes("true") && literals.includes("false");
      const parts = new Set<string>();
      for (const p of [...t.types.filter((p) => !this.isNullish(p)), ...t.types.filter((p) => this.isNullish(p))]) {
        const s = c.typeToString(p);
        parts.add(bool && (s === "true" || s === "false") ? "boolean" : this.plain(p, use, elementsAreInputs));
      }
      return [...parts].join(" | ");
    }
    const simple =
      ts.TypeFlags.Literal |
      ts.TypeFlags.BooleanLiteral |
      ts.TypeFlags.String |
      ts.TypeFlags.Number |
      ts.TypeFlags.Boolean |
      ts.TypeFlags.BigInt |
      ts.TypeFlags.Null |
      ts.TypeFlags.Undefined |
      ts.TypeFlags.Never |
      ts.TypeFlags.Unknown |
      ts.TypeFlags.Any |
      ts.TypeFlags.Void;
    if (t.flags & simple) return c.typeToString(t);
    if (c.isArrayType(t)) {
      const e = c.getTypeArguments(t as ts.TypeReference)[0]!;
      const item = { ...use, path: `${use.path}Item` };
      const inner = elementsAreInputs ? this.input(e, item) : this.plain(e, item);
      const ro = t.getSymbol()?.getName() === "ReadonlyArray" ? "readonly " : "";
      return / [|&] /.test(inner) ? `${ro}(${inner})[]` : `${ro}${inner}[]`;
    }
    if (this.isStandard(t)) return c.typeToString(t);
    if (c.isTupleType(t))
      return `[${c
        .getTypeArguments(t as ts.TypeReference)
        .map((e) => this.plain(e, use))
        .join(", ")}]`;
    if (t.flags & ts.TypeFlags.Object || t.isIntersection()) {
      const fields = this.fields(t, use, false).map((f) => f.line);
      return fields.length ? `{ ${fields.join(" ")} }` : "{}";
    }
    throw new Error(`program-types: cannot write ${c.typeToString(t)} (${use.prefix}${use.path})`);
  }

  /** An object type's fields (`asInputs`: a program's, each an `Input`), with their docs. */
  fields(t: ts.Type, use: Use, asInputs: boolean): FieldText[] {
    const c = this.checker;
    const out: FieldText[] = [];
    for (const info of c.getIndexInfosOfType(t)) {
      const v = asInputs ? this.input(info.type, use) : this.plain(info.type, use);
      out.push({ doc: [], line: `[key: ${c.typeToString(info.keyType)}]: ${v};` });
    }
    for (const p of c.getPropertiesOfType(t)) {
      // An optional field's type holds the `undefined` its `?` adds: written with the `?`, it changes nothing.
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0 ? "?" : "";
      const type = c.getTypeOfSymbol(p);
      const fieldUse = { ...use, path: `${use.path}${pascal(p.getName())}` };
      const v = asInputs ? this.input(type, fieldUse) : this.plain(type, fieldUse);
      const key = /^[A-Za-z_$][\w$]*$/.test(p.getName()) ? p.getName() : JSON.stringify(p.getName());
      out.push({
        doc: docLines(ts.displayPartsToString(p.getDocumentationComment(c))),
        line: `${key}${optional}: ${v};`,
      });
    }
    return out;
  }

  /** A nested object of a program's args: an interface, named once every use is known. */
  private nested(t: ts.Type, use: Use): string {
    const body = block(this.fields(t, use, true));
    let entry = this.bodies.get(body);
    if (!entry) this.bodies.set(body, (entry = { id: this.bodies.size, uses: [] }));
    entry.uses.push(use);
    return `\u0000${entry.id}\u0000`;
  }

  /** A resource instance's outputs: each field that is a `pulumi.Output`, but `urn` and `id` (every resource's). */
  outputs(t: ts.Type, cls: string): FieldText[] {
    const c = this.checker;
    const out: FieldText[] = [];
    for (const p of c.getPropertiesOfType(t)) {
      // `Output<T>` of a union `T` is a union of `OutputInstance<T>`s (and what `Lifted` adds).
      const x = this.members(c.getTypeOfSymbol(p))
        .map((m) => this.outputOf(m))
        .find((m) => m);
      if (!x || p.getName() === "urn" || p.getName() === "id") continue;
      const v = this.plain(x, { prefix: cls, kind: "", path: pascal(p.getName()) });
      out.push({
        doc: docLines(ts.displayPartsToString(p.getDocumentationComment(c))),
        line: `readonly ${p.getName()}: pulumi.Output<${v}>;`,
      });
    }
    return out;
  }

  /**
   * Names every nested interface, and writes `items` and the interfaces with each placeholder
   * replaced by its name. An interface whose resource and path (`SecretSyncSyncOptions`) have this
   * one body wherever they occur is named by them; else each kind has its own, named by its kind
   * too (`SecretSyncGithubDestinationConfig`). A placeholder is named in the kind of the text
   * holding it.
   */
  write(items: Item[]): string[] {
    const bodiesAt = new Map<string, number>();
    for (const { uses } of this.bodies.values())
      for (const at of new Set(uses.map((u) => u.prefix + u.path))) bodiesAt.set(at, (bodiesAt.get(at) ?? 0) + 1);
    const byId = new Map([...this.bodies].map(([body, e]) => [e.id, { body, ...e }]));
    const isShared = (uses: Use[]) =>
      uses.every((u) => u.prefix + u.path === uses[0]!.prefix + uses[0]!.path) &&
      bodiesAt.get(uses[0]!.prefix + uses[0]!.path) === 1;
    const nameOf = (id: number, kind: string) => {
      const { uses } = byId.get(id)!;
      const u = isShared(uses) ? { ...uses[0]!, kind: "" } : (uses.find((v) => v.kind === kind) ?? uses[0]!);
      return u.prefix + u.kind + u.path;
    };
    const resolve = (text: string, kind: string) =>
      text.replace(/\u0000(\d+)\u0000/g, (_m, id: string) => nameOf(Number(id), kind));
    const nested = [...byId].flatMap(([id, { body, uses }]) => {
      const kinds = isShared(uses) ? [""] : [...new Set(uses.map((u) => u.kind))];
      return kinds.map((kind) => `export interface ${nameOf(id, kind)} ${resolve(body, kind)}`);
    });
    return [...items.map((i) => resolve(i.text, i.kind)), ...nested];
  }
}

function docLines(doc: string): string[] {
  const lines = doc
    .trim()
    .split("\n")
    .filter((l, i, all) => l || (i > 0 && i < all.length - 1));
  if (lines.length === 0 || !lines[0]) return [];
  if (lines.length === 1) return [`/** ${lines[0]} */`];
  return ["/**", ...lines.map((l) => (l ? ` * ${l}` : " *")), " */"];
}

/** Fields as an interface's body. */
function block(fields: FieldText[], indent = "  "): string {
  if (fields.length === 0) return "{}";
  return `{\n${fields.flatMap((f) => [...f.doc, f.line].map((l) => indent + l)).join("\n")}\n}`;
}

const same = (a: FieldText, b: FieldText) => a.line === b.line && a.doc.join("\n") === b.doc.join("\n");

/** Generated text, and the kind its nested interfaces' names are of (`""`: none). */
interface Item {
  text: string;
  kind: string;
}

/**
 * A kind-dependent resource's args: the fields every kind has alike in `<Class>CommonArgs`, and
 * each kind's (each of its alternatives', when its args are a union) in an interface extending it.
 */
function kindArgs(
  w: Writer,
  cls: string,
  kinds: { kind: string; name: string; type: ts.Type }[],
): { items: Item[]; common: FieldText[] } {
  const variants = kinds.flatMap(({ kind, name, type }) => {
    const members = type.isUnion() ? type.types : [type];
    return members.map((m, i) => ({
      kind,
      name: members.length > 1 ? `${name}${i + 1}` : name,
      fields: w.fields(m, { prefix: cls, kind, path: "" }, true),
    }));
  });
  const common = variants[0]!.fields.filter((f) => variants.every((v) => v.fields.some((g) => same(f, g))));
  const items: Item[] = [
    {
      text: `/** The args every ${cls} has alike, whatever its kind. */\nexport interface ${cls}CommonArgs ${block(common)}`,
      kind: "",
    },
  ];
  for (const v of variants) {
    const own = v.fields.filter((f) => !common.some((g) => same(f, g)));
    items.push({ text: `export interface ${v.name} extends ${cls}CommonArgs ${block(own)}`, kind: v.kind });
  }
  for (const { name, type } of kinds)
    if (type.isUnion())
      items.push({
        text: `export type ${name} = ${type.types.map((_, i) => `${name}${i + 1}`).join(" | ")};`,
        kind: "",
      });
  return { items, common };
}

/** The compiler's resolved type of each derived type (`derivedTypes`), by its key. */
function resolvedTypes(): {
  checker: ts.TypeChecker;
  isStandard(t: ts.Type): boolean;
  typeOf(key: string): ts.Type;
  docOf(module: string, name: string): string;
} {
  const scratch = path.join(root, "scripts", "__program-types__.ts");
  const derived = [...derivedTypes()];
  const text = derived.map(([, { derived: type }], i) => `export type T${i} = ${type};`).join("\n");
  // The entry too: GenericSecretSync's doc is there.
  const withEntry = `${text}\nexport type Entry = typeof import("../provider/index");\n`;
  const program = virtualProgram(new Map([[scratch, withEntry]]), { resolveJsonModule: true });
  const checker = program.getTypeChecker();
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(scratch)!)!);
  const byName = new Map(exported.map((s) => [s.getName(), s]));
  const index = new Map(derived.map(([key], i) => [key, `T${i}`]));
  const isStandard = (t: ts.Type) =>
    !!(t.aliasSymbol ?? t.getSymbol())?.declarations?.some((d) =>
      program.isSourceFileDefaultLibrary(d.getSourceFile()),
    );
  const docOf = (module: string, name: string) => {
    const source = program.getSourceFile(path.join(root, "provider", `${module}.ts`))!;
    const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((e) => e.getName() === name);
    return symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)) : "";
  };
  return {
    checker,
    isStandard,
    docOf,
    typeOf: (key) => checker.getDeclaredTypeOfSymbol(byName.get(index.get(key)!)!),
  };
}

/** A resource class's constructor type: `doc` is the class's, on the interface and on `new`. */
const ctor = (cls: string, doc: string, params: string, args: string, instance = cls) =>
  `${docBlock(doc)}export interface ${cls}Constructor {\n${docBlock(doc, "  ")}  new ${params}(\n    name: string,\n    args: ${args},\n    opts?: pulumi.CustomResourceOptions,\n  ): ${instance};\n}`;

/** A doc comment, or nothing. */
const docBlock = (doc: string, indent = "") =>
  docLines(doc)
    .map((l) => `${indent}${l}\n`)
    .join("");

/** A kind-dependent resource's args by kind, kind type, generic args type and constructor. */
function byKind(r: ResourceClass & { kind: object }, name: (k: string) => string, doc: string): Item[] {
  const { field, param, slugs } = r.kind!;
  const map = `${r.cls}ArgsBy${pascal(field)}`;
  const kindType = `${r.cls}${pascal(field)}`;
  return [
    `/** Each \`${field}\`'s args. */\nexport interface ${map} {\n${slugs.map((k) => `  ${JSON.stringify(k)}: ${name(k)};`).join("\n")}\n}`,
    `/** A ${r.cls}'s \`${field}\`: one this package has a row for. */\nexport type ${kindType} = keyof ${map};`,
    `/** Args of a ${r.cls} whose \`${field}\` is \`${param}\` (by default any: the union of each one's, discriminated by \`${field}\`). */\nexport type ${r.cls}Args<${param} extends ${kindType} = ${kindType}> = ${map}[${param}];`,
    ctor(
      r.cls,
      `${doc}\n\n\`new ${r.cls}(name, args)\`: the \`${field}\` is inferred from \`args\`.`,
      `<${param} extends string = string>`,
      // `{ ${field}: ${param} }` also, for the compiler to infer the kind from.
      `${param} extends ${kindType} ? ${map}[${param}] & { ${field}: ${param} } : { ${field}: ${kindType} }`,
    ),
  ].map((text) => ({ text, kind: "" }));
}

/** AppConnection's args by app and method, its app type, generic args type and constructor. */
function connectionsByApp(doc: string): Item[] {
  const byApp = appConnectionApps.map(
    (app) =>
      `  ${JSON.stringify(app)}: {\n${connectionMethods(app)
        .map((m) => `    ${JSON.stringify(m)}: AppConnection${pascal(app)}${pascal(m)}Args;`)
        .join("\n")}\n  };`,
  );
  return [
    `/** Each connection kind's args, by \`app\` and \`method\`. */\nexport interface AppConnectionArgsByApp {\n${byApp.join("\n")}\n}`,
    "/** An AppConnection's `app`: a kind this package has a row for. */\nexport type AppConnectionApp = keyof AppConnectionArgsByApp;",
    // A conditional type: through it the compiler infers the constructor's `M` from `method`; through
    // `keyof AppConnectionArgsByApp[A]` written in the constructor it does not.
    "/** The methods of the connection kind `A`. */\nexport type AppConnectionMethod<A extends string> = A extends AppConnectionApp ? keyof AppConnectionArgsByApp[A] & string : never;",
    "/**\n * Args of a connection of kind `A` (by default any: the union of each kind's, discriminated by\n * `app`), with one of the methods `M` (by default any of the kind's).\n */\n" +
      "export type AppConnectionArgs<A extends AppConnectionApp = AppConnectionApp, M extends string = string> = A extends AppConnectionApp\n  ? AppConnectionArgsByApp[A][M & keyof AppConnectionArgsByApp[A]]\n  : never;",
    ctor(
      "AppConnection",
      `${doc}\n\n\`new AppConnection(name, args)\`: the kind and the method are inferred from \`args\`.`,
      "<A extends string = string, M extends string = string>",
      "A extends AppConnectionApp\n      ? [AppConnectionMethod<A> & M] extends [never]\n        ? { app: A; method: AppConnectionMethod<A> }\n        : // `app` and `method` also here, for the compiler to infer A and M from.\n          AppConnectionArgs<A, M> & { app: A; method: pulumi.Input<M> }\n      : { app: AppConnectionApp }",
    ),
  ].map((text) => ({ text, kind: "" }));
}

export function programTypes(): string {
  const { checker, isStandard, typeOf, docOf } = resolvedTypes();
  const w = new Writer(checker, isStandard);
  const items: Item[] = [];
  /** Each kind-dependent resource's `<Class>CommonArgs` fields. */
  const commonArgs = new Map<string, FieldText[]>();
  const addKindArgs = (cls: string, kinds: Parameters<typeof kindArgs>[2]) => {
    const { items: written, common } = kindArgs(w, cls, kinds);
    commonArgs.set(cls, common);
    items.push(...written);
  };
  for (const r of resources) {
    const doc = docOf(r.module, `${camel(r.cls)}Definition`);
    if (r.cls === "AppConnection") {
      const kinds = appConnectionApps.flatMap((app) =>
        connectionMethods(app).map((m) => ({
          kind: pascal(app) + pascal(m),
          name: `AppConnection${pascal(app)}${pascal(m)}Args`,
          type: typeOf(`AppConnection:${app}:${m}`),
        })),
      );
      addKindArgs(r.cls, kinds);
      items.push(...connectionsByApp(doc));
    } else if (r.kind) {
      const name = (k: string) => `${r.cls}${pascal(k)}Args`;
      const kinds = r.kind.slugs.map((k) => ({ kind: pascal(k), name: name(k), type: typeOf(`${r.cls}:${k}`) }));
      addKindArgs(r.cls, kinds);
      items.push(...byKind(r as ResourceClass & { kind: object }, name, doc));
    } else {
      const t = typeOf(`${r.cls}:args`);
      const members = t.isUnion() ? t.types : [t];
      const name = (i: number) => `${r.cls}Args${members.length > 1 ? i + 1 : ""}`;
      members.forEach((m, i) =>
        items.push({
          text: `export interface ${name(i)} ${block(w.fields(m, { prefix: r.cls, kind: "", path: "" }, true))}`,
          kind: "",
        }),
      );
      if (members.length > 1)
        items.push({ text: `export type ${r.cls}Args = ${members.map((_, i) => name(i)).join(" | ")};`, kind: "" });
      items.push({ text: ctor(r.cls, doc, "", `${r.cls}Args`), kind: "" });
    }
    const outputs = block(w.outputs(typeOf(`${r.cls}:instance`), r.cls));
    items.push({
      text: `${docBlock(doc)}export interface ${r.cls} extends pulumi.CustomResource ${outputs}`,
      kind: "",
    });
  }

  // GenericSecretSyncArgs: the common fields, and its own (destination, destinationConfig and syncOptions untyped).
  const common = commonArgs.get("SecretSync")!;
  const generic = w.fields(typeOf("GenericSecretSyncArgs"), { prefix: "GenericSecretSync", kind: "", path: "" }, true);
  const own = generic.filter((f) => !common.some((g) => same(f, g)));
  items.push(
    {
      text: `${docBlock(docOf("secret-sync", "GenericSecretSyncArgs"))}export interface GenericSecretSyncArgs extends SecretSyncCommonArgs ${block(own)}`,
      kind: "",
    },
    {
      text: ctor("GenericSecretSync", docOf("index", "GenericSecretSync"), "", "GenericSecretSyncArgs", "SecretSync"),
      kind: "",
    },
  );
  for (const name of ["GetAuditLogsArgs", "GetAuditLogsResult"])
    items.push({
      text: `${docBlock(docOf("audit-logs", name))}export interface ${name} ${block(w.fields(typeOf(name), { prefix: name, kind: "", path: "" }, false))}`,
      kind: "",
    });

  const text = [
    "// Generated by `npm run types` (scripts/program-types.ts) from the types each resource derives",
    "// from its schemas and kind rows. Do not edit: change those and run it again.",
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { ObjectInput } from "./inputs";',
    "",
    ...w.write(items).flatMap((t) => [t, ""]),
  ].join("\n");
  return formatted(text, PROGRAM_TYPES_FILE);
}

/**
 * provider/program-resources.ts: what each resource class registers, from its definition (its
 * output names and its top-level args holding secrets), so that the program's classes
 * (provider/program-side.ts) need not load the definitions and their schemas.
 */
export function programResources(): string {
  const definitions: Record<ResourceType, DefinitionShape> = {
    SecretSync: secretSyncDefinition,
    SecretRotation: secretRotationDefinition,
    CertificateProfile: certificateProfileDefinition,
    AppConnection: appConnectionDefinition,
    AppConnectionSettings: appConnectionSettingsDefinition,
    Project: projectDefinition,
    ProjectEnvironment: projectEnvironmentDefinition,
    SecretFolder: secretFolderDefinition,
    Secret: secretDefinition,
    CertificateAuthority: certificateAuthorityDefinition,
    CertificatePolicy: certificatePolicyDefinition,
    MachineIdentity: machineIdentityDefinition,
    IdentityAuth: identityAuthDefinition,
    IdentityClientSecret: identityClientSecretDefinition,
    ProjectRole: projectRoleDefinition,
    ProjectIdentityMembership: projectIdentityMembershipDefinition,
  };
  const rows = resourceTypes.map((type) => {
    const d = definitions[type];
    return `  ${type}: { outputs: ${JSON.stringify(outputNames(d))}, secrets: ${JSON.stringify(secretProperties(d))} },`;
  });
  const text = [
    "// Generated by `npm run types` (scripts/program-types.ts) from the definitions. Do not edit.",
    'import type { ResourceType } from "./definition";',
    "",
    "/** What each resource class registers: its outputs (`reported` and `computed`), and its top-level args holding secrets and its secret outputs. */",
    "export const programResources: Readonly<",
    "  Record<ResourceType, { readonly outputs: readonly string[]; readonly secrets: readonly string[] }>",
    "> = {",
    ...rows,
    "};",
    "",
  ].join("\n");
  return formatted(text, PROGRAM_RESOURCES_FILE);
}

/** `text` formatted as the repository's other files are (its prettier config), as `file`. */
function formatted(text: string, file: string): string {
  const prettier = path.join(root, "node_modules", "prettier", "bin", "prettier.cjs");
  return runSync(process.execPath, [prettier, "--stdin-filepath", file], {
    cwd: root,
    input: text,
    timeoutMs: TIMEOUTS.quick,
  });
}

if (require.main === module) {
  for (const [file, text] of [
    [PROGRAM_TYPES_FILE, programTypes()],
    [PROGRAM_RESOURCES_FILE, programResources()],
  ]) {
    fs.writeFileSync(file!, text!);
    console.log(`wrote ${path.relative(process.cwd(), file!)}`);
  }
}
