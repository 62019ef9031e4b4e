/**
 * `npm run schema`: writes schema.json, the Pulumi package schema the native provider serves
 * (provider/native-provider.ts) and SDKs are generated from, from the definitions and the kind rows:
 * each resource class one resource `secretops:index:<Class>`, its kind field a string, and an arg
 * whose shape differs between kinds a typed union (`oneOf`) of one object type per kind. Field
 * docs are the JSDoc on the schemas' fields, read as `npm run docs` reads them
 * (scripts/reference-docs.ts). tests/docs/package-schema.test.ts fails when the committed file is stale.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { replaceFields, secretArgs } from "../provider/definition";
import { AUDIT_LOGS_TOKEN, NATIVE_RESOURCES, PACKAGE, tokenOf } from "../provider/native-provider";
import { settingSources } from "../provider/config";
import { secretSettingNames } from "../provider/setting-sources";
import { AuditLogFiltersSchema } from "../sdk/schemas";
import {
  ArgDocs,
  type JsonSchema,
  type ResourceReference,
  type Section,
  argsOf,
  argsTypeOf,
  jsonSchema,
  references,
  sectionsOf,
} from "./reference-docs";
import { TIMEOUTS, runSync } from "./run-sync";

type Spec = Record<string, unknown>;
const ANY: Spec = { $ref: "pulumi.json#/Any" };
const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

/** The object types the resources refer to, by token. */
class Types {
  readonly all: Record<string, Spec> = {};
  /** An object type already written, by its shape: kinds sharing a shape share its type. */
  private readonly byShape = new Map<string, string>();

  /** The property spec of a JSON Schema (`name`: the token an object type gets). */
  spec(s: JsonSchema, name: string, describe: (field: string) => string, secret: (field: string) => boolean): Spec {
    const all = s.anyOf ?? s.oneOf;
    const options = all ? all.filter((v) => v.type !== "null") : [s];
    if (options.length !== 1) {
      const objects = options.filter((o) => o.properties);
      if (objects.length === options.length && objects.length > 0)
        return { oneOf: objects.map((o, i) => this.spec(o, `${name}${i + 1}`, describe, secret)) };
      return ANY;
    }
    const o = options[0]!;
    if (o.properties && Object.keys(o.properties).length > 0)
      return { $ref: `#/types/${this.object(o, name, describe, secret)}` };
    if (o.type === "array")
      return { type: "array", items: o.items ? this.spec(o.items, `${name}Item`, describe, secret) : ANY };
    if (o.type === "object") return { type: "object", additionalProperties: ANY };
    const type =
      o.const !== undefined
        ? typeof o.const
        : Array.isArray(o.type)
          ? undefined
          : (o.type ?? (o.enum ? "string" : undefined));
    return type === "string" || type === "integer" || type === "number" || type === "boolean" ? { type } : ANY;
  }

  private object(o: JsonSchema, name: string, describe: (field: string) => string, secret: (field: string) => boolean) {
    const token = `${PACKAGE}:index:${name}`;
    const properties: Record<string, Spec> = {};
    for (const [field, s] of Object.entries(o.properties!)) {
      const nested = (f: string) => `${field}.${f}`;
      properties[field] = {
        ...this.spec(
          s,
          `${name}${pascal(field)}`,
          (f) => describe(nested(f)),
          (f) => secret(nested(f)),
        ),
        ...withDoc(describe(field)),
        ...(secret(field) && { secret: true }),
        ...defaultOf(s),
      };
    }
    const required = (o.required ?? []).filter((f) => o.properties![f]!.default === undefined);
    const type = { type: "object", properties, ...(required.length && { required }) };
    const shape = JSON.stringify(type);
    const same = this.byShape.get(shape);
    if (same) return same;
    this.byShape.set(shape, token);
    this.all[token] = type;
    return token;
  }
}

const withDoc = (d: string) => (d ? { description: d } : {});
const defaultOf = (s: JsonSchema) =>
  ["string", "number", "boolean"].includes(typeof s.default) ? { default: s.default } : {};

/** One top-level arg as each section has it. */
interface ArgOfSection {
  spec: Spec;
  required: boolean;
  replaces: boolean;
  doc: string;
  kind: string;
}

/** The args every section has with one schema: their object types are named without a kind. */
function sameInEverySection(r: ResourceReference): Set<string> {
  const shapes = new Map<string, Set<string>>();
  const sections = sectionsOf(r);
  for (const section of sections) {
    const schemas = r.def.schemas(argsOf(r, section), {});
    if (typeof schemas === "string") continue;
    for (const [field, s] of Object.entries(jsonSchema(schemas.args).properties ?? {})) {
      shapes.set(field, (shapes.get(field) ?? new Set()).add(JSON.stringify(s)));
    }
  }
  return new Set([...shapes].filter(([, s]) => s.size === 1).map(([field]) => field));
}

/** A resource's args, section by section; each arg's spec, doc and whether it is required or replaces. */
function argsBySection(r: ResourceReference, docs: ArgDocs, types: Types): Map<string, ArgOfSection[]> {
  const byArg = new Map<string, ArgOfSection[]>();
  const shared = sameInEverySection(r);
  for (const section of sectionsOf(r)) {
    const schemas = r.def.schemas(argsOf(r, section), {});
    if (typeof schemas === "string") throw new Error(`${r.def.type} ${JSON.stringify(section)}: ${schemas}`);
    const replaces = replaceFields(r.def, schemas);
    const secretPaths = r.def.secretPaths?.of(argsOf(r, section) as never) ?? [];
    const describe = (f: string) => docs.of(argsTypeOf(r, section), f);
    const isSecret = (f: string) => secretPaths.some((p) => p === f || p.startsWith(`${f}.`) || f.startsWith(`${p}.`));
    const s = jsonSchema(schemas.args);
    const kind = pascal([section.kind, section.variant].filter(Boolean).join("-"));
    for (const [field, fs] of Object.entries(s.properties ?? {})) {
      if (Object.keys(fs).length === 0) continue; // a field this kind does not take
      const nested = (f: string) => `${field}.${f}`;
      const spec = types.spec(
        fs,
        `${r.def.type}${shared.has(field) ? "" : kind}${pascal(field)}`,
        (f) => describe(nested(f)),
        (f) => isSecret(nested(f)),
      );
      const required = (s.required ?? []).includes(field) && fs.default === undefined;
      const entry = {
        spec: { ...spec, ...defaultOf(fs) },
        required,
        replaces: replaces.includes(field),
        doc: describe(field),
        kind,
      };
      byArg.set(field, [...(byArg.get(field) ?? []), entry]);
    }
  }
  return byArg;
}

/** One arg's spec over every section: the same everywhere, else a union of the kinds' types (object types, mostly). */
function mergedSpec(entries: readonly ArgOfSection[]): Spec {
  const specs = entries.map((e) => e.spec);
  const unique = [
    ...new Map(
      specs.flatMap((x) => (Array.isArray(x.oneOf) ? x.oneOf : [x])).map((x) => [JSON.stringify(x), x as Spec]),
    ).values(),
  ];
  if (unique.length === 1) return unique[0]!;
  // A value that takes any value anywhere takes any value.
  return unique.some((x) => x.$ref === ANY.$ref) ? ANY : { oneOf: unique };
}

interface ResourceSpec {
  description: string;
  inputProperties: Record<string, Spec>;
  requiredInputs: string[];
  properties: Record<string, Spec>;
  /** Outputs that always have a value. */
  required?: string[];
}

/** The schema's resource of one definition: its args over every kind, its options, and its outputs. */
function resourceSpec(r: ResourceReference, docs: ArgDocs, types: Types): ResourceSpec {
  const { def } = r;
  const sections = sectionsOf(r).length;
  const secrets = secretArgs(def);
  const inputs: Record<string, Spec> = {};
  const requiredInputs: string[] = [];
  const firstSection = sectionsOf(r)[0]!;
  if (def.kindField && !inputs[def.kindField]) {
    inputs[def.kindField] = {
      type: "string",
      ...withDoc(docs.of(argsTypeOf(r, firstSection), def.kindField)),
      replaceOnChanges: true,
    };
    requiredInputs.push(def.kindField);
  }
  for (const [field, entries] of argsBySection(r, docs, types)) {
    if (field === def.kindField) continue;
    const doc = entries.find((e) => e.doc)?.doc ?? "";
    inputs[field] = {
      ...mergedSpec(entries),
      ...withDoc(doc),
      ...(secrets.includes(field) && { secret: true }),
      ...(entries.some((e) => e.replaces) && { replaceOnChanges: true }),
    };
    if (entries.length === sections && entries.every((e) => e.required)) requiredInputs.push(field);
  }
  for (const [field, s] of Object.entries(jsonSchema(def.options).properties ?? {})) {
    if (r.internalOptions?.includes(field)) continue;
    const spec = types.spec(
      s,
      `${def.type}${pascal(field)}`,
      () => "",
      () => false,
    );
    inputs[field] = {
      ...spec,
      ...withDoc(docs.of(argsTypeOf(r, firstSection), field)),
      ...defaultOf(s),
      ...(field === "endpoint" && { replaceOnChanges: true }),
    };
  }
  const properties: Record<string, Spec> = { ...inputs };
  // Typed where the class's output is a string, number or boolean, and required where it always
  // has a value, so that a typed language takes it as an input (Go: a folder's `SecretPath` as a
  // `pulumi.StringInput`).
  const required: string[] = [];
  for (const field of Object.keys(def.computed)) {
    const { type, always } = docs.outputValue(outputTypeOf(def.type, field));
    properties[field] = {
      ...(type ? { type } : ANY),
      ...(def.secretOutputs?.includes(field) && { secret: true }),
    };
    if (type && always) required.push(field);
  }
  return {
    description: r.intro,
    inputProperties: inputs,
    requiredInputs,
    properties,
    ...(required.length > 0 && { required }),
  };
}

/** GenericSecretSync: SecretSync's args with any destination slug, its config and options passed through. */
function genericSync(sync: ResourceSpec): ResourceSpec {
  const untyped = (spec: Spec | undefined, description: string): Spec => ({
    ...ANY,
    description,
    ...(spec?.replaceOnChanges ? { replaceOnChanges: true } : {}),
  });
  const inputs = {
    ...sync.inputProperties,
    destination: {
      type: "string",
      description: "Any destination slug (one newer than this package included).",
      replaceOnChanges: true,
    },
    destinationConfig: untyped(
      sync.inputProperties.destinationConfig,
      "The destination's config, passed through unchecked.",
    ),
    syncOptions: untyped(
      sync.inputProperties.syncOptions,
      "The sync options; the ones every sync has are checked, the rest passed through.",
    ),
  };
  return {
    description:
      "A sync to any destination slug, its destinationConfig and extra syncOptions passed through unchecked.",
    inputProperties: inputs,
    requiredInputs: sync.requiredInputs,
    properties: { ...sync.properties, ...inputs },
    ...(sync.required && { required: sync.required }),
  };
}

/** The provider's config: the `secretops:*` settings, credentials secret. */
function configSpec(): Spec {
  const variables: Record<string, Spec> = {};
  for (const [name, src] of Object.entries(settingSources)) {
    variables[name] = {
      type: "string",
      description: `Read from ${src.env.join(" or ")} when not set.`,
      ...((secretSettingNames as readonly string[]).includes(name) && { secret: true }),
    };
  }
  variables.endpoints = {
    ...ANY,
    description:
      "Other endpoints by name (`endpoints.<name>.apiUrl`, `.token`, …), for a resource's `endpoint` option.",
  };
  return { variables };
}

function auditLogsFunction(): Spec {
  const filters = jsonSchema(AuditLogFiltersSchema).properties ?? {};
  const types = new Types();
  const properties: Record<string, Spec> = Object.fromEntries(
    Object.entries(filters).map(([k, s]) => [
      k,
      types.spec(
        s,
        `GetAuditLogs${pascal(k)}`,
        () => "",
        () => false,
      ),
    ]),
  );
  properties.maxEntries = { type: "integer", description: "Stop after this many entries, newest first. Default 1000." };
  return {
    description: "An audit-log query, newest first.",
    inputs: { properties },
    outputs: {
      properties: {
        entries: {
          type: "array",
          items: ANY,
          description:
            "The audit-log entries, newest first, as the service returns them: `id`, `createdAt`, `event` (`type`, `metadata`), `actor` (`type`, `metadata`), `projectId`, `ipAddress`, `userAgent`, `userAgentType`.",
        },
        truncated: { type: "boolean", description: "True when maxEntries cut the result short." },
      },
      required: ["entries", "truncated"],
    },
  };
}

/** The type of a class's output, over the package's exports. */
const outputTypeOf = (className: string, field: string) => `secretops.${className}[${JSON.stringify(field)}]`;

/** The package schema, as the JSON schema.json holds. */
export function packageSchema(repoRoot: string): Spec {
  const docs = new ArgDocs(repoRoot, [
    ...Object.values(references).flatMap((r) => sectionsOf(r).map((s: Section) => argsTypeOf(r, s))),
    ...Object.values(references).flatMap((r) => Object.keys(r.def.computed).map((f) => outputTypeOf(r.def.type, f))),
  ]);
  const types = new Types();
  const specs = Object.fromEntries(Object.values(references).map((r) => [r.def.type, resourceSpec(r, docs, types)]));
  const resources: Record<string, Spec> = {};
  for (const [className, native] of Object.entries(NATIVE_RESOURCES)) {
    resources[tokenOf(className)] = { ...(native.fixed ? genericSync(specs[native.type]!) : specs[native.type]!) };
  }
  const version = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version;
  return {
    name: PACKAGE,
    displayName: "SecretOps",
    version,
    description:
      "Projects, environments, folders, secrets, certificate authorities and policies, secret syncs, secret rotations, certificate profiles and app connections of the Infisical API.",
    config: configSpec(),
    provider: {
      description: "The secretops provider: its endpoint and credentials.",
      inputProperties: configSpec().variables,
    },
    resources,
    types: types.all,
    functions: { [AUDIT_LOGS_TOKEN]: auditLogsFunction() },
    language: {
      nodejs: { respectSchemaVersion: true },
      python: { respectSchemaVersion: true, packageName: "secretops_pulumi" },
      csharp: { respectSchemaVersion: true, rootNamespace: "SecretOps" },
      go: { importBasePath: "github.com/secretops/secretops-pulumi/sdk/go/secretops", respectSchemaVersion: true },
    },
  };
}

/** schema.json's text: the schema formatted by the repository's prettier. */
export function packageSchemaText(repoRoot: string): string {
  return runSync("npx", ["prettier", "--stdin-filepath", "schema.json"], {
    cwd: repoRoot,
    input: JSON.stringify(packageSchema(repoRoot)),
    timeoutMs: TIMEOUTS.quick,
  });
}

if (require.main === module) {
  fs.writeFileSync(path.resolve("schema.json"), packageSchemaText(process.cwd()));
  process.stderr.write("[schema] wrote schema.json\n");
}
