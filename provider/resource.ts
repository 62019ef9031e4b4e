import * as pulumi from "@pulumi/pulumi";

/**
 * Program-side plumbing shared by the resource classes.
 *
 * The engine serializes each resource's provider into state (`__provider`). Ours captures only
 * the family name: every method loads the implementation by package name inside the provider
 * process. So state stays small, the code that runs is the installed package's, and no
 * credential can ever be captured (they are read in the provider process from stack config or
 * the environment, see provider/config.ts).
 */

export type FamilyName = "SecretSync" | "SecretRotation" | "CertificateProfile" | "AppConnectionSettings";

export function serializedProvider(family: FamilyName): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require("secretops-pulumi/runtime").configure(req),
    check: (olds, news) => require("secretops-pulumi/runtime").provider(family).check(olds, news),
    diff: (id, olds, news) => require("secretops-pulumi/runtime").provider(family).diff(id, olds, news),
    create: (inputs) => require("secretops-pulumi/runtime").provider(family).create(inputs),
    read: (id, props) => require("secretops-pulumi/runtime").provider(family).read(id, props),
    update: (id, olds, news) => require("secretops-pulumi/runtime").provider(family).update(id, olds, news),
    delete: (id, props) => require("secretops-pulumi/runtime").provider(family).delete(id, props),
  };
}

/** The module of every type token: `pulumi-nodejs:dynamic/secretops:<Family>`. */
export const TYPE_MODULE = "secretops";

/**
 * The props a resource registers: its args, with the top-level args holding secrets wrapped as
 * secrets (encrypted in state, masked in previews), and every output name present so the engine
 * exposes it.
 */
export function registerProps(
  args: object,
  secretArgs: readonly string[],
  outputNames: readonly string[],
): Record<string, pulumi.Input<unknown>> {
  const props: Record<string, pulumi.Input<unknown>> = {};
  for (const name of outputNames) props[name] = undefined;
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    props[k] = secretArgs.includes(k) ? pulumi.secret(v) : v;
  }
  return props;
}

/** Resource options with our secret outputs added to the user's. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: readonly string[],
): pulumi.CustomResourceOptions {
  return {
    ...opts,
    additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs, "secretHashes"],
  };
}

/** Deeply `pulumi.Input`-wrapped version of an args shape. */
export type DeepInput<T> = T extends string | number | boolean | null | undefined
  ? pulumi.Input<T>
  : T extends readonly (infer U)[]
    ? pulumi.Input<DeepInput<U>[]>
    : T extends object
      ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
      : pulumi.Input<T>;
