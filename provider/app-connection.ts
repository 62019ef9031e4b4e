import { z } from "zod";
import type { AppConnectionCreateInput, SecretOpsClient } from "../sdk";
import { SecretOpsApiError } from "../sdk/errors";
import {
  type AppConnection as RemoteConnection,
  type AppConnectionApp,
  type AppConnectionKind,
  appConnectionApps,
  appConnectionKind,
  appConnectionKinds,
  appConnectionMethodCreateSchema,
  appConnectionOperations,
  perRow,
  unknownKindRule,
} from "../sdk/schemas";
import { commonOptions, defineResource } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { familyReads } from "./shared-reads";
import { type ArgsOf } from "./inputs";
import type { Plain } from "./values";

/** Provider options: never sent to the service. */
const options = z.object({
  ...commonOptions,
  /** Take over an existing connection with this name (in `projectId`, else the organization) instead of failing. With the TypeScript classes (dynamic providers), which `pulumi import` cannot import, this is how an object made elsewhere is taken over; through the native provider, `pulumi import` works too. Default false. */
  adoptExisting: z.boolean().default(false),
});

/** The options a program gives. */
type OptionArgs = ArgsOf<z.input<typeof options>>;

/**
 * Args of a connection of kind `A` (by default any: the union of each kind's args, discriminated
 * by `app`, the kind's real slug, and `method`), with one of the methods `M` (by default any of the
 * kind's): the kind's create body for that method (from its schema), and the options.
 */
export type AppConnectionArgs<
  A extends AppConnectionApp = AppConnectionApp,
  M extends string = string,
> = A extends AppConnectionApp ? PerMethod<AppConnectionCreateInput<A, M>, A> : never;

/** One variant per method of a kind: `ArgsOf` of each. */
type PerMethod<U, A> = U extends unknown
  ? ArgsOf<U> &
      OptionArgs & {
        /** The connection kind's real slug. Changing it replaces the connection. */
        app: A;
      }
  : never;

/** The secret credential fields of a kind's methods, as arg paths (from the kind's row). */
export function credentialSecretPaths(kind: AppConnectionKind): string[] {
  return [...new Set(Object.values(kind.methods).flatMap((m) => m.secretFields.map((f) => `credentials.${f}`)))];
}
/** The secret credential paths of every kind. */
export const allCredentialSecretPaths = [
  ...new Set(appConnectionApps.flatMap((app) => credentialSecretPaths(appConnectionKinds[app]))),
];

/** The connection kind's secret paths, for whatever kind the args name. */
export const credentialSecrets = {
  of: (args: Plain) => {
    const kind = typeof args.app === "string" ? appConnectionKind(args.app) : undefined;
    return kind ? credentialSecretPaths(kind) : [];
  },
  all: allCredentialSecretPaths,
};

/** The service refuses to turn platform-managed credentials off: say so in preview. */
export const platformManagedIsOneWay = (olds: Plain, news: Plain) =>
  olds.isPlatformManagedCredentials === true && news.isPlatformManagedCredentials === false
    ? [
        {
          property: "isPlatformManagedCredentials",
          reason: "cannot be turned off once enabled (the switch is one-way)",
        },
      ]
    : [];

/** The service's fingerprint of the credentials it never returns: out-of-band credential changes show as drift. */
export const credentialsFingerprint = { field: "credentials", of: (c: RemoteConnection) => c.credentialsHash };

/** The create bodies of a kind, by method. */
const createBodies = perRow((kind: AppConnectionKind) =>
  Object.fromEntries(Object.keys(kind.methods).map((m) => [m, appConnectionMethodCreateSchema(kind, m)])),
);

/** A connection's args as `check` made them: one method's create body, and its kind. */
type ConnectionArgs = z.output<ReturnType<typeof appConnectionMethodCreateSchema>> & { app: AppConnectionApp };
type ConnectionOptions = z.output<typeof options>;

/**
 * The SDK's connection client for a kind known only at run time. The SDK types each kind's body
 * on its own; `check` has validated these args against their kind's schema, so this file calls
 * it through this view (its one cast).
 */
interface AnyKindConnections {
  get(app: string, id: string): Promise<RemoteConnection>;
  getByName(app: string, name: string, query: { projectId?: string }): Promise<RemoteConnection>;
  create(app: string, body: Omit<ConnectionArgs, "app">): Promise<RemoteConnection>;
  update(app: string, id: string, body: Partial<ConnectionArgs>): Promise<RemoteConnection>;
  delete(app: string, id: string): Promise<RemoteConnection>;
}
const connections = (client: SecretOpsClient) => client.appConnections as unknown as AnyKindConnections;

/** The service's words when a sync or rotation still uses the connection (docs/service-api.md §1). */
const IN_USE = "Cannot delete App Connection with existing connections";

/**
 * An app connection made in code, of any kind and method. Its credentials are secret inputs:
 * encrypted in state, never in outputs or previews; a change the service cannot show (a new
 * password) is seen through its `credentialsHash`. Name, description, credentials, and the
 * settings the kind's PATCH takes update in place; `app`, `method` and `projectId` replace it.
 * The service refuses to delete a connection a sync or rotation still uses.
 */
export const appConnectionDefinition = defineResource<RemoteConnection, ConnectionArgs, ConnectionOptions>()({
  type: "AppConnection",
  kindField: "app",
  schemas(args) {
    const kind = typeof args.app === "string" ? appConnectionKind(args.app) : undefined;
    if (!kind) return unknownKindRule("connection kind", args.app, appConnectionApps);
    const methods = Object.keys(kind.methods);
    // A method not known yet (preview) is checked against the first; its issues are left out then.
    const method = typeof args.method === "string" ? args.method : methods[0]!;
    const body = createBodies(kind)[method];
    if (!body) return `method: ${unknownKindRule(`${kind.label} connection method`, method, methods)}`;
    return { args: body, update: appConnectionOperations(kind).update.body };
  },
  options,
  // Names are unique in their scope.
  deleteBeforeReplace: true,
  // Unset, a connection is the organization's and has no gateway: leaving `projectId` out moves it
  // there (a replacement), leaving `gatewayId` out detaches its gateway (PATCH `gatewayId: null`).
  absentMeans: { description: null, projectId: null, gatewayId: null },
  secretPaths: credentialSecrets,
  transitionFailures: platformManagedIsOneWay,
  fingerprint: credentialsFingerprint,
  reported: {
    app: (c) => c.app,
    name: (c) => c.name,
    description: (c) => c.description,
    projectId: (c) => c.projectId ?? undefined,
    method: (c) => c.method,
    /** The non-secret credential fields, as the service returns them. */
    credentials: (c) => c.credentials,
    isPlatformManagedCredentials: (c) => c.isPlatformManagedCredentials,
    gatewayId: (c) => c.gatewayId,
  },
  computed: {
    orgId: (c) => c.orgId,
    version: (c) => c.version,
    createdAt: (c) => c.createdAt,
    updatedAt: (c) => c.updatedAt,
  },

  create(client, args) {
    // The kind is the route's; the body is the rest.
    const { app, ...body } = args;
    return connections(client).create(app, body);
  },
  find: (client, args) =>
    orUndefinedOn404(connections(client).getByName(args.app, args.name, { projectId: args.projectId })),
  read: (client, id, outs) => orUndefinedOn404(connections(client).get(outs.app, id)),
  // A project's connections of every kind in one call; an organization's connection is read by id.
  listed: {
    scopeOf: (outs) => outs.projectId,
    reads: familyReads((client, projectId) => client.appConnections.listAll({ projectId })),
  },
  update: (client, id, patch, outs) => connections(client).update(outs.app, id, patch),
  async delete(client, id, outs) {
    try {
      await connections(client).delete(outs.app, id);
    } catch (e) {
      if (e instanceof SecretOpsApiError && e.status === 400 && e.message.includes(IN_USE)) {
        // One message: what happened and what to do (the service's own words say neither).
        throw new Error(
          `connection "${outs.name}" is still used by a secret sync or rotation, so the service refuses to delete it: ` +
            `delete those or point them at another connection first (this program's resources that use its id ` +
            `are deleted before it)`,
        );
      }
      throw e;
    }
  },
});
