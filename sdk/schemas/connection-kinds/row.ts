import { z } from "zod";
import { type KindOrigin, strictObject } from "../common";

/**
 * The parts of a connection kind's row, and what several kinds' credentials share. One file per
 * kind (a few kinds that share a credential schema share a file), as the service keeps one
 * folder per kind (`services/app-connection/<kind>/`); the table is `index.ts`.
 */

/** A trimmed string that must not be empty: most credential fields (the service trims every string input). */
export const str = z.string().trim().min(1, { error: "must not be empty" });
/**
 * The service only coerces the port to a number (docs/service-api.md §9); a port no server
 * listens on fails its live credential check instead.
 */
export const port = z.coerce.number({ error: "must be a number" });
/** "" becomes undefined, as the service does for `sslCertificate`. */
export const optionalCertificate = z
  .string()
  .optional()
  .transform((v) => (v === "" ? undefined : v));

// Parts that several kinds' credentials share, most of them on-premises appliances (F5 BIG-IP,
// Kemp LoadMaster, NetScaler, Palo Alto Networks, Nutanix Prism Central, HPE iLO).
/** A string of at most `max` characters (after trimming) that must not be empty. */
export const strMax = (max: number) => str.max(max, { error: `must be at most ${max} characters` });
/** The appliance's host name or address without URL parts (`/`, `@`, `?`), at most 512 characters. */
export const applianceHostname = strMax(512).refine((v) => !/[/@?]/.test(v), {
  error: "must not contain /, @, or ? characters",
});
/**
 * The appliance host name of the kinds whose service schema also refuses `:` and `#` (F5 BIG-IP
 * and Nutanix Prism Central): no port, no fragment, at most 512 characters.
 */
export const applianceHostnameWithoutPort = strMax(512).refine((v) => !/[/@?:#]/.test(v), {
  error: "Hostname must not contain /, @, ?, :, or # characters",
});
/** A port number, 1 to 65535; the service does not coerce it, so it must be a JSON number. */
export const optionalPort = z
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be 1 to 65535" })
  .max(65535, { error: "must be 1 to 65535" })
  .optional();
/** A PEM certificate, trimmed, "" becoming undefined, at most `max` characters when given. */
export const trimmedCertificate = (max?: number) =>
  (max === undefined
    ? z.string().trim()
    : z
        .string()
        .trim()
        .max(max, { error: `must be at most ${max} characters` })
  )
    .optional()
    .transform((v) => v || undefined);

/** A string of 1 to `max` characters, taken as sent (not trimmed): a password some schemas keep whole. */
const untrimmedStrMax = (max: number) =>
  z
    .string()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

/**
 * The basic-auth credentials of an on-premises appliance (F5 BIG-IP, Kemp LoadMaster, NetScaler,
 * Palo Alto Networks, HPE iLO): its host name, given with the kind's own rule and doc line
 * (`{ /** The BIG-IP's host name … *\/ hostname: applianceHostnameWithoutPort }`), then the port,
 * the user and password, and TLS. The newer schemas of the service (Palo Alto Networks, HPE iLO)
 * take the password as sent and limit the certificate to `certificateMaxLength` characters.
 */
export function applianceBasicAuthCredentials<const H extends { readonly hostname: z.ZodType<string> }>(
  hostname: H,
  service: { readonly trimsPassword: boolean; readonly certificateMaxLength?: number } = { trimsPassword: true },
) {
  return strictObject({
    ...hostname,
    /** The management port, 1 to 65535; unset: the appliance's default. */
    port: optionalPort,
    /** The user the service signs in as, at most 256 characters. */
    username: strMax(256),
    /** That user's password, at most 512 characters: secret, never returned by the service. */
    password: service.trimsPassword ? strMax(512) : untrimmedStrMax(512),
    /** Refuse a server certificate that does not verify. */
    sslRejectUnauthorized: z.boolean().optional(),
    /** PEM certificate of the appliance's CA, for TLS; `""` for none. */
    sslCertificate: trimmedCertificate(service.certificateMaxLength),
  });
}

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
  /** Where the kind comes from: the service's enum of connection kinds, or a folder beyond it. */
  readonly origin: KindOrigin;
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
   * The project types besides `secret-manager` (which lists every kind a sync destination or a
   * rotation type uses) whose connection options list this kind: `cert-manager` for the service's
   * PKI_APP_CONNECTIONS (services/app-connection/app-connection-fns.ts), `secret-scanning` for a
   * secret-scanning data source's connection (ee/services/secret-scanning-v2/secret-scanning-v2-maps.ts).
   */
  readonly listedForProjectTypes?: readonly ("cert-manager" | "secret-scanning")[];
  /**
   * Valid credentials of every method, keyed by method: the per-method tests create a connection
   * of each (tests/emulator/app-connections.test.ts), and the secrets tests put canaries in them.
   */
  readonly examples: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * The first of `examples`: the emulator's default fixtures hold one org-level connection of each
   * kind made from it (emulator/fixtures.ts), and the per-kind tests use it.
   */
  readonly example: { readonly method: string; readonly credentials: Record<string, unknown> };
  /**
   * Credentials the service refuses, at least one for each rule of the row beyond a plain type:
   * the SDK's and the emulator's kind-rule tests send each one in a create (tests/sdk/kind-rules.test.ts,
   * tests/kinds/kind-rules.test.ts) and expect the issue named.
   */
  readonly invalidExamples?: readonly InvalidCredentialsExample[];
}

/**
 * Credentials of `method` (default: the example's) the service refuses, with `message` (or the
 * beginning of it) at `path` (dotted, from the body: `credentials.apiToken`).
 */
export interface InvalidCredentialsExample {
  readonly method?: string;
  readonly credentials: Record<string, unknown>;
  readonly path: string;
  readonly message: string;
}

/**
 * A row as `connectionKind` takes it: `examples` holds valid credentials of each of its methods
 * (a method without one, or credentials its schema refuses, do not compile), the first of them
 * the kind's `example`.
 */
export type ConnectionKindInput<A extends string, M extends Methods, P extends PatchSupportRow> = Omit<
  AppConnectionKind,
  "app" | "methods" | "patchSupport" | "examples" | "example"
> & {
  app: A;
  methods: M;
  patchSupport: P;
  examples: { [K in keyof M]: z.input<M[K]["credentials"]> };
};

/** A connection kind's row, typed by its slug, methods and PATCH support (what `sdk/types.ts` reads). */
export interface ConnectionKindRow<
  A extends string,
  M extends Methods,
  P extends PatchSupportRow,
> extends AppConnectionKind {
  readonly app: A;
  readonly methods: M;
  readonly patchSupport: P;
}

type Methods = Readonly<Record<string, AppConnectionMethod>>;
type PatchSupportRow = AppConnectionKind["patchSupport"];

/**
 * Declares a connection kind's row. Typed so that it holds valid example credentials of every
 * one of its methods: a row with a part missing or wrong does not compile.
 */
export function connectionKind<const A extends string, const M extends Methods, const P extends PatchSupportRow>(
  row: ConnectionKindInput<A, M, P>,
): ConnectionKindRow<A, M, P> {
  const [method, credentials] = Object.entries(row.examples)[0] as [string, Record<string, unknown>];
  return { ...row, example: { method, credentials } };
}

export const standardPatchSupport = {
  isPlatformManagedCredentials: "only-false",
  gatewayId: "unsupported",
  isAutoRotationEnabled: "only-false",
  rotation: "unsupported",
} as const;
