import { z } from "zod";
import {
  type JwtSource,
  type LoginInfo,
  LoginSession,
  type SecretOpsAuth,
  StaticToken,
  UniversalAuthSession,
} from "./auth";
import { SecretOpsError, SecretOpsValidationError, issuesFromZod } from "./errors";
import { Transport, type TransportOptions } from "./http";
import { IdentityJwtLoginSchema, type UniversalAuthToken, UniversalAuthLoginSchema } from "./schemas/auth";
import { authOperations } from "./schemas/operations/auth";

export interface SecretOpsClientOptions extends Omit<TransportOptions, "baseUrl"> {
  /** Renew a universal-auth token once this fraction of its lifetime has passed (default 0.8). */
  tokenRenewAtFraction?: number;
}

const baseUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), { error: "must be an http(s) URL" });

/**
 * A JWT login's settings: the identity, and where its JWT comes from (a function, called at each
 * login). The JWT itself is checked at each login (IdentityJwtLoginSchema), never kept.
 */
const JwtLoginSettingsSchema = z.object({
  identityId: z.string().trim().min(1, { error: "must not be empty" }),
  jwt: z.custom<JwtSource>((v) => typeof v === "function", {
    error: "must be a function that returns the JWT (sdk/jwt-sources.ts has a file's, GitHub Actions' and a pod's)",
  }),
});

/**
 * The ways to authenticate (docs/service-api.md §7, §18): a token, or a login (universal auth,
 * OIDC, Kubernetes) the client repeats before the token expires. The values are checked, never echoed.
 */
const authSchemas = {
  token: z.object({ baseUrl, token: z.string().min(1, { error: "must not be empty" }) }),
  universalAuth: z.object({ baseUrl, universalAuth: UniversalAuthLoginSchema }),
  oidcAuth: z.object({ baseUrl, oidcAuth: JwtLoginSettingsSchema }),
  kubernetesAuth: z.object({ baseUrl, kubernetesAuth: JwtLoginSettingsSchema }),
};
const AuthSchema = z.union(Object.values(authSchemas));

/**
 * Checks the auth against the way it names (its key), so an issue speaks of the fields of that
 * way, not of another's (`token: is required` for an OIDC login with an empty identity).
 */
function parseAuth(auth: SecretOpsAuth) {
  const key = Object.keys(authSchemas).find((k) => auth !== null && typeof auth === "object" && k in auth) as
    keyof typeof authSchemas | undefined;
  return (key ? authSchemas[key] : AuthSchema).safeParse(auth);
}

/** The JWT logins: the client's key → the service's login method (its login route's segment). */
const jwtLogins = { oidcAuth: "oidc-auth", kubernetesAuth: "kubernetes-auth" } as const;

/**
 * Each family's API, built on first use: a process that talks to one family (a provider process
 * serving only secret syncs) never loads the other families' kind tables.
 */
const families = {
  appConnections: (t: Transport) =>
    new (require("./app-connections") as typeof import("./app-connections")).AppConnectionsApi(t),
  secretSyncs: (t: Transport) => new (require("./secret-syncs") as typeof import("./secret-syncs")).SecretSyncsApi(t),
  secretRotations: (t: Transport) =>
    new (require("./secret-rotations") as typeof import("./secret-rotations")).SecretRotationsApi(t),
  certificateProfiles: (t: Transport) =>
    new (require("./certificate-profiles") as typeof import("./certificate-profiles")).CertificateProfilesApi(t),
  identities: (t: Transport) => new (require("./identities") as typeof import("./identities")).IdentitiesApi(t),
  identityAuths: (t: Transport) => new (require("./identities") as typeof import("./identities")).IdentityAuthsApi(t),
  projectRoles: (t: Transport) =>
    new (require("./project-access") as typeof import("./project-access")).ProjectRolesApi(t),
  identityMemberships: (t: Transport) =>
    new (require("./project-access") as typeof import("./project-access")).IdentityMembershipsApi(t),
  auditLogs: (t: Transport) => new (require("./audit-logs") as typeof import("./audit-logs")).AuditLogsApi(t),
  projects: (t: Transport) => new (require("./project-tree") as typeof import("./project-tree")).ProjectsApi(t),
  projectEnvironments: (t: Transport) =>
    new (require("./project-tree") as typeof import("./project-tree")).ProjectEnvironmentsApi(t),
  secretFolders: (t: Transport) =>
    new (require("./project-tree") as typeof import("./project-tree")).SecretFoldersApi(t),
  secrets: (t: Transport) => new (require("./project-tree") as typeof import("./project-tree")).SecretsApi(t),
  certificateAuthorities: (t: Transport) =>
    new (require("./project-tree") as typeof import("./project-tree")).InternalCasApi(t),
  certificatePolicies: (t: Transport) =>
    new (require("./project-tree") as typeof import("./project-tree")).CertificatePoliciesApi(t),
};
type Family = keyof typeof families;

/**
 * The typed client of the service. Providers, examples and the CLI talk to the service only
 * through it. See docs/ARCHITECTURE.md ("SDK interface").
 *
 * ```ts
 * const client = new SecretOpsClient({ baseUrl, universalAuth: { clientId, clientSecret } });
 * const sync = await client.secretSyncs.getByName("vercel", "web-prod", projectId);
 * ```
 */
export class SecretOpsClient {
  readonly baseUrl: string;
  readonly #apis: { [F in Family]?: ReturnType<(typeof families)[F]> } = {};
  readonly #session: LoginSession | undefined;
  readonly #transport: Transport;

  constructor(auth: SecretOpsAuth, options: SecretOpsClientOptions = {}) {
    const parsed = parseAuth(auth);
    if (!parsed.success) throw new SecretOpsValidationError(issuesFromZod(parsed.error.issues));
    const { tokenRenewAtFraction, ...transportOptions } = options;
    this.baseUrl = parsed.data.baseUrl.replace(/\/+$/, "");
    const transport = new Transport({ ...transportOptions, baseUrl: this.baseUrl });
    this.#transport = transport;

    const data = parsed.data;
    if ("token" in data) {
      transport.tokens = new StaticToken(data.token);
    } else if ("universalAuth" in data) {
      const credentials = data.universalAuth;
      // The credentials stay in this closure; they are sent only in the login body.
      const doLogin = () => transport.call(authOperations.universalAuthLogin, { body: credentials });
      this.#session = new UniversalAuthSession(doLogin, tokenRenewAtFraction ?? 0.8);
      transport.tokens = this.#session;
    } else {
      const key = "oidcAuth" in data ? "oidcAuth" : "kubernetesAuth";
      const settings = "oidcAuth" in data ? data.oidcAuth : data.kubernetesAuth;
      this.#session = new LoginSession(
        () => jwtLogin(transport, key, settings.identityId, settings.jwt),
        tokenRenewAtFraction ?? 0.8,
      );
      transport.tokens = this.#session;
    }
  }

  get appConnections() {
    return this.#api("appConnections");
  }
  get secretSyncs() {
    return this.#api("secretSyncs");
  }
  get secretRotations() {
    return this.#api("secretRotations");
  }
  get certificateProfiles() {
    return this.#api("certificateProfiles");
  }
  get projects() {
    return this.#api("projects");
  }
  get projectEnvironments() {
    return this.#api("projectEnvironments");
  }
  get secretFolders() {
    return this.#api("secretFolders");
  }
  get secrets() {
    return this.#api("secrets");
  }
  /** Internal certificate authorities. */
  get certificateAuthorities() {
    return this.#api("certificateAuthorities");
  }
  get certificatePolicies() {
    return this.#api("certificatePolicies");
  }
  /** Machine identities: an organization's and a project's own. */
  get identities() {
    return this.#api("identities");
  }
  /** An identity's login methods, universal-auth client secrets and token-auth tokens. */
  get identityAuths() {
    return this.#api("identityAuths");
  }
  /** A project's custom roles. */
  get projectRoles() {
    return this.#api("projectRoles");
  }
  /** Identities' memberships of a project and their roles. */
  get identityMemberships() {
    return this.#api("identityMemberships");
  }
  get auditLogs() {
    return this.#api("auditLogs");
  }

  #api<F extends Family>(family: F): ReturnType<(typeof families)[F]> {
    return (this.#apis[family] ??= families[family](this.#transport) as never) as ReturnType<(typeof families)[F]>;
  }

  /**
   * The read budget this client paces itself by (sdk/throttle.ts): what the service advertised
   * under the client's caps, else the cap or the default, and how many reads its current window
   * holds (`spent`). Undefined with `rateLimit: false`.
   */
  readBudget(): { limit: number; windowMs: number; spent: number } | undefined {
    return this.#transport.budget("read");
  }

  /**
   * Universal auth, OIDC or Kubernetes: log in now instead of on the first call (e.g. to check
   * the credentials). Returns the token's lifetime, never the token.
   */
  async login(): Promise<LoginInfo> {
    if (!this.#session)
      throw new SecretOpsError(
        "login() needs a login (universalAuth, oidcAuth or kubernetesAuth); this client was given a token",
      );
    return (await this.#session.login()).info;
  }
}

/**
 * One OIDC or Kubernetes login: reads the JWT from its source (now, so a rotated one is used),
 * then `POST /api/v1/auth/{method}/login` with `{ identityId, jwt }`. The JWT lives only in this
 * call; an error names the setting, never the JWT.
 */
async function jwtLogin(
  transport: Transport,
  key: keyof typeof jwtLogins,
  identityId: string,
  source: JwtSource,
): Promise<UniversalAuthToken> {
  let jwt: unknown;
  try {
    jwt = await source();
  } catch (e) {
    throw new SecretOpsError(`${key}.jwt: ${e instanceof Error ? e.message : String(e)}`);
  }
  const body = IdentityJwtLoginSchema.safeParse({ identityId, jwt });
  if (!body.success) throw new SecretOpsValidationError(issuesFromZod(body.error.issues, [key]));
  // Loaded on first login: a client with a token never loads the identity tables.
  const { identityAuthMethodRow }: typeof import("./schemas/identities") = require("./schemas/identities");
  const {
    identityJwtLogin,
  }: typeof import("./schemas/operations/identities") = require("./schemas/operations/identities");
  const row = identityAuthMethodRow(jwtLogins[key]);
  if (!row) throw new SecretOpsError(`${key}: the service has no ${jwtLogins[key]} login`);
  return transport.call(identityJwtLogin(row), { body: body.data });
}

/**
 * Auth from the variables the service's own CLI and Terraform provider read (docs/service-api.md, top):
 * INFISICAL_HOST, and INFISICAL_TOKEN or INFISICAL_UNIVERSAL_AUTH_CLIENT_ID/_SECRET.
 * Returns undefined when they are not set.
 */
export function authFromEnv(env: Record<string, string | undefined> = process.env): SecretOpsAuth | undefined {
  const host = env.INFISICAL_HOST;
  if (!host) return undefined;
  if (env.INFISICAL_TOKEN) return { baseUrl: host, token: env.INFISICAL_TOKEN };
  const clientId = env.INFISICAL_UNIVERSAL_AUTH_CLIENT_ID;
  const clientSecret = env.INFISICAL_UNIVERSAL_AUTH_CLIENT_SECRET;
  if (clientId && clientSecret) return { baseUrl: host, universalAuth: { clientId, clientSecret } };
  return undefined;
}
