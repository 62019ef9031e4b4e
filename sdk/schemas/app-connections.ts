import { z } from "zod";
import { ConnectionRefSchema, ProjectRefSchema, dateTime, description, slug, uuid } from "./common";
import type { Issue } from "./issues";

/**
 * App connections (docs/api-spec.md §2.1, 4.1; docs/service-api.md §1). Every kind is one row of `appConnectionKinds`:
 * its real slug, its methods with their credential schemas and which credential fields are
 * secret, and its column of the spec's 4.1 PATCH support matrix. Adding a kind is adding a row.
 */

const str = z.string().trim().min(1, { error: "must not be empty" });
/**
 * The service only coerces the port to a number (docs/service-api.md §9); a port no server
 * listens on fails its live credential check instead.
 */
const port = z.coerce.number({ error: "must be a number" });
/** "" becomes undefined, as the service does for `sslCertificate`. */
const optionalCertificate = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

const sqlCredentials = z.object({
  /** The database server's host name or address. */
  host: str,
  /** The database server's port. */
  port,
  /** The database to connect to. */
  database: str,
  /** The user the service connects as. */
  username: str,
  /** That user's password: secret, never returned by the service. */
  password: str,
  /** Connect over TLS. */
  sslEnabled: z.boolean(),
  /** Refuse a server certificate that does not verify. */
  sslRejectUnauthorized: z.boolean(),
  /** PEM certificate of the server's CA, for TLS; `""` for none. */
  sslCertificate: optionalCertificate,
});

/**
 * LDAP `dn`: a distinguished name or a user principal name, exactly as the service's
 * `DistinguishedNameRegex` and `UserPrincipalNameRegex` accept them (docs/service-api.md §9): `attr=value` pairs joined by commas with no space after a comma.
 */
const DISTINGUISHED_NAME =
  /^(?:(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*)(?:,(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*))*)?$/;
const USER_PRINCIPAL_NAME = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9._-]+\.[a-zA-Z]{2,}$/;

const azureOAuth = z.object({
  /** The authorization code of the OAuth sign-in, which the service exchanges for tokens: secret. */
  code: str,
  /** The Azure tenant (directory) id. */
  tenantId: str,
});
const azureClientSecret = z.object({
  /** The app registration's application (client) id. */
  clientId: uuid.max(50),
  /** A client secret of the app registration: secret. */
  clientSecret: z.string().min(1).max(50, { error: "must be at most 50 characters" }),
  /** The Azure tenant (directory) id. */
  tenantId: uuid,
});
const azureCertificate = z.object({
  /** The Azure tenant (directory) id. */
  tenantId: str,
  /** The app registration's application (client) id. */
  clientId: str,
  /** The PEM certificate registered on the app: secret. */
  certificateBody: str,
  /** The certificate's PEM private key: secret. */
  privateKey: str,
});

/** How a kind treats one PATCH field of the 4.1 matrix. */
export type PatchSupport =
  | "unsupported" // must be absent (null allowed for gatewayId)
  | "only-false" // only the literal false
  | "boolean" // true or false
  | "one-way"; // boolean, but once true it cannot be reversed

export interface AppConnectionMethod {
  readonly credentials: z.ZodObject;
  /** Credential fields the service never returns, and that are secret in stack state. */
  readonly secretFields: readonly string[];
}

export interface AppConnectionKind {
  /** The real slug: the `{app_slug}` path segment and the `app` field. */
  readonly app: string;
  /** The service's display name, used in its error messages. */
  readonly label: string;
  /** The spec's generic name for the kind. */
  readonly family: string;
  readonly methods: Readonly<Record<string, AppConnectionMethod>>;
  readonly patchSupport: {
    readonly isPlatformManagedCredentials: PatchSupport;
    readonly gatewayId: "unsupported" | "uuid-or-null";
    readonly isAutoRotationEnabled: PatchSupport;
    readonly rotation: "unsupported" | "object";
  };
  /** Needs the enterprise plan on the real service. */
  readonly enterprise?: boolean;
  /**
   * A method and its valid credentials: the emulator's default fixtures hold one org-level
   * connection of each kind made from it (emulator/fixtures.ts), and the per-kind tests use it.
   */
  readonly example: { readonly method: string; readonly credentials: Record<string, unknown> };
}

/**
 * Declares a connection kind's row. Typed so that its example names one of its methods and holds
 * valid credentials of that method: a row with a part missing or wrong does not compile.
 */
function connectionKind<
  const A extends string,
  const M extends Readonly<Record<string, AppConnectionMethod>>,
  const K extends keyof M & string,
  const P extends AppConnectionKind["patchSupport"],
>(
  row: Omit<AppConnectionKind, "app" | "methods" | "patchSupport" | "example"> & {
    app: A;
    methods: M;
    patchSupport: P;
    example: { method: K; credentials: z.input<M[K]["credentials"]> };
  },
) {
  return row;
}

const standardPatchSupport = {
  isPlatformManagedCredentials: "only-false",
  gatewayId: "unsupported",
  isAutoRotationEnabled: "only-false",
  rotation: "unsupported",
} as const;

const sqlKind = <const A extends string>(app: A, label: string, port: number) =>
  connectionKind({
    app,
    label,
    family: "SQL database server",
    methods: { "username-and-password": { credentials: sqlCredentials, secretFields: ["password"] } },
    patchSupport: { ...standardPatchSupport, isPlatformManagedCredentials: "one-way", gatewayId: "uuid-or-null" },
    example: {
      method: "username-and-password",
      credentials: {
        host: "db.emulator.local",
        port,
        database: "app",
        username: "rotator",
        password: "emulator-db-password",
        sslEnabled: true,
        sslRejectUnauthorized: true,
      },
    },
  });

/**
 * One row per kind. A new kind goes at the end: its place numbers the id of its connection in the
 * emulator's default fixtures (emulator/fixtures.ts).
 */
export const appConnectionKinds = {
  auth0: connectionKind({
    app: "auth0",
    label: "Auth0",
    family: "Identity platform",
    methods: {
      "client-credentials": {
        credentials: z.object({
          /** The Auth0 tenant's domain, e.g. `example.eu.auth0.com`. */
          domain: str,
          /** The machine-to-machine application's client id. */
          clientId: str,
          /** That application's client secret: secret. */
          clientSecret: str,
          /** The API identifier (audience) the tokens are requested for. */
          audience: z.url({ error: "must be a URL" }),
        }),
        secretFields: ["clientSecret"],
      },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "client-credentials",
      credentials: {
        domain: "emulator.auth0.com",
        clientId: "emulator-auth0-client",
        clientSecret: "emulator-auth0-secret",
        audience: "https://emulator.auth0.com/api/v2/",
      },
    },
  }),
  postgres: sqlKind("postgres", "PostgreSQL", 5432),
  mssql: sqlKind("mssql", "Microsoft SQL Server", 1433),
  mysql: sqlKind("mysql", "MySQL", 3306),
  redis: connectionKind({
    app: "redis",
    label: "Redis",
    family: "Key-value store",
    methods: {
      "username-and-password": {
        credentials: z.object({
          /** The Redis server's host name or address. */
          host: str.toLowerCase(),
          /** The Redis server's port. */
          port,
          /** The user the service connects as. */
          username: str,
          /** That user's password: secret, never returned by the service. */
          password: z.string().optional(),
          /** Connect over TLS. */
          sslEnabled: z.boolean(),
          /** Refuse a server certificate that does not verify. */
          sslRejectUnauthorized: z.boolean(),
          /** PEM certificate of the server's CA, for TLS; `""` for none. */
          sslCertificate: optionalCertificate,
        }),
        secretFields: ["password"],
      },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "username-and-password",
      credentials: {
        host: "redis.emulator.local",
        port: 6379,
        username: "default",
        password: "emulator-redis-password",
        sslEnabled: false,
        sslRejectUnauthorized: false,
      },
    },
  }),
  "azure-client-secrets": connectionKind({
    app: "azure-client-secrets",
    label: "Azure Client Secrets",
    family: "Cloud app registration",
    methods: {
      oauth: { credentials: azureOAuth, secretFields: ["code"] },
      "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
      certificate: { credentials: azureCertificate, secretFields: ["certificateBody", "privateKey"] },
    },
    // docs/api-spec.md §4.1 (which we follow): auto-rotation and `rotation` are accepted for this kind.
    patchSupport: { ...standardPatchSupport, isAutoRotationEnabled: "boolean", rotation: "object" },
    example: {
      method: "oauth",
      credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    },
  }),
  ldap: connectionKind({
    app: "ldap",
    label: "LDAP",
    family: "Directory server",
    methods: {
      "simple-bind": {
        credentials: z.object({
          /** The directory server's kind. */
          provider: z.enum(["active-directory"]),
          /** The server's URL, `ldap://` or `ldaps://`. */
          url: str.regex(/^ldaps?:\/\//, { error: "must be an LDAP URL (ldap:// or ldaps://)" }),
          /** The bind user's distinguished name, or a user principal name (`user@domain.tld`). */
          dn: str.refine((v) => DISTINGUISHED_NAME.test(v) || USER_PRINCIPAL_NAME.test(v), {
            error: "must be a distinguished name (cn=...,dc=...) or a user principal name (user@domain.tld)",
          }),
          /** The bind user's password: secret, never returned by the service. */
          password: str,
          /** Refuse a server certificate that does not verify. */
          sslRejectUnauthorized: z.boolean().optional(),
          /** PEM certificate of the server's CA, for TLS; `""` for none. */
          sslCertificate: optionalCertificate,
        }),
        secretFields: ["password"],
      },
    },
    patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
    example: {
      method: "simple-bind",
      credentials: {
        provider: "active-directory",
        url: "ldaps://ldap.emulator.local:636",
        dn: "cn=admin,dc=emulator,dc=local",
        password: "emulator-ldap-password",
        sslRejectUnauthorized: true,
      },
    },
  }),
  "octopus-deploy": connectionKind({
    app: "octopus-deploy",
    label: "Octopus Deploy",
    family: "Deployment tool",
    methods: {
      "api-key": {
        // The format's error would otherwise also word the length check.
        credentials: z.object({
          /** The Octopus Deploy server's URL. */
          instanceUrl: z.url({ error: "must be a URL" }).max(255, { error: "must be at most 255 characters" }),
          /** An API key of an Octopus Deploy user: secret. */
          apiKey: str,
        }),
        secretFields: ["apiKey"],
      },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "api-key",
      credentials: { instanceUrl: "https://octopus.emulator.local", apiKey: "API-EMULATORKEY" },
    },
  }),
  oci: connectionKind({
    app: "oci",
    label: "OCI",
    family: "Cloud infrastructure account",
    methods: {
      "access-key": {
        credentials: z.object({
          /** The OCID of the API key's user. */
          userOcid: str,
          /** The OCID of the tenancy. */
          tenancyOcid: str,
          /** The region, e.g. `us-ashburn-1`. */
          region: str,
          /** The API key's fingerprint. */
          fingerprint: str,
          /** The API key's PEM private key: secret. */
          privateKey: str,
        }),
        secretFields: ["privateKey"],
      },
    },
    patchSupport: standardPatchSupport,
    enterprise: true,
    example: {
      method: "access-key",
      credentials: {
        userOcid: "ocid1.user.oc1..emulator",
        tenancyOcid: "ocid1.tenancy.oc1..emulator",
        region: "us-ashburn-1",
        fingerprint: "12:34:56:78:9a:bc:de:f0:12:34:56:78:9a:bc:de:f0",
        privateKey: "-----BEGIN PRIVATE KEY-----\nemulator\n-----END PRIVATE KEY-----",
      },
    },
  }),
  bitbucket: connectionKind({
    app: "bitbucket",
    label: "Bitbucket",
    family: "Source-hosting service",
    methods: {
      "api-token": {
        credentials: z.object({
          /** A Bitbucket API token: secret. */
          apiToken: str.max(255, { error: "must be at most 255 characters" }),
          /** The e-mail address of the token's Atlassian account. */
          email: z.email({ error: "must be an e-mail address" }).max(255, { error: "must be at most 255 characters" }),
        }),
        secretFields: ["apiToken"],
      },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "api-token",
      credentials: { apiToken: "emulator-bitbucket-token", email: "emulator@example.com" },
    },
  }),
  venafi: connectionKind({
    app: "venafi",
    label: "Venafi TLS Protect Cloud",
    family: "Certificate cloud",
    methods: {
      "api-key": {
        credentials: z.object({
          /** A Venafi TLS Protect Cloud API key: secret. */
          apiKey: z.string().min(1).max(256, { error: "must be at most 256 characters" }),
          /** The region of the Venafi TLS Protect Cloud tenant. */
          region: z.enum(["us", "eu", "au", "uk", "sg", "ca"]),
        }),
        secretFields: ["apiKey"],
      },
    },
    patchSupport: standardPatchSupport,
    example: { method: "api-key", credentials: { apiKey: "emulator-venafi-key", region: "us" } },
  }),
  // The three kinds below exist because each sync destination needs a connection of its own slug.
  vercel: connectionKind({
    app: "vercel",
    label: "Vercel",
    family: "Deployment platform",
    methods: {
      "api-token": {
        credentials: z.object({
          /** A Vercel access token: secret. */
          apiToken: str,
        }),
        secretFields: ["apiToken"],
      },
    },
    patchSupport: standardPatchSupport,
    example: { method: "api-token", credentials: { apiToken: "emulator-vercel-token" } },
  }),
  "azure-app-configuration": connectionKind({
    app: "azure-app-configuration",
    label: "Azure App Configuration",
    family: "Configuration store",
    methods: {
      oauth: { credentials: azureOAuth, secretFields: ["code"] },
      "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "oauth",
      credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    },
  }),
  "azure-key-vault": connectionKind({
    app: "azure-key-vault",
    label: "Azure Key Vault",
    family: "Cloud key vault",
    methods: {
      oauth: { credentials: azureOAuth, secretFields: ["code"] },
      "client-secret": { credentials: azureClientSecret, secretFields: ["clientSecret"] },
    },
    patchSupport: standardPatchSupport,
    example: {
      method: "oauth",
      credentials: { code: "emulator-oauth-code", tenantId: "00000000-0000-4000-8000-0000000000a1" },
    },
  }),
} satisfies Record<string, AppConnectionKind>;

export type AppConnectionApp = keyof typeof appConnectionKinds;
export const appConnectionApps = Object.keys(appConnectionKinds) as AppConnectionApp[];

export function appConnectionKind(app: string): AppConnectionKind | undefined {
  return (appConnectionKinds as Record<string, AppConnectionKind>)[app];
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
  return z.object({
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
        ? z
            .object({
              /** Days between rotations of the connection's client secret, 1 to 365. */
              rotationInterval: z
                .number()
                .int()
                .min(1, { error: "must be at least 1" })
                .max(365, { error: "must be at most 365" }),
            })
            .optional()
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

/** POST /api/v1/app-connections/{app} body for one kind: one branch per method. */
export function appConnectionCreateSchema(kind: AppConnectionKind) {
  const common = {
    name: connectionName,
    description: description(256).optional(),
    projectId: z.string().min(1).optional(),
    isPlatformManagedCredentials:
      kind.patchSupport.isPlatformManagedCredentials === "one-way"
        ? z.boolean().default(false)
        : z.literal(false, { error: `Not supported for ${kind.label} Connections` }).default(false),
    gatewayId:
      kind.patchSupport.gatewayId === "uuid-or-null"
        ? uuid.nullish()
        : z.null({ error: `Not supported for ${kind.label} Connections` }).optional(),
  };
  const branches = Object.entries(kind.methods).map(([method, m]) =>
    z.object({ ...common, method: z.literal(method), credentials: m.credentials }),
  );
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
