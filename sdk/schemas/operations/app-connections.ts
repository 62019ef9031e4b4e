import { z } from "zod";
import { projectTypes } from "../projects";
import {
  AppConnectionEnvelope,
  AppConnectionListEnvelope,
  AppConnectionListQuery,
  type AppConnectionKind,
  appConnectionCreateSchema,
  appConnectionUpdateRules,
  appConnectionUpdateSchema,
} from "../app-connections";
import { nonEmpty, perRow, uuid } from "../common";
import { apiPaths } from "../paths";
import { op } from "./operation";

const connectionId = z.object({ connectionId: uuid });

/**
 * Connections of every kind in one call: `GET /api/v1/app-connections?projectId=` (the service's
 * `listAppConnections`, server/routes/v1/app-connection-routers/app-connection-router.ts): without
 * `projectId`, the organization's that the caller may read; with it, that project's.
 */
export const allAppConnectionOperations = {
  list: op({
    method: "GET",
    path: apiPaths.allAppConnections,
    query: AppConnectionListQuery,
    response: AppConnectionListEnvelope,
  }),
};

/**
 * One connection kind as `GET /api/v1/app-connections/options` lists it (each kind's
 * `*ConnectionListItemSchema`, services/app-connection/<kind>/<kind>-connection-schemas.ts). Read
 * leniently: what a server configures for itself (`oauthClientId` of the OAuth kinds, and the
 * like) is optional, unknown fields are dropped.
 */
export const AppConnectionOptionSchema = z.object({
  /** The kind's display name. */
  name: z.string(),
  /** The kind's slug. */
  app: z.string(),
  /** The kind's methods. */
  methods: z.array(z.string()),
  /** Whether the connection's credentials can be handed to the platform (the SQL kinds). */
  supportsPlatformManagement: z.boolean().optional(),
  /** The OAuth client id of a server configured for an OAuth kind's sign-in. */
  oauthClientId: z.string().optional(),
});
export type AppConnectionOption = z.infer<typeof AppConnectionOptionSchema>;
export const AppConnectionOptionsEnvelope = z.object({ appConnectionOptions: z.array(AppConnectionOptionSchema) });
export const AppConnectionOptionsQuery = z.object({ projectType: z.enum(projectTypes).optional() });

/**
 * The connection kinds the service offers: `GET /api/v1/app-connections/options?projectType=`
 * (`listAppConnectionOptions`, server/routes/v1/app-connection-routers/app-connection-router.ts
 * and services/app-connection/app-connection-fns.ts), sorted by name.
 */
export const appConnectionOptionOperations = {
  list: op({
    method: "GET",
    path: `${apiPaths.allAppConnections}/options`,
    query: AppConnectionOptionsQuery,
    response: AppConnectionOptionsEnvelope,
  }),
};

/** App connections of one kind: `/api/v1/app-connections/{app}`. */
export const appConnectionOperations = perRow((kind: AppConnectionKind) => {
  const base = apiPaths.appConnections(kind.app);
  return {
    list: op({ method: "GET", path: base, query: AppConnectionListQuery, response: AppConnectionListEnvelope }),
    get: op({ method: "GET", path: `${base}/:connectionId`, params: connectionId, response: AppConnectionEnvelope }),
    getByName: op({
      method: "GET",
      path: `${base}/connection-name/:connectionName`,
      params: z.object({ connectionName: nonEmpty }),
      query: AppConnectionListQuery,
      response: AppConnectionEnvelope,
    }),
    create: op({ method: "POST", path: base, body: appConnectionCreateSchema(kind), response: AppConnectionEnvelope }),
    update: op({
      method: "PATCH",
      path: `${base}/:connectionId`,
      params: connectionId,
      body: appConnectionUpdateSchema(kind),
      rules: appConnectionUpdateRules,
      response: AppConnectionEnvelope,
    }),
    delete: op({
      method: "DELETE",
      path: `${base}/:connectionId`,
      params: connectionId,
      response: AppConnectionEnvelope,
    }),
  };
});
