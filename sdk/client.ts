import { z } from "zod";
import { type LoginInfo, type SecretOpsAuth, StaticToken, UniversalAuthSession } from "./auth";
import { SecretOpsError, SecretOpsValidationError, issuesFromZod } from "./errors";
import { Transport, type TransportOptions } from "./http";
import { UniversalAuthLoginSchema } from "./schemas/auth";
import { authOperations } from "./schemas/operations/auth";

export interface SecretOpsClientOptions extends Omit<TransportOptions, "baseUrl"> {
  /** Renew a universal-auth token once this fraction of its lifetime has passed (default 0.8). */
  tokenRenewAtFraction?: number;
}

const baseUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), { error: "must be an http(s) URL" });

/** The two ways to authenticate (docs/service-api.md §7). The values are checked, never echoed. */
const AuthSchema = z.union([
  z.object({ baseUrl, token: z.string().min(1, { error: "must not be empty" }) }),
  z.object({ baseUrl, universalAuth: UniversalAuthLoginSchema }),
]);

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
  readonly #session: UniversalAuthSession | undefined;
  readonly #transport: Transport;

  constructor(auth: SecretOpsAuth, options: SecretOpsClientOptions = {}) {
    const parsed = AuthSchema.safeParse(auth);
    if (!parsed.success) throw new SecretOpsValidationError(issuesFromZod(parsed.error.issues));
    const { tokenRenewAtFraction, ...transportOptions } = options;
    this.baseUrl = parsed.data.baseUrl.replace(/\/+$/, "");
    const transport = new Transport({ ...transportOptions, baseUrl: this.baseUrl });
    this.#transport = transport;

    if ("token" in parsed.data) {
      transport.tokens = new StaticToken(parsed.data.token);
    } else {
      const credentials = parsed.data.universalAuth;
      // The credentials stay in this closure; they are sent only in the login body.
      const doLogin = () => transport.call(authOperations.universalAuthLogin, { body: credentials });
      this.#session = new UniversalAuthSession(doLogin, tokenRenewAtFraction ?? 0.8);
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
   * Universal auth: log in now instead of on the first call (e.g. to check the credentials).
   * Returns the token's lifetime, never the token.
   */
  async login(): Promise<LoginInfo> {
    if (!this.#session)
      throw new SecretOpsError("login() needs universalAuth credentials; this client was given a token");
    return (await this.#session.login()).info;
  }
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
