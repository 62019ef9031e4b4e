import { z } from "zod";
import {
  AppConnectionEnvelope,
  AppConnectionListEnvelope,
  AppConnectionListQuery,
  type AppConnectionKind,
  appConnectionCreateSchema,
  appConnectionUpdateRules,
  appConnectionUpdateSchema,
} from "./app-connections";
import { AuditLogFiltersSchema, AuditLogListEnvelope, AuditLogQuerySchema } from "./audit-logs";
import { UniversalAuthLoginSchema, UniversalAuthTokenSchema } from "./auth";
import {
  CertificateProfileBySlugQuery,
  CertificateProfileCreateSchema,
  CertificateProfileEnvelope,
  CertificateProfileListEnvelope,
  CertificateProfileListQuery,
  CertificateProfileUpdateSchema,
  certificateProfileCreateRules,
} from "./certificate-profiles";
import { nonEmpty, perRow, uuid } from "./common";
import type { Issue } from "./issues";
import { apiPaths } from "./paths";
import {
  GeneratedCredentialsResponseSchema,
  type RotationType,
  SecretRotationByNameQuery,
  SecretRotationDeleteQuery,
  SecretRotationEnvelope,
  SecretRotationListEnvelope,
  SecretRotationListQuery,
  secretRotationCreateSchema,
  secretRotationUpdateSchema,
} from "./secret-rotations";
import {
  SecretSyncByNameQuery,
  SecretSyncCheckDestinationBody,
  SecretSyncCheckDestinationResult,
  SecretSyncDeleteQuery,
  SecretSyncEnvelope,
  SecretSyncImportQuery,
  SecretSyncListEnvelope,
  SecretSyncListQuery,
  type SyncDestination,
  secretSyncCreateSchema,
  secretSyncUpdateSchema,
} from "./secret-syncs";

/**
 * The one table of the API's operations. Each row says everything about a route: its method, its
 * path (Fastify's `:param` syntax), the schemas of its path params, query, body and response, and
 * how it is sent. The SDK's clients call these rows (`Transport.call`), and the emulator registers
 * its routes from the same rows with Fastify's `schema` option, so a path or a shape is written
 * once. Operations of a kind (connection kind, sync destination, rotation type) come from one
 * factory per resource, called once per row of the kind table.
 */

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";
export type RateLimitBucket = "read" | "write";

export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: HttpMethod;
  /** `/api/v1/secret-syncs/vercel/:syncId`: each `:name` segment is a key of `params`. */
  readonly path: string;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** The 200 response. Read leniently by the SDK; the emulator's responses are checked against it in tests. */
  readonly response: R;
  /** Rate-limit bucket; default: GET reads, everything else writes. */
  readonly bucket?: RateLimitBucket;
  /**
   * Safe to repeat after a 5xx, timeout or reset. Default: every method but POST. A POST that
   * creates or triggers something is not repeated blindly; its failure is `ambiguous`.
   */
  readonly idempotent?: boolean;
  /** Sends the bearer token (default true; false for the login itself). */
  readonly auth?: boolean;
  /**
   * Service rules beyond the body schema: the service answers them with a 400 or 403 after its
   * schema passed, so they are not zod rules. The SDK and the providers' `check` run them on the
   * parsed body; the emulator answers them as the service does.
   */
  readonly rules?: (body: never) => Issue[];
}

/** Declares an operation, keeping its schemas' types. */
export function op<const O extends Operation>(o: O): O {
  return o;
}

/** The input type of the schema an operation declares for a part. */
type InputOf<O, K extends "params" | "query" | "body"> = K extends keyof O
  ? O[K] extends z.ZodType
    ? z.input<O[K]>
    : never
  : never;

/** What a call of an operation takes: its params, query and body, each as its schema's input. */
export type OperationInput<O extends Operation> = ("params" extends keyof O
  ? { params: InputOf<O, "params"> }
  : { params?: undefined }) &
  ("query" extends keyof O ? { query?: InputOf<O, "query"> } : { query?: undefined }) &
  ("body" extends keyof O ? { body: InputOf<O, "body"> } : { body?: undefined });

/** What a call of an operation returns: its response schema's output. */
export type OperationResult<O extends Operation> = z.output<O["response"]>;

/** The path of an operation with its params filled in, each encoded so it cannot change the route. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? "")));
}

const connectionId = z.object({ connectionId: uuid });
const syncId = z.object({ syncId: uuid });
const rotationId = z.object({ rotationId: uuid });
const profileId = z.object({ id: uuid });

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
 * The service's project types (`ProjectType`, db/schemas/models.ts): the connection options route
 * lists only the kinds a project of that type can use.
 */
export const projectTypes = ["secret-manager", "cert-manager", "kms", "ssh", "secret-scanning", "pam"] as const;
export type ProjectType = (typeof projectTypes)[number];

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

/**
 * One destination as `GET /api/v1/secret-syncs/options` lists it (each destination's
 * `*SyncListItemSchema`, services/secret-sync/<destination>/<destination>-sync-schemas.ts). Read
 * leniently: the flags newer servers add are optional, unknown fields are dropped.
 */
export const SecretSyncOptionSchema = z.object({
  /** The destination's display name. */
  name: z.string(),
  /** The destination's slug. */
  destination: z.string(),
  /** The connection kind a sync to it needs. */
  connection: z.string(),
  /** Whether it can import secrets (allows the `import-*` initial sync behaviours). */
  canImportSecrets: z.boolean(),
  /** Whether a delete can remove the synced secrets first (newer servers). */
  canRemoveSecretsOnDeletion: z.boolean().optional(),
  /** Whether `syncOptions.keySchema` applies; absent means it does. */
  supportsKeySchema: z.boolean().optional(),
  /** Whether `syncOptions.disableSecretDeletion` applies; absent means it does. */
  supportsDisableSecretDeletion: z.boolean().optional(),
  /** Needs the enterprise plan. */
  enterprise: z.boolean().optional(),
});
export type SecretSyncOption = z.infer<typeof SecretSyncOptionSchema>;
export const SecretSyncOptionsEnvelope = z.object({ secretSyncOptions: z.array(SecretSyncOptionSchema) });

/**
 * The destinations the service offers: `GET /api/v1/secret-syncs/options` (`listSecretSyncOptions`,
 * server/routes/v1/secret-sync-routers/secret-sync-router.ts and
 * services/secret-sync/secret-sync-fns.ts), sorted by name.
 */
export const secretSyncOptionOperations = {
  list: op({ method: "GET", path: `${apiPaths.allSecretSyncs}/options`, response: SecretSyncOptionsEnvelope }),
};

/** Secret syncs to one destination: `/api/v1/secret-syncs/{destination}`. */
export const secretSyncOperations = perRow((dest: SyncDestination) => {
  const base = apiPaths.secretSyncs(dest.destination);
  /** The job triggers take no body and answer with the sync, its status already `pending`. */
  const trigger = (action: string) =>
    op({ method: "POST", path: `${base}/:syncId/${action}`, params: syncId, response: SecretSyncEnvelope });
  return {
    list: op({ method: "GET", path: base, query: SecretSyncListQuery, response: SecretSyncListEnvelope }),
    get: op({ method: "GET", path: `${base}/:syncId`, params: syncId, response: SecretSyncEnvelope }),
    getByName: op({
      method: "GET",
      path: `${base}/sync-name/:syncName`,
      params: z.object({ syncName: nonEmpty }),
      query: SecretSyncByNameQuery,
      response: SecretSyncEnvelope,
    }),
    create: op({ method: "POST", path: base, body: secretSyncCreateSchema(dest), response: SecretSyncEnvelope }),
    update: op({
      method: "PATCH",
      path: `${base}/:syncId`,
      params: syncId,
      body: secretSyncUpdateSchema(dest),
      response: SecretSyncEnvelope,
    }),
    delete: op({
      method: "DELETE",
      path: `${base}/:syncId`,
      params: syncId,
      query: SecretSyncDeleteQuery,
      response: SecretSyncEnvelope,
    }),
    // A POST that only reads: the read bucket, and safe to repeat.
    checkDestination: op({
      method: "POST",
      path: `${base}/check-destination`,
      body: SecretSyncCheckDestinationBody,
      response: SecretSyncCheckDestinationResult,
      bucket: "read",
      idempotent: true,
    }),
    syncSecrets: trigger("sync-secrets"),
    importSecrets: op({
      method: "POST",
      path: `${base}/:syncId/import-secrets`,
      params: syncId,
      query: SecretSyncImportQuery,
      response: SecretSyncEnvelope,
    }),
    removeSecrets: trigger("remove-secrets"),
  };
});

/**
 * A project's syncs of every destination in one call: `GET /api/v1/secret-syncs?projectId=`
 * (the service's `listSecretSyncs`, server/routes/v1/secret-sync-routers/secret-sync-router.ts).
 * What a refresh and the sync-status waits share (provider/shared-reads.ts).
 */
export const allSecretSyncOperations = {
  list: op({
    method: "GET",
    path: apiPaths.allSecretSyncs,
    query: SecretSyncListQuery,
    response: SecretSyncListEnvelope,
  }),
};

/**
 * One rotation type as `GET /api/v2/secret-rotations/options` lists it (each type's
 * `*RotationListItemSchema`, ee/services/secret-rotation-v2/<type>/<type>-rotation-schemas.ts).
 * `template` is what the service's UI pre-fills (default secret names, the SQL types' statements);
 * read as given.
 */
export const SecretRotationOptionSchema = z.object({
  /** The type's display name. */
  name: z.string(),
  /** The type's slug. */
  type: z.string(),
  /** The connection kind a rotation of this type needs. */
  connection: z.string(),
  template: z.record(z.string(), z.unknown()).optional(),
});
export type SecretRotationOption = z.infer<typeof SecretRotationOptionSchema>;
export const SecretRotationOptionsEnvelope = z.object({ secretRotationOptions: z.array(SecretRotationOptionSchema) });

/**
 * The rotation types the service offers: `GET /api/v2/secret-rotations/options`
 * (`listSecretRotationOptions`, ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts
 * and ee/services/secret-rotation-v2/secret-rotation-v2-fns.ts), sorted by name.
 */
export const secretRotationOptionOperations = {
  list: op({ method: "GET", path: `${apiPaths.allSecretRotations}/options`, response: SecretRotationOptionsEnvelope }),
};

/** Secret rotations of one type: `/api/v2/secret-rotations/{type}`. */
export const secretRotationOperations = perRow((type: RotationType) => {
  const base = apiPaths.secretRotations(type.type);
  return {
    list: op({ method: "GET", path: base, query: SecretRotationListQuery, response: SecretRotationListEnvelope }),
    get: op({ method: "GET", path: `${base}/:rotationId`, params: rotationId, response: SecretRotationEnvelope }),
    getByName: op({
      method: "GET",
      path: `${base}/rotation-name/:rotationName`,
      params: z.object({ rotationName: nonEmpty }),
      query: SecretRotationByNameQuery,
      response: SecretRotationEnvelope,
    }),
    create: op({
      method: "POST",
      path: base,
      body: secretRotationCreateSchema(type),
      response: SecretRotationEnvelope,
    }),
    update: op({
      method: "PATCH",
      path: `${base}/:rotationId`,
      params: rotationId,
      body: secretRotationUpdateSchema(type),
      response: SecretRotationEnvelope,
    }),
    delete: op({
      method: "DELETE",
      path: `${base}/:rotationId`,
      params: rotationId,
      query: SecretRotationDeleteQuery,
      response: SecretRotationEnvelope,
    }),
    /** Runs synchronously on the service; never repeated (it would retire the credentials just issued). */
    rotate: op({
      method: "POST",
      path: `${base}/:rotationId/rotate-secrets`,
      params: rotationId,
      response: SecretRotationEnvelope,
    }),
    generatedCredentials: op({
      method: "GET",
      path: `${base}/:rotationId/generated-credentials`,
      params: rotationId,
      // Each credential set is also checked against the type's own shape.
      response: GeneratedCredentialsResponseSchema.extend({
        generatedCredentials: z.array(type.generatedCredentials).min(1).max(2),
      }),
    }),
  };
});

/**
 * A project's rotations of every type in one call: `GET /api/v2/secret-rotations?projectId=` (the
 * service's `listSecretRotations`, ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts).
 */
export const allSecretRotationOperations = {
  list: op({
    method: "GET",
    path: apiPaths.allSecretRotations,
    query: SecretRotationListQuery,
    response: SecretRotationListEnvelope,
  }),
};

const profiles = apiPaths.certificateProfiles;

/** Certificate profiles: `/api/v1/cert-manager/certificate-profiles`. */
export const certificateProfileOperations = {
  list: op({
    method: "GET",
    path: profiles,
    query: CertificateProfileListQuery,
    response: CertificateProfileListEnvelope,
  }),
  get: op({ method: "GET", path: `${profiles}/:id`, params: profileId, response: CertificateProfileEnvelope }),
  getBySlug: op({
    method: "GET",
    path: `${profiles}/slug/:slug`,
    params: z.object({ slug: nonEmpty }),
    query: CertificateProfileBySlugQuery,
    response: CertificateProfileEnvelope,
  }),
  create: op({
    method: "POST",
    path: profiles,
    body: CertificateProfileCreateSchema,
    rules: certificateProfileCreateRules,
    response: CertificateProfileEnvelope,
  }),
  update: op({
    method: "PATCH",
    path: `${profiles}/:id`,
    params: profileId,
    body: CertificateProfileUpdateSchema,
    response: CertificateProfileEnvelope,
  }),
  delete: op({ method: "DELETE", path: `${profiles}/:id`, params: profileId, response: CertificateProfileEnvelope }),
};

/**
 * Audit logs. The emulator takes the service's own query (UTC dates, known event types); the SDK
 * sends `AuditLogFiltersSchema`'s output, which is a valid such query (see audit-logs.ts).
 */
export const auditLogOperations = {
  list: op({ method: "GET", path: apiPaths.auditLogs, query: AuditLogQuerySchema, response: AuditLogListEnvelope }),
};
/** The SDK's side of `auditLogOperations.list`: the filters it takes from callers. */
export const auditLogClientOperations = {
  list: op({ method: "GET", path: apiPaths.auditLogs, query: AuditLogFiltersSchema, response: AuditLogListEnvelope }),
};

export const authOperations = {
  /** Repeating a login is harmless: it only issues another token. No bearer token. */
  universalAuthLogin: op({
    method: "POST",
    path: apiPaths.universalAuthLogin,
    body: UniversalAuthLoginSchema,
    response: UniversalAuthTokenSchema,
    auth: false,
    idempotent: true,
  }),
};
