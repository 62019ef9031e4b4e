import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import {
  type IdentityAuth as ServiceAuth,
  type IdentityAuthMethod,
  type IdentityAuthMethodRow,
  type StoredTrustedIp,
  accessTokenFields,
  identityAuthAttachSchema,
  identityAuthMethodRow,
  identityAuthMethodSlugs,
  identityAuthMethods,
  identityAuthRules,
  identityAuthUpdateSchema,
  isAnywhere,
  nonEmpty,
  perRow,
  unknownKindRule,
} from "../sdk/schemas";
import { formatIssue } from "../sdk/schemas/issues";
import { commonOptions, defineResource } from "./definition";
import { type ArgsOf } from "./inputs";
import { isNotFound } from "./not-found";
import { uniqueIn } from "./program-keys";
import { type Plain, getPath, withoutPaths } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({ ...commonOptions });

type Rows = typeof identityAuthMethods;
type FieldsOf<M extends IdentityAuthMethod> = typeof accessTokenFields & Rows[M]["fields"];
/** A field the program may leave out: it has a default on attach, or its schema takes undefined. */
type IsOptional<F> = F extends { default: unknown }
  ? true
  : F extends { schema: infer S extends z.ZodType }
    ? undefined extends z.input<S>
      ? true
      : false
    : false;
type InputOf<F> = F extends { schema: infer S extends z.ZodType } ? z.input<S> : never;

/** A method's attach body as the program gives it, from its row: each field with its doc. */
type MethodBody<F> = { [K in keyof F as IsOptional<F[K]> extends true ? K : never]?: InputOf<F[K]> } & {
  [K in keyof F as IsOptional<F[K]> extends true ? never : K]: InputOf<F[K]>;
};

/** The identity and the method: what every login method's args have beside its body. */
interface AuthTarget<M> {
  /** The machine identity the method logs in as (its `id`). Changing it replaces the method. */
  identityId: pulumi.Input<string>;
  /** The login method's real slug (`universal-auth`, `kubernetes-auth`, …): selects the typed args. An identity has at most one of each. Changing it replaces the method. */
  method: M;
}

/** The args of a login method `M` (by default any: the union of each one's, discriminated by `method`). */
export type IdentityAuthArgs<M extends IdentityAuthMethod = IdentityAuthMethod> = M extends IdentityAuthMethod
  ? ArgsOf<MethodBody<FieldsOf<M>>> & ArgsOf<z.input<typeof options>> & AuthTarget<M>
  : never;

/** A method's object as this resource reads it: by its identity's id, with its method. */
type Remote = ServiceAuth & { id: string; method: string };

/** Each method's args as `check` made them: its attach body and its identity. */
type AuthArgs = Plain & { identityId: string; method: string };

const rows = Object.values(identityAuthMethods) as IdentityAuthMethodRow[];
const unique = <T>(xs: T[]) => [...new Set(xs)];
const secretFieldNames = unique(rows.flatMap((r) => r.secretFields));
const trustedIpFieldNames = unique(rows.flatMap((r) => r.trustedIpFields));

function rowOf(method: unknown): IdentityAuthMethodRow {
  const row = typeof method === "string" ? identityAuthMethodRow(method) : undefined;
  if (!row) throw new Error(`method: ${unknownKindRule("identity auth method", method, identityAuthMethodSlugs)}`);
  return row;
}

/** The args a method's attach takes: its body, and the identity it is on. */
const argsSchema = perRow((row: IdentityAuthMethodRow) =>
  identityAuthAttachSchema(row).safeExtend({
    /** The machine identity the method logs in as (its `id`). Changing it replaces the method. */
    identityId: nonEmpty,
  }),
);

/** Trusted IPs as the program declares them: the service stores `{ ipAddress, type, prefix }` (`extractIPDetails`). */
export function programTrustedIps(stored: unknown): { ipAddress: string }[] | undefined {
  if (!Array.isArray(stored)) return undefined;
  return (stored as StoredTrustedIp[]).map(({ ipAddress, prefix }) => ({
    ipAddress:
      prefix === undefined || prefix === null || ipAddress.includes("/") ? ipAddress : `${ipAddress}/${prefix}`,
  }));
}

type AnyField =
  keyof FieldsOf<IdentityAuthMethod> | { [M in IdentityAuthMethod]: keyof Rows[M]["fields"] }[IdentityAuthMethod];
type SecretField = Rows[IdentityAuthMethod]["secretFields"][number];
/** The fields a method reports (its secret ones never come back as outputs). */
type ReportedField = Exclude<AnyField, SecretField>;
type OutputOf<K> = {
  [M in IdentityAuthMethod]: K extends keyof FieldsOf<M>
    ? FieldsOf<M>[K] extends { schema: infer S extends z.ZodType }
      ? z.output<S>
      : never
    : never;
}[IdentityAuthMethod];

/** A field's value without the secrets inside it (`trustBundleDistribution.bundle`): those are never outputs. */
function withoutInnerSecrets(field: string): (a: Remote) => unknown {
  const inner = secretFieldNames.filter((p) => p.startsWith(`${field}.`));
  if (!inner.length) return (a) => a[field];
  return (a) => (a[field] === undefined ? undefined : withoutPaths({ [field]: a[field] }, inner)[field]);
}

/** Each reported field read off the service's object (trusted IPs as the program declares them). */
function fieldReaders(): { [K in ReportedField]: (a: Remote) => OutputOf<K> | undefined } {
  const names = unique([...Object.keys(accessTokenFields), ...rows.flatMap((r) => Object.keys(r.fields))]).filter(
    (f) => !secretFieldNames.includes(f),
  );
  return Object.fromEntries(
    names.map((f) => [
      f,
      trustedIpFieldNames.includes(f) ? (a: Remote) => programTrustedIps(a[f]) : withoutInnerSecrets(f),
    ]),
  ) as never;
}

/** The secret fields the service returns decrypted on a read, by method: out-of-band changes are seen, never shown. */
const returnedSecrets = Object.fromEntries(
  unique(rows.flatMap((r) => [...(r.returnedSecretFields ?? [])])).map((f) => [
    f,
    (a: Remote) => (identityAuthMethodRow(a.method)?.returnedSecretFields?.includes(f) ? getPath(a, f) : undefined),
  ]),
);

/** The secret fields of the method in `args`, for whatever method they name. */
const authSecrets = {
  of: (args: Plain) => {
    const row = typeof args.method === "string" ? identityAuthMethodRow(args.method) : undefined;
    return row ? [...row.secretFields] : [];
  },
  all: secretFieldNames,
};

/**
 * A read, update or revoke of a method the identity does not have: the service says 400 with the
 * row's words (`notAttachedMessage`, each method's service file); a gone identity is a 404.
 */
function isNotAttached(row: IdentityAuthMethodRow, e: unknown): boolean {
  if (isNotFound(e)) return true;
  if (!(e instanceof SecretOpsApiError) || e.status !== 400) return false;
  return e.message.includes(row.notAttachedMessage);
}

/**
 * The plan gate (docs/service-api.md §18): a trusted IP other than anywhere on a plan without IP
 * allowlisting. The service's message names no field: this names the fields holding one.
 */
function withGatedFields(row: IdentityAuthMethodRow, body: Plain, e: unknown): unknown {
  if (!(e instanceof SecretOpsApiError) || e.status !== 400 || !e.message.includes("due to plan restriction")) return e;
  const gated = row.trustedIpFields.filter(
    (f) => Array.isArray(body[f]) && (body[f] as { ipAddress: string }[]).some((ip) => !isAnywhere(ip.ipAddress)),
  );
  if (!gated.length) return e;
  return new Error(gated.map((path) => formatIssue({ path, message: e.message })).join("; "));
}

/** Runs a write of a method's body, naming the gated fields when the plan refuses them. */
async function gated<T>(row: IdentityAuthMethodRow, body: Plain, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    throw withGatedFields(row, body, e);
  }
}

const remoteOf = (auth: ServiceAuth, identityId: string, method: string): Remote => ({
  ...auth,
  id: identityId,
  method,
});

/**
 * One login method of a machine identity, the method being its kind (`method`): universal auth
 * (its `clientId` an output; client secrets are `IdentityClientSecret`s), token auth, Kubernetes,
 * OIDC, JWT, AWS, GCP, Azure, …, one row each. An identity has at most one of each method: two in one program are
 * refused at preview, naming both. Its secret fields (a CA certificate, a token reviewer JWT) are
 * secret inputs; those the service returns show out-of-band changes as drift, never their value.
 * Every field the PATCH takes updates in place; `identityId`, `method` and a field the PATCH does
 * not take replace it (the old one revoked first). Trusted IPs other than
 * anywhere need the IP-allowlisting feature of a licensed plan. `pulumi import` takes
 * `<method>/<identityId>`.
 */
export const identityAuthDefinition = defineResource<Remote, AuthArgs, z.output<typeof options>>()({
  type: "IdentityAuth",
  kindField: "method",
  schemas(args) {
    const row = typeof args.method === "string" ? identityAuthMethodRow(args.method) : undefined;
    if (!row) return unknownKindRule("identity auth method", args.method, identityAuthMethodSlugs);
    return { args: argsSchema(row), update: identityAuthUpdateSchema(row), rules: identityAuthRules(row, true) };
  },
  options,
  // A field the PATCH does not take (`notInPatch`) replaces the method on the same identity, where
  // the service holds one of each: the old one is revoked first.
  deleteBeforeReplace: true,
  secretPaths: authSecrets,
  returnedSecrets,
  reported: {
    identityId: (a) => a.identityId,
    method: (a) => a.method,
    ...fieldReaders(),
  },
  computed: {
    /** Universal auth's client id: what a login sends with a client secret. */
    clientId: (a) => a.clientId,
    createdAt: (a) => a.createdAt,
    updatedAt: (a) => a.updatedAt,
  },
  exclusive: uniqueIn("IdentityAuth", "method", ["identityId"], "on one identity"),

  async create(client, { method, identityId, ...body }) {
    const row = rowOf(method);
    const auth = await gated(row, body, () => client.identityAuths.attach(method, identityId, body));
    return remoteOf(auth, identityId, method);
  },
  find: (client, a) => readAuth(client, a.method, a.identityId),
  read: (client, id, outs) => readAuth(client, outs.method, id),
  async update(client, id, patch, outs) {
    const row = rowOf(outs.method);
    // Fields the PATCH requires, or blanks when left out (`alwaysInPatch`), go with every PATCH.
    const body: Plain = { ...patch };
    for (const f of row.alwaysInPatch ?? []) if (body[f] === undefined && outs[f] !== undefined) body[f] = outs[f];
    const auth = await gated(row, body, () => client.identityAuths.update(outs.method, id, body));
    return remoteOf(auth, id, outs.method);
  },
  async delete(client, id, outs) {
    try {
      await client.identityAuths.revoke(outs.method, id);
    } catch (e) {
      // Gone with its identity, or revoked elsewhere: what delete wants.
      if (!isNotAttached(rowOf(outs.method), e)) throw e;
    }
  },
});

/** The method on the identity; undefined when the identity or the method is gone. */
async function readAuth(client: SecretOpsClient, method: string, identityId: string): Promise<Remote | undefined> {
  const row = rowOf(method);
  try {
    return remoteOf(await client.identityAuths.get(method, identityId), identityId, method);
  } catch (e) {
    if (isNotAttached(row, e)) return undefined;
    throw e;
  }
}
