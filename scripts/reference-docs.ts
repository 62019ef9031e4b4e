/**
 * `npm run docs`: writes docs/reference/<resource>.md from the resources' definitions and the
 * shared schemas, so the reference cannot disagree with what `check` validates. Per resource: the
 * args every kind shares, once; per kind, its own args: each with its type, whether it is
 * required, its default, whether a change replaces the resource and whether it is secret in a
 * narrow table, and under the table its limits and description (the JSDoc on its schema's field,
 * read through the program's args type); then the provider options and the outputs.
 * tests/docs/reference.test.ts fails when the committed files differ from what this writes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { z } from "zod";
import { type KindSchemas, type ResourceDefinition, type ResourceType, replaceFields } from "../provider/definition";
import { appConnectionDefinition } from "../provider/app-connection";
import { appConnectionSettingsDefinition } from "../provider/app-connection-settings";
import { certificateProfileDefinition } from "../provider/certificate-profile";
import { secretRotationDefinition } from "../provider/secret-rotation";
import { secretSyncDefinition } from "../provider/secret-sync";
import { certificateAuthorityDefinition } from "../provider/certificate-authority";
import { certificatePolicyDefinition } from "../provider/certificate-policy";
import { projectDefinition } from "../provider/project";
import { projectEnvironmentDefinition } from "../provider/project-environment";
import { secretDefinition } from "../provider/secret";
import { secretFolderDefinition } from "../provider/secret-folder";
import { machineIdentityDefinition } from "../provider/machine-identity";
import { identityAuthDefinition } from "../provider/identity-auth";
import { identityClientSecretDefinition } from "../provider/identity-client-secret";
import { projectRoleDefinition } from "../provider/project-role";
import { projectIdentityMembershipDefinition } from "../provider/project-identity-membership";
import {
  appConnectionApps,
  appConnectionKinds,
  commonSyncOptions,
  type IdentityAuthMethodRow,
  identityAuthAttachSchema,
  identityAuthMethodSlugs,
  identityAuthMethods,
  knownSyncDestinations,
  rotationTypeSlugs,
  rotationTypes,
  syncDestinationSlugs,
} from "../sdk/schemas";
import { HeadingSlugger, headingText } from "./markdown-anchors";
import terraformProvider from "./terraform-provider-kinds.json";
import { TIMEOUTS, runSync } from "./run-sync";

type Definition = ResourceDefinition<never>;

/** A resource, its kinds (the kind field's values), and its program args type's exported name. */
export interface ResourceReference {
  def: Definition;
  kinds: readonly string[];
  argsTypeName: string;
  intro: string;
  /** Options a class sets, never a program (not in the args type). */
  internalOptions?: readonly string[];
  /** A second discriminant within a kind (a connection's `method`): one section per value. */
  variants?: { field: string; of(kind: string): readonly string[] };
}

/** One entry per resource type: a new type does not compile until it has its reference. */
export const references: Record<ResourceType, ResourceReference> = {
  SecretSync: {
    def: secretSyncDefinition as unknown as Definition,
    kinds: syncDestinationSlugs,
    // GenericSecretSync's marker.
    internalOptions: ["untypedDestination"],
    argsTypeName: "SecretSyncArgs",
    intro:
      "Pushes the secrets of one environment folder to a destination through an app connection. `GenericSecretSync` takes any other destination slug and passes its `destinationConfig` and extra `syncOptions` through; the common args below still apply.",
  },
  SecretRotation: {
    def: secretRotationDefinition as unknown as Definition,
    kinds: rotationTypeSlugs,
    argsTypeName: "SecretRotationArgs",
    intro: "Replaces a credential on a schedule and writes the new values into secrets.",
  },
  CertificateProfile: {
    def: certificateProfileDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "CertificateProfileArgs",
    intro: "A named template for issuing certificates: how they are requested (enrollment) and who signs them.",
  },
  AppConnection: {
    def: appConnectionDefinition as unknown as Definition,
    kinds: appConnectionApps,
    variants: {
      field: "method",
      of: (app) => Object.keys(appConnectionKinds[app as keyof typeof appConnectionKinds].methods),
    },
    argsTypeName: "AppConnectionArgs",
    intro:
      "An app connection made in code, of any kind and method. Its secret credential fields are encrypted in state and never returned by the service; a change made to them out of band shows as drift through the service's `credentialsHash`. The service refuses to delete a connection a sync or rotation still uses.",
  },
  AppConnectionSettings: {
    def: appConnectionSettingsDefinition as unknown as Definition,
    kinds: appConnectionApps,
    argsTypeName: "AppConnectionSettingsArgs",
    intro:
      "Manages the settings of an existing app connection, found by `app` and `connectionId` or `connectionName`. Deleting it releases management and leaves the connection in place.",
  },
  Project: {
    def: projectDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "ProjectArgs",
    intro:
      "A project: what every environment, folder, secret, sync, rotation, CA and profile belongs to. Its template's environments (`dev`, `staging` and `prod` by default) come with it; declare them as `ProjectEnvironment`s to manage them. Deleting it deletes everything in it at the service, unless `hasDeleteProtection`.",
  },
  ProjectEnvironment: {
    def: projectEnvironmentDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "ProjectEnvironmentArgs",
    intro:
      "An environment of a project, named by its slug wherever secrets are. One the project's template made is taken over (`adoptExisting`, default true). Deleting it deletes its folders and secrets at the service. `pulumi import` takes the id as `<projectId>/<environmentId>`.",
  },
  SecretFolder: {
    def: secretFolderDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "SecretFolderArgs",
    intro:
      "A folder of an environment, in the parent folder at `path` (the service makes the parents it lacks). Its `secretPath` output is what secrets, syncs and rotations in it name. The service refuses to delete a folder that holds anything, unless `forceDelete`.",
  },
  Secret: {
    def: secretDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "SecretArgs",
    intro:
      "A secret: a key and its value in a folder. The value is secret everywhere (encrypted in state, never an output, masked in previews); a refresh tells when it changed outside the program without showing it, and the next `up` writes the program's value again.",
  },
  CertificateAuthority: {
    def: certificateAuthorityDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "CertificateAuthorityArgs",
    intro:
      "An internal certificate authority: a root, or an intermediate that its `parentCaId` signs as part of its create. Certificate profiles issue from it (`caId`).",
  },
  CertificatePolicy: {
    def: certificatePolicyDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "CertificatePolicyArgs",
    intro:
      "The rules the certificates of a profile (`certificatePolicyId`) follow: subject, SANs, key usages, algorithms, validity. The service refuses to delete a policy a profile uses.",
  },
  MachineIdentity: {
    def: machineIdentityDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "MachineIdentityArgs",
    intro:
      "A machine identity: what an application, a CI job or a cluster logs in as. An organization's (`organizationId`, with its organization `role`) or, with `projectId` instead, a project's own. A rename is one PATCH (same id, same client ids). The service refuses to delete it while `hasDeleteProtection` is true. `pulumi import` takes an organization's identity by its id (a project's own identity cannot be imported).",
  },
  IdentityAuth: {
    def: identityAuthDefinition as unknown as Definition,
    kinds: identityAuthMethodSlugs,
    argsTypeName: "IdentityAuthArgs",
    intro:
      "One login method of a machine identity, the method being its kind; an identity has at most one of each, and two in one program are refused at preview. Universal auth outputs its `clientId`; its client secrets are `IdentityClientSecret`s. Trusted IPs other than anywhere (`0.0.0.0/0`, `::/0`) need the IP-allowlisting feature of a licensed plan. `pulumi import` takes `<method>/<identityId>`.",
  },
  IdentityClientSecret: {
    def: identityClientSecretDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "IdentityClientSecretArgs",
    intro:
      "A universal-auth client secret. The service shows it once, when it makes it: the `clientSecret` output is secret, and a refresh keeps it. The service has no PATCH: a change of any arg makes a new secret and revokes the old one; a secret revoked elsewhere is made anew by the next `up`. `pulumi import` takes `<identityId>/<clientSecretId>`; an imported secret has no `clientSecret` output, since the service cannot show it again.",
  },
  ProjectRole: {
    def: projectRoleDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "ProjectRoleArgs",
    intro:
      "A custom role of a project: slug, name, description and permissions in the service's v2 shape (`subject`, `action`, `conditions`, `inverted`). A built-in role's slug (`admin`, `member`, `viewer`, `no-access`) is refused at preview. Slug, name, description and permissions change in place (one PATCH, same id); a change of `projectId` replaces it. Equal permissions are no change, whatever the order of their actions, conditions and operators, and whatever defaults the service fills in (`inverted: false`). A refresh lists the project's roles once for every role. Custom roles need the RBAC feature of a licensed plan. `pulumi import` takes `<projectId>/<slug>`.",
  },
  ProjectIdentityMembership: {
    def: projectIdentityMembershipDefinition as unknown as Definition,
    kinds: [],
    argsTypeName: "ProjectIdentityMembershipArgs",
    intro:
      "A machine identity's membership of a project, with its roles: built-in (`admin`, `member`, `viewer`, `no-access`) or a custom role's slug, permanent or temporary (`relative` mode, a range such as `\"1h\"`, a start time), at least one permanent. A change of roles is one PATCH of the whole list; a change of `projectId` or `identityId` replaces it. One membership per identity and project: two in one program are refused at preview, naming both. A refresh lists the project's memberships once for every membership; one whose identity or project is gone is dropped. Assigning a custom role needs the RBAC feature of a licensed plan (the service's refusal is shown under `roles`). `pulumi import` takes `<projectId>/<identityId>`.",
  },
};
const resources = Object.values(references);

/** A resource's page: its type in kebab case (`SecretSync` → `secret-sync.md`). */
const fileOf = (r: ResourceReference) => `${r.def.type.replace(/(?<=[a-z])(?=[A-Z])/g, "-").toLowerCase()}.md`;

/** One section of a page: a kind (and a variant of it), or the whole resource when it has no kinds. */
export interface Section {
  kind?: string;
  variant?: string;
}

/** The sections of a page: one per kind (per variant of each, if any), or one for a resource without kinds. */
export const sectionsOf = (r: ResourceReference): Section[] =>
  r.kinds.length === 0
    ? [{}]
    : r.kinds.flatMap((kind) => (r.variants ? r.variants.of(kind).map((variant) => ({ kind, variant })) : [{ kind }]));

/** The args a section describes: its kind field (and variant field) set. */
export const argsOf = (r: ResourceReference, s: Section): Record<string, string> => ({
  ...(s.kind !== undefined && { [r.def.kindField!]: s.kind }),
  ...(s.variant !== undefined && { [r.variants!.field]: s.variant }),
});

/** The program's args type of one section (all kinds when none), over the package's exports (`secretops.*`). */
export const argsTypeOf = (r: ResourceReference, s: Section) => {
  // `pulumi.Input<…>`: a kind field is a plain literal, a variant field (from the schema) an Input of one.
  const fixed = Object.entries(argsOf(r, s)).map(([k, v]) => `${k}: pulumi.Input<${JSON.stringify(v)}>`);
  return fixed.length === 0
    ? `secretops.${r.argsTypeName}`
    : `Extract<secretops.${r.argsTypeName}, { ${fixed.join("; ")} }>`;
};

/** The JSON Schema subset `z.toJSONSchema` writes for these schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

interface Row {
  path: string;
  type: string;
  /** Required where its object is given; `parent`: the optional object that holds it, if any. */
  required: boolean;
  parent?: string;
  limits: string;
  default: string;
}

export const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;

const code = (v: unknown) => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

/** The variants of a union, nulls aside; whether null is one of them (a plain `null` is its own variant). */
function variants(s: JsonSchema): { options: JsonSchema[]; nullable: boolean } {
  const all = s.anyOf ?? s.oneOf;
  if (!all) return { options: [s], nullable: false };
  const options = all.filter((v) => v.type !== "null");
  return { options, nullable: options.length < all.length };
}

function typeOf(s: JsonSchema): string {
  // A field this kind does not take (`z.undefined()`, which JSON Schema cannot say).
  if (Object.keys(s).length === 0) return notAccepted;
  const { options, nullable } = variants(s);
  const types = options.map((o) => {
    if (o.const !== undefined) return code(o.const);
    if (o.enum) return o.enum.map(code).join(", ");
    if (o.format === "uuid") return "UUID";
    if (o.type === "array") return `list of ${o.items ? typeOf(o.items) : "values"}`;
    if (o.type === "integer") return "whole number";
    return Array.isArray(o.type) ? o.type.join(" or ") : (o.type ?? "any");
  });
  return joinTypes([...types, ...(nullable ? ["null"] : [])]);
}

const notAccepted = "not accepted for this kind";

/** Alternative types as one phrase, each once, null last (`UUID or null`, never `null or null`). */
function joinTypes(types: string[]): string {
  const unique = [...new Set(types.flatMap((t) => t.split(" or ")))];
  return [...unique.filter((t) => t !== "null"), ...unique.filter((t) => t === "null")].join(" or ");
}

function limitsOf(s: JsonSchema): string {
  const parts: string[] = [];
  for (const o of variants(s).options) {
    if (o.minLength !== undefined || o.maxLength !== undefined) {
      if (o.minLength !== undefined && o.maxLength !== undefined)
        parts.push(`${o.minLength}–${o.maxLength} characters`);
      else if (o.minLength !== undefined)
        parts.push(`at least ${o.minLength} character${o.minLength === 1 ? "" : "s"}`);
      else parts.push(`at most ${o.maxLength} characters`);
    }
    if (o.minimum !== undefined) parts.push(`≥ ${o.minimum}`);
    if (o.exclusiveMinimum !== undefined) parts.push(`> ${o.exclusiveMinimum}`);
    if (o.maximum !== undefined) parts.push(`≤ ${o.maximum}`);
    if (o.exclusiveMaximum !== undefined) parts.push(`< ${o.exclusiveMaximum}`);
    if (o.minItems !== undefined) parts.push(`at least ${o.minItems} item${o.minItems === 1 ? "" : "s"}`);
    if (o.maxItems !== undefined) parts.push(`at most ${o.maxItems} items`);
    if (o.pattern !== undefined && o.format !== "uuid") parts.push(code(o.pattern));
  }
  return [...new Set(parts)].join(", ");
}

/** Every field of an object schema, nested objects as dotted paths (a union's fields merged). */
function rows(s: JsonSchema, prefix = "", optionalParent?: string): Row[] {
  const out: Row[] = [];
  const objects = variants(s).options.filter((o) => o.properties);
  const seen = new Map<string, Row>();
  for (const o of objects) {
    for (const [name, field] of Object.entries(o.properties!)) {
      const fieldPath = prefix + name;
      const required = (o.required ?? []).includes(name) && field.default === undefined;
      const nested = variants(field).options.some((v) => v.properties && Object.keys(v.properties).length > 0);
      const row: Row = {
        path: fieldPath,
        type: nested ? joinTypes(["object", ...(variants(field).nullable ? ["null"] : [])]) : typeOf(field),
        required,
        ...(optionalParent !== undefined && { parent: optionalParent }),
        limits: nested ? "" : limitsOf(field),
        default: field.default === undefined ? "" : code(field.default),
      };
      const before = seen.get(fieldPath);
      if (before) {
        // A field of several variants: required only where every variant requires it.
        before.required &&= row.required;
        before.type = joinTypes([before.type, row.type]);
        continue;
      }
      seen.set(fieldPath, row);
      out.push(row);
      if (nested) out.push(...rows(field, `${fieldPath}.`, optionalParent ?? (required ? undefined : fieldPath)));
    }
  }
  // Rows of nested fields met again through another variant are already in `out`.
  return out.filter((r, i) => out.findIndex((x) => x.path === r.path) === i);
}

const escape = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ");

/**
 * One arg as the page shows it: the short cells of its table row, and what goes in the list under
 * the table (its limits, its description, and a type or default too long for a cell). Tables stay
 * narrow enough to read as plain markdown.
 */
interface ArgLine {
  path: string;
  type: string;
  required: string;
  default: string;
  change: string;
  secret: string;
  limits: string;
  description: string;
}

/** Longest type or default a cell holds; a longer one is written under the table. */
const maxCell = 32;

function argTable(args: readonly ArgLine[], columns: "args" | "options"): string {
  const typeCell = (a: ArgLine) => {
    if (a.type.length <= maxCell) return a.type;
    const values = a.type.split(", ");
    return values.every((v) => /^`[^`]*`$/.test(v)) ? `one of ${values.length} values` : "see below";
  };
  const defaultCell = (a: ArgLine) => (a.default.length <= maxCell ? a.default : "see below");
  const table =
    columns === "args"
      ? [
          "| Arg | Type | Required | Default | A change | Secret |",
          "| --- | --- | --- | --- | --- | --- |",
          ...args.map(
            (a) =>
              `| ${[code(a.path), typeCell(a), a.required, defaultCell(a), a.change, a.secret].map(escape).join(" | ")} |`,
          ),
        ]
      : [
          "| Option | Type | Default |",
          "| --- | --- | --- |",
          ...args.map((a) => `| ${[code(a.path), typeCell(a), defaultCell(a)].map(escape).join(" | ")} |`),
        ];
  const notes = args.map((a) => {
    const extra = [
      ...(typeCell(a) === a.type ? [] : [`${typeCell(a) === "see below" ? "Type" : "Values"}: ${a.type}.`]),
      ...(defaultCell(a) !== a.default ? [`Default: ${a.default}.`] : []),
    ];
    const limits = a.limits === "" ? "" : ` (${a.limits})`;
    return `- ${code(a.path)}${limits}: ${[oneLine(a.description), ...extra].join(" ")}`;
  });
  return [...table, "", ...notes].join("\n");
}

/** The args of one section, in the schema's order; a field the section does not take is left out. */
function argLines(
  def: Definition,
  schemas: KindSchemas,
  args: Record<string, unknown>,
  doc: (dotted: string) => string,
): ArgLine[] {
  const replaces = new Set(replaceFields(def, schemas));
  const secret = def.secretPaths?.of(args as never) ?? [];
  const lines: ArgLine[] = [];
  const kindField = def.kindField;
  if (kindField && !(kindField in schemas.args.shape))
    lines.push({
      path: kindField,
      type: code(args[kindField]),
      required: "yes",
      default: "",
      change: "replaces",
      secret: "",
      limits: "",
      description: doc(kindField),
    });
  for (const r of rows(jsonSchema(schemas.args))) {
    if (r.type === notAccepted) continue;
    const top = r.path.split(".")[0]!;
    const isSecret = secret.some((p) => r.path === p || r.path.startsWith(`${p}.`) || p.startsWith(`${r.path}.`));
    lines.push({
      path: r.path,
      type: r.type,
      required: r.required ? (r.parent ? "with parent" : "yes") : "",
      default: r.default,
      change: replaces.has(top) ? "replaces" : def.createOnly?.includes(top) ? "at create only" : "in place",
      secret: isSecret ? "secret" : "",
      limits: r.limits,
      description: doc(r.path),
    });
  }
  return lines;
}

function optionLines(def: Definition, doc: (dotted: string) => string, internal: readonly string[] = []): ArgLine[] {
  return rows(jsonSchema(def.options))
    .filter((o) => !internal.includes(o.path))
    .map((r) => ({
      path: r.path,
      type: r.type,
      required: "",
      default: r.default,
      change: "",
      secret: "",
      limits: r.limits,
      description: doc(r.path),
    }));
}

/**
 * The args every section shares, written once: an arg every section takes, as most sections have
 * it (type, limits, default, description). A section then lists its own args, and a shared one
 * again only where it differs there (a kind that narrows `gatewayId`, say).
 */
function sharedArgs(sections: readonly ArgLine[][]): ArgLine[] {
  if (sections.length < 2) return [];
  const key = (a: ArgLine) => JSON.stringify(a);
  const paths = [...new Set(sections.flat().map((a) => a.path))].filter((p) =>
    sections.every((lines) => lines.some((a) => a.path === p)),
  );
  return paths.map((p) => {
    const counts = new Map<string, { line: ArgLine; n: number }>();
    for (const line of sections.map((lines) => lines.find((a) => a.path === p)!)) {
      const c = counts.get(key(line)) ?? { line, n: 0 };
      c.n += 1;
      counts.set(key(line), c);
    }
    return [...counts.values()].reduce((a, b) => (b.n > a.n ? b : a)).line;
  });
}

/**
 * The docs of the program's args, as the user's editor shows them: the JSDoc written on the
 * schemas' fields (and on the options'), read through the derived args types with the TypeScript
 * checker, so they are written once.
 */
export class ArgDocs {
  private readonly checker: ts.TypeChecker;
  private readonly types = new Map<string, ts.Type>();

  constructor(repoRoot: string, typeExprs: string[]) {
    const file = path.join(repoRoot, "__reference_docs__.ts");
    const aliases = typeExprs.map((t, i) => `export type T${i} = ${t};`);
    const text = [
      `import type * as pulumi from "@pulumi/pulumi";`,
      `import type * as secretops from "./provider";`,
      ...aliases,
    ].join("\n");
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (f, v, ...rest) =>
      f === file ? ts.createSourceFile(f, text, v) : getSourceFile.call(host, f, v, ...rest);
    host.fileExists = (f) => f === file || fileExists.call(host, f);
    host.readFile = (f) => (f === file ? text : readFile.call(host, f));
    const program = ts.createProgram([file], options, host);
    this.checker = program.getTypeChecker();
    const source = program.getSourceFile(file)!;
    source.statements.filter(ts.isTypeAliasDeclaration).forEach((a, i) => {
      this.types.set(typeExprs[i]!, this.checker.getTypeAtLocation(a.name));
    });
  }

  /** The JSDoc of the arg at a dotted path of the args type `typeExpr`; "" when it has none. */
  of(typeExpr: string, dotted: string): string {
    // A union's members may each declare the field (one of them with `?: never`): follow them all.
    let types = [this.types.get(typeExpr)!];
    let symbols: ts.Symbol[] = [];
    for (const segment of dotted.split(".")) {
      symbols = types
        .flatMap((x) => this.constituents(x))
        .map((t) => this.checker.getPropertyOfType(t, segment))
        .filter((s): s is ts.Symbol => s !== undefined);
      types = symbols.map((s) => this.checker.getTypeOfSymbol(s));
    }
    const docs = symbols.map((s) => ts.displayPartsToString(s.getDocumentationComment(this.checker)).trim());
    return docs.find((d) => d !== "") ?? "";
  }

  /**
   * What an output of type `typeExpr` (a `pulumi.Output<T>`) holds: its JSON type, `string`,
   * `number` or `boolean` when every member of T (null and undefined aside) is one, and whether T
   * has a value always (no null or undefined member).
   */
  outputValue(typeExpr: string): { type?: "string" | "number" | "boolean"; always: boolean } {
    const output = this.types.get(typeExpr)!;
    const get = this.checker.getPropertyOfType(output, "get");
    const signature = get && this.checker.getTypeOfSymbol(get).getCallSignatures()[0];
    if (!signature) return { always: false };
    const value = signature.getReturnType();
    const always = value === this.checker.getNonNullableType(value);
    const members = this.constituents(value);
    const all = (flag: ts.TypeFlags) => members.length > 0 && members.every((m) => (m.flags & flag) !== 0);
    const type = all(ts.TypeFlags.StringLike)
      ? "string"
      : all(ts.TypeFlags.NumberLike)
        ? "number"
        : all(ts.TypeFlags.BooleanLike)
          ? "boolean"
          : undefined;
    return { type, always };
  }

  /** The object types a (possibly `pulumi.Input`-wrapped, optional) type may be. */
  private constituents(t: ts.Type): ts.Type[] {
    const nonNull = this.checker.getNonNullableType(t);
    return nonNull.isUnion() ? nonNull.types : [nonNull];
  }
}

/** One resource's reference page, and the anchor of each kind's section in it. */
interface ResourcePage {
  text: string;
  kindAnchors: Map<string, string>;
}

/**
 * The markdown of one resource's reference. The args every kind shares come first, once; then
 * each kind has a `##` heading of its slug (its variants, if any, a `###` each under it) listing
 * its own args. Links to a kind use the anchor GitHub gives that heading
 * (scripts/markdown-anchors.ts), so they resolve whatever the other headings are.
 */
function resourceDoc(r: ResourceReference, docs: ArgDocs): ResourcePage {
  const { def } = r;
  const slugger = new HeadingSlugger();
  /** A heading line; its anchor registered in page order (a repeated heading's anchor takes a suffix). */
  const heading = (level: number, text: string) => {
    const anchor = slugger.slug(headingText(text));
    return { line: `${"#".repeat(level)} ${text}`, anchor };
  };
  const title = heading(1, `\`${def.type}\``);
  const sections = sectionsOf(r).map((section) => {
    const args = argsOf(r, section);
    const schemas = def.schemas(args as never, {});
    if (typeof schemas === "string") throw new Error(`${def.type} ${section.kind}: ${schemas}`);
    const lines = argLines(def, schemas, args, (p) => docs.of(argsTypeOf(r, section), p));
    // The kind and variant fields: the section's heading says their value.
    const generic = (a: ArgLine): ArgLine =>
      a.path === def.kindField
        ? { ...a, type: "a kind's slug" }
        : a.path === r.variants?.field
          ? { ...a, type: "a method's slug" }
          : a;
    return { section, lines: lines.map(generic) };
  });
  const shared = sharedArgs(sections.map((s) => s.lines));
  const isShared = (a: ArgLine) => shared.some((c) => JSON.stringify(c) === JSON.stringify(a));
  const parts = [
    title.line,
    "",
    "<!-- Written by `npm run docs` (scripts/reference-docs.ts) from the schemas; do not edit by hand. -->",
    "",
    r.intro,
    "",
    "A change to an arg marked _replaces_ deletes the object and creates it again" +
      (def.deleteBeforeReplace ? " (deleted first: its name or slug must stay unique)" : "") +
      (def.createOnly?.length
        ? "; one marked _at create only_ is sent only when the object is made (a later change of it is no change)"
        : "") +
      "; every other change is one PATCH of the changed fields. Secret args are encrypted in state and shown as `[secret]`. An arg required _with parent_ is required whenever the object holding it is given.",
    "",
  ];
  const kindAnchors = new Map<string, string>();
  const body: string[] = [];
  if (shared.length > 0) {
    const what = r.variants ? "method" : "kind";
    body.push(
      heading(2, `Args every ${r.variants ? "kind and method" : "kind"} takes`).line,
      "",
      `Each ${what}'s section below lists its own args, and one of these again where it differs for that ${what}; an arg listed in neither is refused.`,
      "",
      argTable(shared, "args"),
      "",
    );
  }
  for (const { section, lines } of sections) {
    if (section.kind === undefined) body.push(heading(2, "Args").line, "");
    else if (!kindAnchors.has(section.kind)) {
      const h = heading(2, section.kind);
      kindAnchors.set(section.kind, h.anchor);
      body.push(h.line, "");
    }
    if (section.variant !== undefined)
      body.push(heading(3, `${section.kind}: ${r.variants!.field} \`${section.variant}\``).line, "");
    const own = lines.filter((a) => !isShared(a));
    body.push(own.length > 0 ? argTable(own, "args") : "No args of its own: only the shared ones above.", "");
  }
  if (r.kinds.length > 0) {
    const links = r.kinds.map((k) => `[\`${k}\`](#${kindAnchors.get(k)})`);
    parts.push(`Kinds (\`${def.kindField}\`): ${links.join(", ")}.`, "");
  }
  parts.push(...body);
  const anyKind = argsTypeOf(r, sectionsOf(r)[0]!);
  parts.push(
    heading(2, "Provider options").line,
    "",
    "Never sent to the service.",
    "",
    argTable(
      optionLines(def, (p) => docs.of(anyKind, p), r.internalOptions),
      "options",
    ),
    "",
  );
  parts.push(
    heading(2, "Outputs").line,
    "",
    `Every arg the service returns (secret parts never come back), and: ${Object.keys(def.computed).map(code).join(", ")}.`,
    "",
  );
  return { text: parts.join("\n"), kindAnchors };
}

/** A schema's fields: required ones in bold, secret ones marked. */
function fieldList(schema: z.ZodType, secret: readonly string[] = []): string {
  const js = jsonSchema(schema);
  const required = js.required ?? [];
  const fields = Object.keys(js.properties ?? {}).map((f) => {
    const name = required.includes(f) ? `**\`${f}\`**` : `\`${f}\``;
    return secret.includes(f) ? `${name} (secret)` : name;
  });
  return fields.length ? fields.join(", ") : "none";
}

type TerraformKinds = Record<string, { resource: string; methods?: string[] } | undefined>;
const terraformCell = (kinds: TerraformKinds, slug: string, withMethods = false) => {
  const t = kinds[slug];
  if (!t) return "—";
  return withMethods && t.methods?.length ? `\`${t.resource}\` (${t.methods.join(", ")})` : `\`${t.resource}\``;
};

/**
 * docs/reference/kinds.md: every kind this package types, what `check` validates for it at
 * `preview` (every field listed is checked for its type and limits, and a field not listed is
 * refused), beside the service's own Terraform provider's resource for it.
 */
function kindsDoc(pages: Record<ResourceType, ResourcePage>): string {
  /** A kind's slug, linked to its section of the resource's page. */
  const kindLink = (type: ResourceType, kind: string) => {
    const anchor = pages[type].kindAnchors.get(kind);
    if (anchor === undefined) throw new Error(`${type}'s reference has no section for ${kind}`);
    return `[\`${kind}\`](${fileOf(references[type])}#${anchor})`;
  };
  const tf = terraformProvider as unknown as {
    source: string;
    connections: TerraformKinds;
    syncs: TerraformKinds;
    rotations: TerraformKinds;
  };
  const commonOptions = Object.keys(commonSyncOptions);
  const parts = [
    "# Kinds",
    "",
    "<!-- Written by `npm run docs` (scripts/reference-docs.ts) from the kind tables; do not edit by hand. -->",
    "",
    `Every sync destination (${syncDestinationSlugs.length}), rotation type (${rotationTypeSlugs.length}) and connection kind (${appConnectionApps.length}) this package types, each read from the service's own schema file for it (cited on its row in \`sdk/schemas/\`). For each, \`pulumi preview\` checks the fields listed (required ones in **bold**) for their type and limits, and refuses a field that is not listed, naming it; every field's type, limits and description are in the resource's page, at the section its slug links to. The last column is the resource the service's own Terraform provider has for the kind (${tf.source}); — where it has none.`,
    "",
    "## Secret sync destinations",
    "",
    `Every destination also takes the common \`syncOptions\` (${commonOptions.map((o) => `\`${o}\``).join(", ")}). Reference: [secret-sync.md](secret-sync.md). Each destination's fields are listed under the table.`,
    "",
    "| Destination | Name | Connection kind | Import | Terraform provider |",
    "| --- | --- | --- | --- | --- |",
    ...knownSyncDestinations.map(
      (d) =>
        `| ${[code(d.destination), d.label, code(d.connectionApp), d.canImport ? "yes" : "no", terraformCell(tf.syncs, d.destination)].join(" | ")} |`,
    ),
    "",
    ...knownSyncDestinations.map(
      (d) =>
        `- ${kindLink("SecretSync", d.destination)}: \`destinationConfig\` ${fieldList(d.destinationConfig)}; extra \`syncOptions\` ${Object.keys(d.extraSyncOptions).length ? fieldList(z.object(d.extraSyncOptions)) : "none"}; connection ${kindLink("AppConnection", d.connectionApp)}.`,
    ),
    "",
    "## Secret rotation types",
    "",
    "Reference: [secret-rotation.md](secret-rotation.md). Each type's fields are listed under the table.",
    "",
    "| Type | Name | Connection kind | Terraform provider |",
    "| --- | --- | --- | --- |",
    ...Object.values(rotationTypes).map(
      (t) => `| ${[code(t.type), t.label, code(t.connectionApp), terraformCell(tf.rotations, t.type)].join(" | ")} |`,
    ),
    "",
    ...Object.values(rotationTypes).map(
      (t) =>
        `- ${kindLink("SecretRotation", t.type)}: \`parameters\` ${fieldList(t.parameters)}; \`secretsMapping\` ${fieldList(t.secretsMapping)}; connection ${kindLink("AppConnection", t.connectionApp)}.`,
    ),
    "",
    "## App connection kinds",
    "",
    "Credentials per method, listed under the table; secret fields are never returned by the service and are encrypted in state. Reference: [app-connection.md](app-connection.md) (made in code), [app-connection-settings.md](app-connection-settings.md) (made elsewhere).",
    "",
    "| Kind | Name | Methods | Terraform provider (methods) |",
    "| --- | --- | --- | --- |",
    ...Object.values(appConnectionKinds).map(
      (k) =>
        `| ${[code(k.app), k.label + (k.enterprise ? " (enterprise)" : ""), String(Object.keys(k.methods).length), terraformCell(tf.connections, k.app, true)].join(" | ")} |`,
    ),
    "",
    ...Object.values(appConnectionKinds).map(
      (k) =>
        `- ${kindLink("AppConnection", k.app)}: ${Object.entries(
          k.methods as Record<string, { credentials: z.ZodType; secretFields: readonly string[] }>,
        )
          .map(([m, def]) => `\`${m}\` ${fieldList(def.credentials, def.secretFields)}`)
          .join("; ")}.`,
    ),
    "",
    ...identityMethodsSection(kindLink),
  ];
  return parts.join("\n");
}

/** kinds.md's machine identity login methods: each row's fields (the access-token ones included), and the service file it was read from. */
function identityMethodsSection(kindLink: (type: ResourceType, kind: string) => string): string[] {
  const methods = Object.values(identityAuthMethods) as IdentityAuthMethodRow[];
  return [
    "## Machine identity login methods",
    "",
    "Each method's attach fields, the access-token ones (`accessTokenTrustedIps`, `accessTokenTTL`, `accessTokenMaxTTL`, `accessTokenNumUsesLimit`) included; secret fields are encrypted in state. Reference: [identity-auth.md](identity-auth.md).",
    "",
    "| Method | Name | Read from the service's |",
    "| --- | --- | --- |",
    ...methods.map((m) => `| ${[code(m.method), m.label, code(m.origin)].join(" | ")} |`),
    "",
    ...methods.map(
      (m) => `- ${kindLink("IdentityAuth", m.method)}: ${fieldList(identityAuthAttachSchema(m), m.secretFields)}.`,
    ),
    "",
  ];
}

/**
 * docs/reference/<file> → its content, formatted by the repository's prettier (its command line:
 * prettier's API loads itself with dynamic imports, which jest's module sandbox refuses).
 */
export function referenceDocs(repoRoot: string): Record<string, string> {
  const docs = new ArgDocs(
    repoRoot,
    resources.flatMap((r) => sectionsOf(r).map((s) => argsTypeOf(r, s))),
  );
  const resourcePages = Object.fromEntries(
    Object.entries(references).map(([type, r]) => [type, resourceDoc(r, docs)]),
  ) as Record<ResourceType, ResourcePage>;
  const pages: Record<string, string> = Object.fromEntries(
    Object.entries(references).map(([type, r]) => [fileOf(r), resourcePages[type as ResourceType].text]),
  );
  pages["kinds.md"] = kindsDoc(resourcePages);
  const out: Record<string, string> = {};
  for (const [file, text] of Object.entries(pages)) {
    out[file] = runSync("npx", ["prettier", "--stdin-filepath", path.join("docs", "reference", file)], {
      cwd: repoRoot,
      input: text,
      timeoutMs: TIMEOUTS.quick,
    });
  }
  return out;
}

if (require.main === module) {
  // Run by `npm run docs` from the package's root.
  const dir = path.resolve("docs", "reference");
  const docs = referenceDocs(process.cwd());
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(docs)) fs.writeFileSync(path.join(dir, file), text);
  process.stderr.write(`[docs] wrote ${Object.keys(docs).length} files to docs/reference/\n`);
}
