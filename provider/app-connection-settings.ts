import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type AppConnection as RemoteConnection,
  type AppConnectionApp,
  type AppConnectionKind,
  appConnectionApps,
  appConnectionKind,
  appConnectionOperations,
  connectionName,
  perRow,
  uuid,
  unknownKindRule,
} from "../sdk/schemas";
import type { AppConnectionUpdateInput, SecretOpsClient } from "../sdk";
import { credentialSecrets, credentialsFingerprint, platformManagedIsOneWay } from "./app-connection";
import { defineResource, commonOptions } from "./definition";
import { orUndefinedOn404 } from "./not-found";
import { type ArgsOf, type ArgsWithout } from "./inputs";

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

/**
 * The PATCH-able settings of a connection of kind `A` (by default any: the union of each kind's,
 * discriminated by `app`, its real slug): the kind's PATCH body from its schema (without `name`),
 * and the connection to manage.
 */
export type AppConnectionSettingsArgs<A extends AppConnectionApp = AppConnectionApp> = A extends AppConnectionApp
  ? ConnectionIdentity &
      ArgsWithout<AppConnectionUpdateInput<A>, "name"> &
      ArgsOf<z.input<typeof settingsOptions>> & {
        /** The connection kind's real slug. Changing it moves management to another connection. */
        app: A;
        /** Scope of a lookup by name; the connection's project. */
        projectId?: pulumi.Input<string>;
      }
  : never;

/** The options: the ones every resource has. */
const settingsOptions = z.object(commonOptions);

/** The args: the kind's PATCH body (without `name`) and the connection to manage. */
const settingsArgs = perRow((kind: AppConnectionKind) =>
  appConnectionOperations(kind)
    .update.body.omit({ name: true })
    .extend({
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
    }),
);

/** The settings' args as `check` made them: the kind's PATCH body (without `name`) and the connection to manage. */
type SettingsArgs = z.output<ReturnType<typeof settingsArgs>> & { app: AppConnectionApp };

/**
 * The SDK's connection client for a kind known only at run time. The SDK types each kind's body
 * on its own; `check` has validated these args against their kind's schema, so this file calls
 * it through this view (its one cast).
 */
interface AnyKindConnections {
  get(app: string, id: string): Promise<RemoteConnection>;
  getByName(app: string, name: string, query: { projectId?: string }): Promise<RemoteConnection>;
  update(app: string, id: string, body: Partial<SettingsArgs>): Promise<RemoteConnection>;
}
const connections = (client: SecretOpsClient) => client.appConnections as unknown as AnyKindConnections;

/**
 * The PATCH-able settings of an existing app connection of any kind. Creating it takes over
 * management of the connection (found by id, or by name); deleting it releases management and
 * leaves the connection in place. Changing `app`, `connectionId`, `connectionName` or
 * `projectId` moves management to another connection.
 */
export const appConnectionSettingsDefinition = defineResource<RemoteConnection, SettingsArgs>()({
  type: "AppConnectionSettings",
  kindField: "app",
  schemas(args) {
    const kind = typeof args.app === "string" ? appConnectionKind(args.app) : undefined;
    if (!kind) return unknownKindRule("connection kind", args.app, appConnectionApps);
    const update = appConnectionOperations(kind).update;
    return { args: settingsArgs(kind), update: update.body, rules: update.rules };
  },
  options: settingsOptions,
  // Changing which connection is managed (its kind, id, name or scope) moves management.
  deleteBeforeReplace: false,
  secretPaths: credentialSecrets,
  reported: {
    app: (c) => c.app,
    connectionId: (c) => c.id,
    connectionName: (c) => c.name,
    projectId: (c) => c.projectId,
    description: (c) => c.description,
    /** The non-secret credential fields, as the service returns them. */
    credentials: (c) => c.credentials,
    isPlatformManagedCredentials: (c) => c.isPlatformManagedCredentials,
    gatewayId: (c) => c.gatewayId,
    isAutoRotationEnabled: (c) => c.isAutoRotationEnabled,
    rotation: (c) => (c.rotation ? { rotationInterval: c.rotation.rotationInterval } : undefined),
  },
  computed: {
    name: (c) => c.name,
    method: (c) => c.method,
    version: (c) => c.version,
    orgId: (c) => c.orgId,
    updatedAt: (c) => c.updatedAt,
  },

  manageExisting: {
    notFound: (args) =>
      args.connectionId
        ? `no ${args.app} connection with id ${args.connectionId}`
        : `no ${args.app} connection named "${args.connectionName}"${args.projectId ? ` in project ${args.projectId}` : " in the organization"}`,
  },
  transitionFailures: platformManagedIsOneWay,
  fingerprint: credentialsFingerprint,
  find: (client, args) =>
    orUndefinedOn404(
      args.connectionId
        ? connections(client).get(args.app, args.connectionId)
        : // check requires exactly one of connectionId and connectionName.
          connections(client).getByName(args.app, args.connectionName!, { projectId: args.projectId }),
    ),
  read: (client, id, outs) => orUndefinedOn404(connections(client).get(outs.app, id)),
  update: (client, id, patch, outs) => connections(client).update(outs.app, id, patch),
  // Releasing management leaves the connection exactly as it is.
  delete: async () => {},
});
