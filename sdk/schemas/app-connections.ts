import { z } from "zod";
import { ConnectionRefSchema, dateTime, description, ProjectRefSchema, slug, strictObject, uuid } from "./common";
import { type AppConnectionKind, type PatchSupport, appConnectionKinds } from "./connection-kinds";
import type { Issue } from "./issues";

/**
 * App connections (docs/api-spec.md §2.1, 4.1; docs/service-api.md §1). Every kind is one row of
 * `appConnectionKinds` (`connection-kinds/`): its real slug, its methods with their credential
 * schemas and which credential fields are secret, and its column of the spec's 4.1 PATCH support
 * matrix. Adding a kind is adding a row. This file holds the request and response shapes every
 * kind shares.
 */

export * from "./connection-kinds";

export type AppConnectionApp = keyof typeof appConnectionKinds;
export const appConnectionApps = Object.keys(appConnectionKinds) as AppConnectionApp[];

export function appConnectionKind(app: string): AppConnectionKind | undefined {
  return Object.hasOwn(appConnectionKinds, app)
    ? (appConnectionKinds as Record<string, AppConnectionKind>)[app]
    : undefined;
}

/** The credentials the service returns for a method: everything but the secret fields. */
export function returnedCredentials(kind: AppConnectionKind, method: string, credentials: Record<string, unknown>) {
  const m = kind.methods[method];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(credentials)) {
    if (m && !m.secretFields.includes(k) && v !== undefined) out[k] = v;
  }
  return out;
}

export const connectionName = slug("name", 64);

/** One PATCH field as the 4.1 matrix allows it for a kind; the error text is the service's. */
function patchField(kind: AppConnectionKind, support: PatchSupport, valid: z.ZodType) {
  const notSupported = `Not supported for ${kind.label} Connections`;
  switch (support) {
    case "unsupported":
      // `.optional()`: in zod 4 an object key is required unless its schema is optional.
      return z.undefined({ error: notSupported }).optional();
    case "only-false":
      return z.literal(false, { error: notSupported }).optional();
    default:
      return valid.optional();
  }
}

function credentialsUnion(kind: AppConnectionKind) {
  const schemas = Object.values(kind.methods).map((m) => m.credentials);
  return schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
}

/** PATCH /api/v1/app-connections/{app}/{connectionId} body for one kind. */
export function appConnectionUpdateSchema(kind: AppConnectionKind) {
  return strictObject({
    /** The connection's name, 1 to 64 characters. */
    name: connectionName.optional(),
    /** At most 256 characters. */
    description: description(256).optional(),
    /** New credentials, whole, in the shape of the connection's method. Secret parts are secret in state and never returned; drift is seen through the service's `credentialsHash`. */
    credentials: credentialsUnion(kind).optional(),
    /** SQL kinds: hand the credentials to the platform (one-way: cannot be turned off; needs `credentials`). Other kinds: only `false`. */
    isPlatformManagedCredentials: patchField(kind, kind.patchSupport.isPlatformManagedCredentials, z.boolean()),
    /** SQL and directory kinds: a gateway UUID, or null. Not supported by other kinds. */
    gatewayId:
      kind.patchSupport.gatewayId === "uuid-or-null"
        ? uuid.nullable().optional()
        : z.null({ error: `Not supported for ${kind.label} Connections` }).optional(),
    /** Cloud app registration: rotate the connection's client secret automatically. Other kinds: only `false`. */
    isAutoRotationEnabled: patchField(kind, kind.patchSupport.isAutoRotationEnabled, z.boolean()),
    /** Cloud app registration only: `rotationInterval` in days, 1 to 365. */
    rotation:
      kind.patchSupport.rotation === "object"
        ? strictObject({
            /** Days between rotations of the connection's client secret, 1 to 365. */
            rotationInterval: z
              .number()
              .int()
              .min(1, { error: "must be at least 1" })
              .max(365, { error: "must be at most 365" }),
          }).optional()
        : z.undefined({ error: `Not supported for ${kind.label} Connections` }).optional(),
  });
}
export type AppConnectionUpdate = z.input<ReturnType<typeof appConnectionUpdateSchema>>;

/**
 * The service's rule beyond the PATCH schema (a 400 there): turning platform-managed credentials
 * on needs `credentials` in the same PATCH (the service then rotates the password to one only it
 * knows). Once on, the switch cannot be turned off.
 */
export function appConnectionUpdateRules(body: {
  isPlatformManagedCredentials?: unknown;
  credentials?: unknown;
}): Issue[] {
  return body.isPlatformManagedCredentials === true && body.credentials === undefined
    ? [{ path: "credentials", message: "is required when turning on isPlatformManagedCredentials" }]
    : [];
}

/** POST /api/v1/app-connections/{app} body for one method of one kind. */
export function appConnectionMethodCreateSchema(kind: AppConnectionKind, method: string) {
  const m = kind.methods[method];
  if (!m) throw new Error(`${kind.app} connections have no method ${method}`);
  return strictObject({
    /** The connection's name: 1 to 64 characters, lowercase letters, digits and single hyphens. Unique in its scope; renaming updates in place. */
    name: connectionName,
    /** At most 256 characters. */
    description: description(256).optional(),
    /** The project the connection belongs to; unset, it is the organization's. Changing it replaces the connection. */
    projectId: z.string().min(1).optional(),
    /** SQL kinds: hand the credentials to the platform, which rotates the password to one only it knows (one-way). Other kinds: only `false`. */
    isPlatformManagedCredentials:
      kind.patchSupport.isPlatformManagedCredentials === "one-way"
        ? z.boolean().default(false)
        : z.literal(false, { error: `Not supported for ${kind.label} Connections` }).default(false),
    /** SQL and directory kinds: a gateway UUID, or null. Not supported by other kinds. */
    gatewayId:
      kind.patchSupport.gatewayId === "uuid-or-null"
        ? uuid.nullish()
        : z.null({ error: `Not supported for ${kind.label} Connections` }).optional(),
    /** How the service authenticates to the app: one of the kind's methods. Changing it replaces the connection. */
    method: z.literal(method),
    /** The method's credentials. Secret parts are secret in state and never returned; drift is seen through the service's `credentialsHash`. */
    credentials: m.credentials,
  });
}

/** POST /api/v1/app-connections/{app} body for one kind: one branch per method. */
export function appConnectionCreateSchema(kind: AppConnectionKind) {
  const branches = Object.keys(kind.methods).map((method) => appConnectionMethodCreateSchema(kind, method));
  return branches.length === 1
    ? branches[0]!
    : z.discriminatedUnion("method", branches as unknown as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
}

export const ConnectionRotationSchema = z.object({
  rotationInterval: z.number(),
  rotationStatus: z.string().nullable().optional(),
  rotateAtUtc: z.object({ hours: z.number(), minutes: z.number() }).optional(),
  lastRotationMessage: z.string().nullable().optional(),
  nextRotationAt: dateTime.nullable().optional(),
});

/**
 * An app connection as returned (secret credential fields omitted). Read leniently: unknown
 * fields are dropped, and what older servers do not return (`isAutoRotationEnabled`,
 * `credentialsHash`, `project`, `gatewayId`) is optional.
 */
export const AppConnectionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  orgId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  app: z.string(),
  method: z.string(),
  credentials: z.record(z.string(), z.unknown()),
  description: z.string().nullish(),
  version: z.number().optional(),
  isPlatformManagedCredentials: z.boolean().optional(),
  gatewayId: z.string().nullish(),
  projectId: z.string().nullish(),
  isAutoRotationEnabled: z.boolean().optional(),
  rotation: ConnectionRotationSchema.nullish(),
  credentialsHash: z.string().optional(),
  project: ProjectRefSchema.nullish(),
});
export type AppConnection = z.infer<typeof AppConnectionSchema>;

export const AppConnectionEnvelope = z.object({ appConnection: AppConnectionSchema });
export const AppConnectionListEnvelope = z.object({ appConnections: z.array(AppConnectionSchema) });
export const AppConnectionListQuery = z.object({ projectId: z.string().min(1).optional() });
export { ConnectionRefSchema };
