import * as pulumi from "@pulumi/pulumi";
import { settingSources, ENDPOINTS_KEY } from "./config";
import { secretSettingNames } from "./setting-sources";
import type { DefinitionShape, ResourceType } from "./definition";
import { programResources } from "./program-resources";
import { OUTPUT_ORIGINS_KEY, RESOURCE_NAME_KEY } from "./values";

/**
 * Runs in the Pulumi program: the resource classes, built from what each definition registers
 * (provider/program-resources.ts, generated from the definitions), so that a program loads none of
 * the definitions and their schemas.
 *
 * The engine serializes each resource's provider into state (`__provider`). Ours captures only
 * the resource type: the implementation is loaded by package name inside the provider process
 * (provider/provider-process.ts). So state stays small, the code that runs is the installed
 * package's, and no credential can ever be captured (they are read in the provider process from
 * stack config or the environment, see provider/config.ts).
 */

/**
 * The `__provider` every resource of a type registers: the text Pulumi's closure serializer writes
 * for a provider that is the installed module `secretops-pulumi/runtime/<type>` (byte for byte what
 * `pulumi.dynamic.Resource` stored before, so existing state sees no change). The provider process
 * loads the module by package name, so state stays small, the code that runs is the installed
 * package's, and no credential is ever captured. Written here instead of serialized: the first
 * serialization loads the closure serializer and the TypeScript compiler it parses with, about half
 * a CPU-second of every program run (`pulumi preview` of one resource spent 0.4 to 0.7 s there).
 */
export function providerModuleText(type: ResourceType): string {
  return [
    "exports.handler = __f0;",
    `const provider = require(${JSON.stringify(`secretops-pulumi/runtime/${type}`)});`,
    "",
    "function __f0() {",
    "  return (function() {",
    "    with({ this: undefined, arguments: undefined }) {",
    "",
    "return () => provider;",
    "",
    "    }",
    "  }).apply(undefined, undefined).apply(this, arguments);",
    "}",
    "",
  ].join("\n");
}

/** The module of every type token: `pulumi-nodejs:dynamic/secretops:<type>`. */
export const TYPE_MODULE = "secretops";

/** A dynamic resource's type token, as `pulumi.dynamic.Resource` makes it: the engine sends it to the Node.js dynamic provider host. */
const typeToken = (type: ResourceType) => `pulumi-nodejs:dynamic/${TYPE_MODULE}:${type}`;

/**
 * The props a resource registers: its args, with the top-level args holding secrets wrapped as
 * secrets (encrypted in state, masked in previews), and every output name present so the engine
 * exposes it.
 */
function registerProps(
  name: string,
  args: object,
  secrets: readonly string[],
  outputs: readonly string[],
): Record<string, pulumi.Input<unknown>> {
  // For messages that name another resource of the program; check drops it (never stored).
  const props: Record<string, pulumi.Input<unknown>> = { [RESOURCE_NAME_KEY]: name };
  for (const name of outputs) props[name] = undefined;
  const origins: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    if (pulumi.Output.isInstance(v)) origins[k] = originOf(v);
    props[k] = secrets.includes(k) ? pulumi.secret(v) : v;
  }
  // Known at preview while the Outputs' values are not; check drops it too (never stored nor sent).
  if (Object.keys(origins).length > 0) props[OUTPUT_ORIGINS_KEY] = origins;
  return props;
}

/**
 * The tokens of the Outputs the program passed, by identity: an Output read from a resource
 * (`folder.secretPath`) is one object however often it is read, so every resource given it gets
 * one token, and two Outputs never share one. Kept on `globalThis` so that two copies of the
 * package loaded by one program share it (each counting from 1 would give two Outputs one token).
 */
interface OriginTokens {
  readonly ids: WeakMap<object, string>;
  next: number;
}
const ORIGIN_TOKENS = Symbol.for("secretops-pulumi.outputOrigins");
const shared = globalThis as unknown as { [ORIGIN_TOKENS]?: OriginTokens };
const originTokens = (shared[ORIGIN_TOKENS] ??= { ids: new WeakMap(), next: 1 });

/** The token of one Output object (`OUTPUT_ORIGINS_KEY` in provider/values.ts). */
function originOf(output: object): string {
  let id = originTokens.ids.get(output);
  if (id === undefined) {
    id = String(originTokens.next++);
    originTokens.ids.set(output, id);
  }
  return id;
}

/** The credential settings that stack config must hold as secrets (provider/config.ts). */
const secretSettings = secretSettingNames.map((name) => settingSources[name]);
/** Exported by the runtime (runtime/config.js) but marked internal, so not in its typings. */
const isConfigSecret: ((key: string) => boolean) | undefined = Reflect.get(pulumi.runtime, "isConfigSecret");

/**
 * Fails the program when `secretops:token`, `secretops:clientSecret` or `secretops:oidcToken` is plain (not `--secret`)
 * stack config: the engine itself stores plain config unencrypted in `Pulumi.<stack>.yaml`, so
 * the provider cannot keep it out of plaintext. Runs before the first resource registers, so the
 * program stops there with one error; the message names the key, never the value.
 */
let credentialConfigChecked = false;

/** The credential settings a `secretops:endpoints` value holds, by path (`b.token`), never their values. */
function credentialsIn(raw: string): string[] {
  let all: unknown;
  try {
    all = JSON.parse(raw);
  } catch {
    return [];
  }
  if (all === null || typeof all !== "object") return [];
  return Object.entries(all).flatMap(([name, e]) =>
    e !== null && typeof e === "object" ? secretSettingNames.filter((k) => k in e).map((k) => `${name}.${k}`) : [],
  );
}
export function refusePlainCredentialConfig(): void {
  // Stack config does not change while a program runs: once it passed, it passes for every resource.
  if (!isConfigSecret || credentialConfigChecked) return;
  const secret = isConfigSecret;
  // The language host may pass the older `<ns>:config:<name>` form of the key.
  const isSecret = (key: string) => secret(key) || secret(key.replace(":", ":config:"));
  const problem = plainCredentialConfigProblem((key) => pulumi.runtime.getConfig(key), isSecret);
  if (problem) throw new pulumi.RunError(problem);
  credentialConfigChecked = true;
}

/**
 * What is wrong with the credentials in stack config: `secretops:token`, `clientSecret` or `oidcToken`
 * (or a named endpoint's) set as plain config, which the engine stores unencrypted in
 * `Pulumi.<stack>.yaml`. The message names the key, never the value. The program's classes
 * refuse to run with it; the native provider's checks report it.
 */
export function plainCredentialConfigProblem(
  get: (key: string) => string | undefined,
  isSecret: (key: string) => boolean,
): string | undefined {
  for (const { key, env } of secretSettings) {
    if (get(key) === undefined || isSecret(key)) continue;
    return (
      `${key} is set as plain stack config, which Pulumi stores unencrypted in Pulumi.<stack>.yaml. ` +
      `Set it as a secret with \`pulumi config set --secret ${key} <value>\`, or remove it ` +
      `(\`pulumi config rm ${key}\`) and set ${env.join(" or ")} in the environment.`
    );
  }
  // Named endpoints: one secret value under the key (set with --secret --path) makes the key secret.
  const endpoints = get(ENDPOINTS_KEY);
  if (endpoints === undefined || isSecret(ENDPOINTS_KEY)) return undefined;
  const named = credentialsIn(endpoints);
  if (named.length === 0) return undefined;
  return (
    `${ENDPOINTS_KEY} holds ${named.join(", ")} as plain stack config, which Pulumi stores unencrypted in ` +
    `Pulumi.<stack>.yaml. Set each as a secret: \`pulumi config set --secret --path '${ENDPOINTS_KEY}.<name>.token' <value>\`.`
  );
}

/** The output type of a definition: one `Output` per arg and per computed field. */
export type OutputsOf<D extends DefinitionShape> = {
  readonly [K in keyof D["reported"] | keyof D["computed"]]: pulumi.Output<
    K extends keyof D["reported"]
      ? ReturnType<D["reported"][K]>
      : K extends keyof D["computed"]
        ? ReturnType<D["computed"][K]>
        : never
  >;
};

/** A resource of a definition: a dynamic resource with the definition's outputs declared. */
export type ResourceOf<D extends DefinitionShape> = pulumi.CustomResource & OutputsOf<D>;

/*
 * Kind-generic constructors. A resource whose args depend on a kind (`destination`, `type`, `app`
 * and `method`, `enrollmentType`) exports its class with a constructor type of its own, generic in
 * the kind: `new SecretSync(name, args)` infers the kind from the kind field of `args`, and the
 * compiler checks the args against that kind's alone. Against the union of every kind's args,
 * TypeScript reports a mistake in a nested object against the union of every kind's object, if at
 * all (`Type '"eu-west-1"' is not assignable to type 'never'`).
 *
 * The kind's type parameter is a `string`, its args type a conditional on it, with a short
 * fallback naming the kind field: while inferring the kind, the compiler only meets the fallback,
 * instead of building every kind's args (and their schemas' types) to discriminate them, and a
 * kind it does not know is reported on the kind field. The class is the one `resourceClass`
 * makes; TypeScript cannot give a class's constructor type parameters, so the export states its
 * constructor type (`withProgramType`), which scripts/program-types.ts writes into
 * provider/program-types.ts with the args of each kind.
 */

/**
 * A resource class, exported with the constructor type a program checks against: `C`, from
 * provider/program-types.ts (generated from the definition's derived types; scripts/program-types.ts
 * says why).
 */
export const withProgramType = <C>(cls: abstract new (...args: never[]) => object): C => cls as unknown as C;

/**
 * Registering a resource, the Node SDK tags four promises per property with `new Error().stack`,
 * for its promise-leak report (runtime/debuggable.js), and each stack is formatted at once
 * through source-map-support: in a preview of a few hundred resources, more of the program's CPU
 * time than anything else. The stacks are only read when `PULUMI_DEBUG_PROMISE_LEAKS` is set, so
 * otherwise the constructor registers with no frames captured. Returns the function that restores
 * the limit.
 */
function withoutRegistrationStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/** A resource class as the program sees it: its exports state its args and outputs (provider/index.ts). */
export type ProgramClass = new (
  name: string,
  args: object,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

/** The resource class of a type: what it registers is its row of `programResources`. */
export function resourceClass(type: ResourceType): ProgramClass {
  const { outputs, secrets } = programResources[type];
  // What `pulumi.dynamic.Resource` registers (its type token, `__provider` beside the props), with
  // the provider's text written rather than serialized (see providerModuleText).
  const provider = providerModuleText(type);
  // The hashes of the secrets last sent: a type without secrets has none (encodeState leaves
  // them out), and the engine writes every name listed here into state at each step.
  const secretOutputs = secrets.length ? [...secrets, "secretHashes"] : [];
  class Resource extends pulumi.CustomResource {
    constructor(name: string, args: object, opts?: pulumi.CustomResourceOptions) {
      refusePlainCredentialConfig();
      const keepStacks = withoutRegistrationStacks();
      try {
        super(
          typeToken(type),
          name,
          { ...registerProps(name, args, secrets, outputs), __provider: provider },
          { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs] },
        );
      } catch (err) {
        keepStacks();
        // Its stack was captured without frames: give it this constructor's, which names the program's line.
        if (err instanceof Error) Error.captureStackTrace(err, Resource);
        throw err;
      }
      keepStacks();
    }
  }
  // Named as the program names it, in stack traces and `constructor.name`.
  Object.defineProperty(Resource, "name", { value: type });
  return Resource;
}
