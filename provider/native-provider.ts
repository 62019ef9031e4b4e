import * as fs from "node:fs";
import * as path from "node:path";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { z } from "zod";
import type * as provider from "@pulumi/pulumi/provider";
import type { IResourceProviderServer } from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { queryAuditLogs, queryIssues } from "./audit-logs";
import { type ConfigReader, apiClient, configure as configureSettings } from "./config";
import { type ResourceType, secretProperties } from "./definition";
import { plainCredentialConfigProblem } from "./program-side";
import { definition, provider as dynamicSteps } from "./provider-process";
import { withSnakeCaseKeys } from "../sdk/schemas/issues";
import { RESOURCE_NAME_KEY, type Plain, isPlainObject } from "./values";

/**
 * Runs in the native provider plugin (`pulumi-resource-secretops`, bin/): the same definitions and
 * the same steps as the dynamic providers (provider/dynamic-provider.ts, through
 * provider/provider-process.ts), served to the engine through `@pulumi/pulumi/provider` for every
 * Pulumi language. This file only translates: type tokens, secrets as the engine sends them, the
 * provider's config, and import ids. No rule lives here.
 */

/** The package name: type tokens are `secretops:index:<Class>`. */
export const PACKAGE = "secretops";
export const MODULE = "index";

/** A resource class of the package: its definition's type, and options its class always sets. */
interface NativeResource {
  readonly type: ResourceType;
  /** Options the class sets (`GenericSecretSync`: `untypedDestination`), never the program. */
  readonly fixed?: Plain;
}

/** The classes the native provider serves, by the last part of their type token. */
export const NATIVE_RESOURCES: Readonly<Record<string, NativeResource>> = {
  SecretSync: { type: "SecretSync" },
  GenericSecretSync: { type: "SecretSync", fixed: { untypedDestination: true } },
  SecretRotation: { type: "SecretRotation" },
  CertificateProfile: { type: "CertificateProfile" },
  AppConnection: { type: "AppConnection" },
  AppConnectionSettings: { type: "AppConnectionSettings" },
  Project: { type: "Project" },
  ProjectEnvironment: { type: "ProjectEnvironment" },
  SecretFolder: { type: "SecretFolder" },
  Secret: { type: "Secret" },
  CertificateAuthority: { type: "CertificateAuthority" },
  CertificatePolicy: { type: "CertificatePolicy" },
  MachineIdentity: { type: "MachineIdentity" },
  IdentityAuth: { type: "IdentityAuth" },
  IdentityClientSecret: { type: "IdentityClientSecret" },
  ProjectRole: { type: "ProjectRole" },
  ProjectIdentityMembership: { type: "ProjectIdentityMembership" },
};

/** The audit-log query's function token. */
export const AUDIT_LOGS_TOKEN = `${PACKAGE}:${MODULE}:getAuditLogs`;

export const tokenOf = (className: string) => `${PACKAGE}:${MODULE}:${className}`;

/** `urn:pulumi:<stack>::<project>::<type>::<name>`: the type token and the resource's name. */
function parseUrn(urn: string): { token: string; name: string } {
  const parts = urn.split("::");
  const types = parts[2] ?? "";
  return { token: types.split("$").pop() ?? types, name: parts.slice(3).join("::") };
}

function resourceOf(urn: string): NativeResource & { name: string } {
  const { token, name } = parseUrn(urn);
  const className = token.startsWith(`${PACKAGE}:${MODULE}:`) ? token.slice(PACKAGE.length + MODULE.length + 2) : "";
  const found = Object.hasOwn(NATIVE_RESOURCES, className) ? NATIVE_RESOURCES[className] : undefined;
  if (!found) throw new Error(`unknown resource type ${token}`);
  return { ...found, name };
}

// Secrets as the engine sends them to a provider that accepts secrets: `{<sig>: <secret sig>, value}`.

const isSecretValue = (v: unknown): v is { value: unknown } =>
  isPlainObject(v) && v[specialSigKey] === specialSecretSig;

/** Properties with every secret unwrapped, at any depth (none: no properties). */
const revealProps = (props: Plain | undefined): Plain =>
  Object.fromEntries(Object.entries(props ?? {}).map(([k, x]) => [k, reveal(x)]));

/** The value with every secret unwrapped. */
function reveal(v: unknown): unknown {
  if (isSecretValue(v)) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (isPlainObject(v)) return revealProps(v);
  return v;
}

const holdsSecret = (v: unknown): boolean =>
  isSecretValue(v) || (Array.isArray(v) ? v.some(holdsSecret) : isPlainObject(v) && Object.values(v).some(holdsSecret));

/** Top-level properties that are, or hold, a secret. */
const secretKeysOf = (props: Plain | undefined): string[] =>
  Object.entries(props ?? {})
    .filter(([, v]) => holdsSecret(v))
    .map(([k]) => k);

/**
 * The properties with the given top-level ones secret as a whole, as the dynamic path makes them
 * (provider/program-side.ts: the args holding secrets, and the secret hashes).
 */
function conceal(props: Plain | undefined, keys: readonly string[]): Plain | undefined {
  if (!props) return props;
  const out: Plain = { ...props };
  for (const k of keys) {
    if (out[k] !== undefined && !isSecretValue(out[k])) out[k] = { [specialSigKey]: specialSecretSig, value: out[k] };
  }
  return out;
}

/** What a type keeps secret: its args holding secrets, its secret outputs, the hashes of the secrets sent, and what the engine sent as secret. */
const secretKeys = (type: ResourceType, ...sent: (Plain | undefined)[]) => [
  ...secretProperties(definition(type)),
  "secretHashes",
  ...sent.flatMap(secretKeysOf),
];

/** An error carrying outputs: the partial failure the steps throw (provider/dynamic-provider.ts, `settle`). */
const isPartialFailure = (e: unknown): e is Error & { properties: Plain } =>
  e instanceof Error && "properties" in e && isPlainObject(e.properties);

/** An error carrying outputs (a partial failure) with its outputs' secrets wrapped. */
function concealError(e: unknown, keys: readonly string[]): unknown {
  if (isPartialFailure(e)) e.properties = conceal(e.properties, keys)!;
  return e;
}

/**
 * The import id of a resource read with no state: `<kind>/<id>` where the kind selects the route,
 * `<projectId>/<id>` where the read needs the project (`importPrefix`).
 */
function importTarget(type: ResourceType, fixed: Plain | undefined, id: string, outs: Plain) {
  const def = definition(type);
  const field = def.importPrefix ?? def.kindField;
  if (!field || outs[field] !== undefined) return { id, outs };
  const slash = id.indexOf("/");
  if (slash <= 0) {
    const why = field === def.kindField ? `the ${field} selects the service's route` : `the read needs the ${field}`;
    throw new Error(`import id: a ${type} is imported as <${field}>/<id> (${why}), not ${JSON.stringify(id)}`);
  }
  return { id: id.slice(slash + 1), outs: { ...fixed, [field]: id.slice(0, slash) } };
}

// Python dicts. A Python program may pass a nested object as a dict: the generated SDK translates
// an Args class's snake_case names to the schema's camelCase ones, but not a dict's keys where
// the arg is a union (one object type per kind: `sync_options`, `destination_config`,
// `credentials`, `parameters`, …), and `pulumi import` prints such dicts. No field of the schemas
// has an underscore in its name, so a snake_case key a kind's object does not have, whose
// camelCase spelling it has, is that field: check takes it as such, in every object the kind's
// schema knows the shape of (not in one it passes through unchecked). The spelling compares
// letters without case, so `is_ca` is `isCA` and `cluster_uuid` `clusterUUID`, as the Python
// SDK spells them. A key no field has is refused, naming the nearest field in snake_case
// (`withSnakeCaseKeys`, sdk/schemas/issues.ts).

/** The object shapes a value of `schema` may have at its level: through optional, default, pipes and unions. */
function shapesOf(schema: z.core.$ZodType): Readonly<Record<string, z.core.$ZodType>>[] {
  if (schema instanceof z.ZodObject) return [schema.shape];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return shapesOf(schema.unwrap());
  if (schema instanceof z.ZodPipe) return shapesOf(schema.in);
  if (schema instanceof z.ZodUnion) return schema.options.flatMap(shapesOf);
  if (schema instanceof z.ZodIntersection) return [...shapesOf(schema.def.left), ...shapesOf(schema.def.right)];
  return [];
}

/** The element schemas of the arrays a value of `schema` may be. */
function elementsOf(schema: z.core.$ZodType): z.core.$ZodType[] {
  if (schema instanceof z.ZodArray) return [schema.element];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return elementsOf(schema.unwrap());
  if (schema instanceof z.ZodUnion) return schema.options.flatMap(elementsOf);
  return [];
}

/** The field of `shapes` a snake_case key spells (its letters, without case), if any. */
function fieldSpelt(key: string, shapes: readonly Readonly<Record<string, z.core.$ZodType>>[]): string | undefined {
  const letters = key.replaceAll("_", "").toLowerCase();
  for (const shape of shapes) {
    const field = Object.keys(shape).find((f) => f.toLowerCase() === letters);
    if (field) return field;
  }
  return undefined;
}

/** `value` with every snake_case key the schemas' objects know in camelCase spelled so, at any depth. */
function camelKeys(value: unknown, schemas: readonly z.core.$ZodType[]): unknown {
  if (Array.isArray(value)) {
    const elements = schemas.flatMap(elementsOf);
    return value.map((v) => camelKeys(v, elements));
  }
  const shapes = schemas.flatMap(shapesOf);
  if (!isPlainObject(value) || shapes.length === 0) return value;
  const known = (key: string) => shapes.some((shape) => Object.hasOwn(shape, key));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      const key = (!known(k) && k.includes("_") && fieldSpelt(k, shapes)) || k;
      return [
        key,
        camelKeys(
          v,
          shapes.flatMap((shape) => (Object.hasOwn(shape, key) ? [shape[key]!] : [])),
        ),
      ];
    }),
  );
}

/** The args with the snake_case keys of their nested objects spelled as the kind's schema does. */
function withSchemaKeys(type: ResourceType, args: Plain): Plain {
  const schemas = definition(type).schemas(args, args);
  if (typeof schemas === "string") return args;
  const shape = schemas.args.shape;
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, Object.hasOwn(shape, k) ? camelKeys(v, [shape[k]!]) : v]),
  );
}

/** check: the dynamic path's, with the class's fixed options and the resource's name from its URN. */
async function check(urn: string, olds: Plain, news: Plain): Promise<provider.CheckResult> {
  const r = resourceOf(urn);
  const named = { ...withSchemaKeys(r.type, { ...revealProps(news), ...r.fixed }), [RESOURCE_NAME_KEY]: r.name };
  const result = await withSnakeCaseKeys(() => dynamicSteps(r.type).check!(revealProps(olds), named));
  const { [RESOURCE_NAME_KEY]: _name, ...inputs }: Plain = result.inputs ?? named;
  return { inputs: conceal(inputs, secretKeys(r.type, news)), failures: result.failures };
}

async function diff(id: string, urn: string, olds: Plain, news: Plain): Promise<provider.DiffResult> {
  const { type } = resourceOf(urn);
  return dynamicSteps(type).diff!(id, revealProps(olds), revealProps(news));
}

async function create(urn: string, inputs: Plain): Promise<provider.CreateResult> {
  const { type } = resourceOf(urn);
  const keys = secretKeys(type, inputs);
  try {
    const result = await dynamicSteps(type).create(revealProps(inputs));
    return { id: result.id, outs: conceal(result.outs, keys) };
  } catch (e) {
    throw concealError(e, keys);
  }
}

/** read: a refresh, or an import (no state: the id names the kind, see `importTarget`). */
async function read(id: string, urn: string, props?: Plain): Promise<provider.ReadResult> {
  const r = resourceOf(urn);
  const target = importTarget(r.type, r.fixed, id, revealProps(props));
  const result: dynamic.ReadResult = await dynamicSteps(r.type).read!(target.id, target.outs);
  const keys = secretKeys(r.type, props);
  return { id: result.id, props: conceal(result.props, keys), inputs: conceal(result.inputs, keys) };
}

async function update(id: string, urn: string, olds: Plain, news: Plain): Promise<provider.UpdateResult> {
  const { type } = resourceOf(urn);
  const keys = secretKeys(type, news);
  try {
    const result = await dynamicSteps(type).update!(id, revealProps(olds), revealProps(news));
    return { outs: conceal(result.outs, keys) };
  } catch (e) {
    throw concealError(e, keys);
  }
}

async function remove(id: string, urn: string, props: Plain): Promise<void> {
  const { type } = resourceOf(urn);
  await dynamicSteps(type).delete!(id, revealProps(props));
}

/** invoke: the audit-log query, with the program's query rules, at the stack's endpoint. */
async function invoke(token: string, inputs: Plain): Promise<provider.InvokeResult> {
  if (token !== AUDIT_LOGS_TOKEN) throw new Error(`unknown function ${token}`);
  const args = revealProps(inputs);
  const issues = queryIssues(args);
  if (issues.length) return { failures: issues.map((i) => ({ property: i.path, reason: i.message })) };
  return { outputs: await queryAuditLogs(apiClient(), args) };
}

/** This package's root (package.json, schema.json), from the source tree or from dist/. */
function packageRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && JSON.parse(fs.readFileSync(file, "utf8")).name === "secretops-pulumi") return dir;
    if (path.dirname(dir) === dir) throw new Error("secretops-pulumi's package.json not found");
  }
}

/** The provider the plugin serves. */
export function nativeProvider(): provider.Provider {
  const root = packageRoot();
  return {
    version: JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version,
    getSchema: async () => fs.readFileSync(path.join(root, "schema.json"), "utf8"),
    check,
    diff,
    create,
    read,
    update,
    delete: remove,
    invoke,
  };
}

/**
 * The engine's config for the provider (`secretops:*`), by full key, as the dynamic path's
 * `configure` gets it; and which keys the engine sent as secrets (a key only in the older
 * variables, which carry no secrecy, counts as secret).
 */
export function configFrom(request: {
  getVariablesMap?(): { forEach(f: (v: string, k: string) => void): void } | undefined;
  getArgs?(): { toJavaScript(): Plain } | undefined;
}): { config: ConfigReader; isSecret(key: string): boolean } {
  const values = new Map<string, string>();
  const plain = new Set<string>();
  // `secretops:config:apiUrl` (the variables' older form) is `secretops:apiUrl`.
  request.getVariablesMap?.()?.forEach((v, k) => values.set(k.replace(/^([^:]+):config:/, "$1:"), v));
  for (const [k, v] of Object.entries(request.getArgs?.()?.toJavaScript() ?? {})) {
    const value = reveal(v);
    if (value === undefined || value === null || k === "version") continue;
    values.set(`${PACKAGE}:${k}`, typeof value === "string" ? value : JSON.stringify(value));
    if (!holdsSecret(v)) plain.add(`${PACKAGE}:${k}`);
  }
  return { config: { get: (key) => values.get(key) }, isSecret: (key) => !plain.has(key) };
}

/** Configure: the settings, and the same refusal of plain credentials as the program's classes. */
function configureFrom(request: Parameters<typeof configFrom>[0]): void {
  const { config, isSecret } = configFrom(request);
  configureSettings(config, plainCredentialConfigProblem(config.get, isSecret));
}

/** The provider service's implementation, as @pulumi/pulumi's provider server registers it. */
const isProviderServer = (impl: grpcTypes.UntypedServiceImplementation): impl is IResourceProviderServer =>
  typeof impl.read === "function" && typeof impl.configure === "function";

/**
 * The provider server of @pulumi/pulumi answers Configure itself (with no hook) and its read
 * crashes on an import, which sends no properties (`req.getProperties().toJavaScript()`). Both
 * are reached through the gRPC service it registers: its configure hands the config to the
 * settings (provider/config.ts) first, its read gets empty properties for an import.
 */
function wrapProviderService(): void {
  // The copies @pulumi/pulumi's server uses.
  const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpc: typeof grpcTypes = require(require.resolve("@grpc/grpc-js", from));
  const { Struct }: typeof structTypes = require(require.resolve("google-protobuf/google/protobuf/struct_pb", from));
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, implementation) {
    if (isProviderServer(implementation)) {
      const [readRpc, configureRpc] = [
        implementation.read.bind(implementation),
        implementation.configure.bind(implementation),
      ];
      implementation.read = (call, callback) => {
        if (!call.request.getProperties()) call.request.setProperties(Struct.fromJavaScript({}));
        return readRpc(call, callback);
      };
      implementation.configure = (call, callback) => {
        configureFrom(call.request);
        return configureRpc(call, callback);
      };
    }
    return addService.call(this, service, implementation);
  };
}

/** The plugin's entry point: serves the provider to the engine at the address in `args`. */
export async function serve(args: string[]): Promise<void> {
  wrapProviderService();
  const { main } = await import("@pulumi/pulumi/provider");
  await main(nativeProvider(), args);
}
