import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  AppConnection as RemoteConnection,
  AppConnectionApp,
  appConnectionKind,
  appConnectionKinds,
  appConnectionUpdateSchema,
  connectionName,
  uuid,
} from "../sdk/schemas";
import type { AppConnectionCredentials, AppConnectionUpdateInput } from "../sdk";
import { orUndefinedOn404 } from "./not-found";
import { DeepInput, TYPE_MODULE, registerProps, serializedProvider, withSecretOutputs } from "./resource";
import { Family } from "./scaffold";

/** A PATCH field's type for a kind: the SDK derives it from the kind's row of the 4.1 matrix. */
type Setting<A extends AppConnectionApp, K extends keyof AppConnectionUpdateInput<A>> = AppConnectionUpdateInput<A>[K];

/** The connection to manage: by id, or by name (in `projectId`'s scope, else the organization's). */
type ConnectionIdentity =
  | {
      /** UUID of the connection. Changing it moves management to another connection. */
      connectionId: pulumi.Input<string>;
      connectionName?: never;
    }
  | {
      /** Name of the connection (1 to 64 characters). Changing it moves management to another connection. */
      connectionName: pulumi.Input<string>;
      connectionId?: never;
    };

/** The PATCH-able settings of one kind of connection, discriminated by `app` (its real slug). */
export type AppConnectionSettingsArgs = {
  [A in AppConnectionApp]: ConnectionIdentity & {
    /** The connection kind. Changing it moves management to another connection. */
    app: A;
    /** Scope of a lookup by name; the connection's project. */
    projectId?: pulumi.Input<string>;
    /** At most 256 characters. */
    description?: pulumi.Input<string | null>;
    /** New credentials, whole, in the shape of the connection's method. Secret parts are secret in state and never returned; drift is seen through the service's `credentialsHash`. */
    credentials?: DeepInput<AppConnectionCredentials<A>>;
    /** SQL kinds: hand the credentials to the platform (one-way: cannot be turned off; needs `credentials`). Other kinds: only `false`. */
    isPlatformManagedCredentials?: pulumi.Input<Setting<A, "isPlatformManagedCredentials">>;
    /** SQL and directory kinds: a gateway UUID, or null. Not supported by other kinds. */
    gatewayId?: pulumi.Input<Setting<A, "gatewayId">>;
    /** Cloud app registration: boolean. Other kinds: only `false`. */
    isAutoRotationEnabled?: pulumi.Input<Setting<A, "isAutoRotationEnabled">>;
    /** Cloud app registration only: `rotationInterval` in days, 1 to 365. */
    rotation?: DeepInput<Setting<A, "rotation">>;
  };
}[AppConnectionApp];

const identityFields = ["app", "connectionId", "connectionName", "projectId"] as const;

function secretPathsOf(app: unknown): string[] {
  const kind = typeof app === "string" ? appConnectionKind(app) : undefined;
  if (!kind) return [];
  return [...new Set(Object.values(kind.methods).flatMap((m) => m.secretFields.map((f) => `credentials.${f}`)))];
}

export const appConnectionSettingsFamily: Family<RemoteConnection> = {
  name: "AppConnectionSettings",
  kindField: "app",
  schema: (args) => {
    const kind = typeof args.app === "string" ? appConnectionKind(args.app) : undefined;
    if (!kind) return `app must be one of ${Object.keys(appConnectionKinds).join(", ")}`;
    return appConnectionUpdateSchema(kind)
      .omit({ name: true })
      .extend({
        app: z.literal(kind.app),
        connectionId: uuid.optional(),
        connectionName: connectionName.optional(),
        projectId: z.string().min(1, { error: "must not be empty" }).optional(),
      })
      .superRefine((s, ctx) => {
        if ((s.connectionId === undefined) === (s.connectionName === undefined)) {
          ctx.addIssue({
            code: "custom",
            path: ["connectionId"],
            message: "give exactly one of connectionId and connectionName",
          });
        }
        if (s.isPlatformManagedCredentials === true && s.credentials === undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["credentials"],
            message: "are required to turn on isPlatformManagedCredentials",
          });
        }
      });
  },
  // The service refuses to turn platform-managed credentials off; say so in preview.
  transitionFailures: (olds, news) =>
    olds.isPlatformManagedCredentials === true && news.isPlatformManagedCredentials === false
      ? [
          {
            property: "isPlatformManagedCredentials",
            reason: "cannot be turned off once enabled (the switch is one-way)",
          },
        ]
      : [],
  options: z.object({}),
  manageExisting: {
    notFound: (args) =>
      args.connectionId
        ? `no ${args.app} connection with id ${args.connectionId}`
        : `no ${args.app} connection named "${args.connectionName}"${args.projectId ? ` in project ${args.projectId}` : " in the organization"}`,
  },
  replaceOnChange: identityFields,
  deleteBeforeReplace: false,
  secretPaths: (args) => secretPathsOf(args.app),
  clearable: {},
  fingerprint: { field: "credentials", of: (c) => c.credentialsHash },
  project: (c) => ({
    app: c.app,
    connectionId: c.id,
    connectionName: c.name,
    projectId: c.projectId,
    description: c.description,
    credentials: c.credentials,
    isPlatformManagedCredentials: c.isPlatformManagedCredentials,
    gatewayId: c.gatewayId,
    isAutoRotationEnabled: c.isAutoRotationEnabled,
    rotation: c.rotation ? { rotationInterval: c.rotation.rotationInterval } : undefined,
  }),
  computed: (c) => ({ name: c.name, method: c.method, version: c.version, orgId: c.orgId, updatedAt: c.updatedAt }),

  findExisting: (client, args) =>
    orUndefinedOn404(
      args.connectionId
        ? client.appConnections.get(args.app as AppConnectionApp, args.connectionId as string)
        : client.appConnections.getByName(args.app as AppConnectionApp, args.connectionName as string, {
            projectId: args.projectId as string | undefined,
          }),
    ),
  read: (client, id, outs) => orUndefinedOn404(client.appConnections.get(outs.app as AppConnectionApp, id)),
  update: (client, id, patch, outs) => client.appConnections.update(outs.app as AppConnectionApp, id, patch as never),
  // Releasing management leaves the connection exactly as it is.
  delete: async () => {},
};

const outputNames = [
  "app",
  "connectionId",
  "connectionName",
  "projectId",
  "description",
  "credentials",
  "isPlatformManagedCredentials",
  "gatewayId",
  "isAutoRotationEnabled",
  "rotation",
  "name",
  "method",
  "version",
  "orgId",
  "updatedAt",
] as const;

/**
 * The PATCH-able settings of an existing app connection of any kind. Creating it takes over
 * management of the connection (found by id, or by name); deleting it releases management and
 * leaves the connection in place. Changing `app`, `connectionId`, `connectionName` or
 * `projectId` moves management to another connection.
 */
export class AppConnectionSettings extends pulumi.dynamic.Resource {
  declare readonly app: pulumi.Output<string>;
  declare readonly connectionId: pulumi.Output<string>;
  declare readonly connectionName: pulumi.Output<string>;
  declare readonly projectId: pulumi.Output<string | null>;
  declare readonly description: pulumi.Output<string | null>;
  /** The non-secret credential fields, as the service returns them. */
  declare readonly credentials: pulumi.Output<Record<string, unknown>>;
  declare readonly isPlatformManagedCredentials: pulumi.Output<boolean>;
  declare readonly gatewayId: pulumi.Output<string | null>;
  declare readonly isAutoRotationEnabled: pulumi.Output<boolean>;
  declare readonly rotation: pulumi.Output<{ rotationInterval: number } | undefined>;
  declare readonly method: pulumi.Output<string>;
  declare readonly version: pulumi.Output<number>;
  declare readonly orgId: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: AppConnectionSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      serializedProvider("AppConnectionSettings"),
      name,
      registerProps(args, ["credentials"], outputNames),
      withSecretOutputs(opts, ["credentials"]),
      TYPE_MODULE,
      "AppConnectionSettings",
    );
  }
}
