import { z } from "zod";

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
   * The project types besides `secret-manager` (which lists every kind a sync destination or a
   * rotation type uses) whose connection options list this kind: `cert-manager` for the service's
   * PKI_APP_CONNECTIONS (services/app-connection/app-connection-fns.ts), `secret-scanning` for a
   * secret-scanning data source's connection (ee/services/secret-scanning-v2/secret-scanning-v2-maps.ts).
   */
  readonly listedForProjectTypes?: readonly ("cert-manager" | "secret-scanning")[];
  /**
   * A method and its valid credentials: the emulator's default fixtures hold one org-level
   * connection of each kind made from it (emulator/fixtures.ts), and the per-kind tests use it.
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
 * Declares a connection kind's row. Typed so that its example names one of its methods and holds
 * valid credentials of that method: a row with a part missing or wrong does not compile.
 */
export function connectionKind<
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

export const standardPatchSupport = {
  isPlatformManagedCredentials: "only-false",
  gatewayId: "unsupported",
  isAutoRotationEnabled: "only-false",
  rotation: "unsupported",
} as const;
