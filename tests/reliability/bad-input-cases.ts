import type { Fixtures } from "../../emulator";
import { defaultFixtures } from "../../emulator/fixtures";
import { syncDestinations } from "../../sdk/schemas";
import { engineEnv, EngineEnv } from "../engine/lifecycle";

/**
 * The bad-input corpus (issue 12 item 3): invalid programs, each expected to fail at preview with
 * the field and the rule named, no secret echoed and no API call made, and the values just inside
 * each limit of docs/api-spec.md §8, which must apply. Shared by bad-input-a and bad-input-b so
 * jest's two workers split the engine time.
 */

type Args = Record<string, unknown>;
export interface Declared {
  kind: string;
  name: string;
  args: Args;
}

export interface BadCase {
  /** What is wrong, for the test name. */
  what: string;
  resources: Declared[];
  /** `auditQuery` config for the program's getAuditLogsOutput call. */
  auditQuery?: Args;
  /** The check failure: the property path and the rule, as the engine prints them. */
  field?: string;
  rule: string;
  /** Secret values given in the case: none may appear in the output. */
  canaries?: string[];
  /**
   * Cases with the same `mergeKey` whose overrides touch different top-level args are declared
   * as one resource: the engine reports every failure of a resource, but stops at the first
   * resource that fails. Cases that change the kind, hit an object-level rule or a service rule
   * (checked only once the schema passes), or read secret config have none and run alone.
   */
  merge?: { key: string; extra: Args; build(extra: Args): Args };
}

export const PROJECT = "10000000-0000-4000-8000-000000000001";
/** The fixture's cert-manager project: CAs, policies and profiles live there. */
export const PKI_PROJECT = "10000000-0000-4000-8000-000000000003";
export const POLICY = "70000000-0000-4000-8000-000000000001";
export const CA = "60000000-0000-4000-8000-000000000001";
export const GATEWAY = "40000000-0000-4000-8000-000000000001";
/** The default fixtures' connections (emulator/fixtures.ts), one per kind. */
export const CONNECTIONS = {
  auth0: "50000000-0000-4000-8000-000000000001",
  postgres: "50000000-0000-4000-8000-000000000002",
  mssql: "50000000-0000-4000-8000-000000000003",
  mysql: "50000000-0000-4000-8000-000000000004",
  redis: "50000000-0000-4000-8000-000000000005",
  "azure-client-secrets": "50000000-0000-4000-8000-000000000006",
  ldap: "50000000-0000-4000-8000-000000000007",
  "octopus-deploy": "50000000-0000-4000-8000-000000000008",
  oci: "50000000-0000-4000-8000-000000000009",
  bitbucket: "50000000-0000-4000-8000-000000000010",
  venafi: "50000000-0000-4000-8000-000000000011",
  vercel: "50000000-0000-4000-8000-000000000012",
  "azure-app-configuration": "50000000-0000-4000-8000-000000000013",
  "azure-key-vault": "50000000-0000-4000-8000-000000000014",
} as const;
type App = keyof typeof CONNECTIONS;

/** Secret values passed through secret config (`resources:secrets`), by resource name. */
export const SECRET_CANARY = {
  postgresPassword: "canary-secret-config-pg-3e8a1f",
  scepPassword: "cnry5ec", // 7 characters: one short of the rule
  bounds: { scep: "cnry-8ch", est: "canary-est-passphrase-ok-71c2" },
};
export const SECRETS = {
  "conn-secret-config": { credentials: { password: SECRET_CANARY.postgresPassword } },
  "profile-secret-config": { scepConfig: { challengePassword: SECRET_CANARY.scepPassword } },
  "bound-profile-scep": { scepConfig: { challengePassword: SECRET_CANARY.bounds.scep } },
  "bound-profile-est": { estConfig: { passphrase: SECRET_CANARY.bounds.est } },
};

/** An environment whose slug is exactly 64 characters, so the boundary sync and rotation can apply. */
export const LONG_ENV = `env-${"e".repeat(60)}`;

/** The default fixtures plus LONG_ENV (with the folders the boundary program uses) in PROJECT. */
export function boundaryFixtures(): Fixtures {
  const fx = JSON.parse(JSON.stringify(defaultFixtures)) as Fixtures & {
    projects: { id: string; environments: { id: string; name: string; slug: string; folders: unknown[] }[] }[];
  };
  fx.projects
    .find((p) => p.id === PROJECT)!
    .environments.push({
      id: "10000000-0000-4000-8001-000000000064",
      name: "Sixty-four",
      slug: LONG_ENV,
      folders: [
        { id: "10000000-0000-4000-8002-000000000641", path: "/" },
        { id: "10000000-0000-4000-8002-000000000642", path: "/app" },
      ],
    });
  return fx;
}

/** One env per test file: the emulator with LONG_ENV, and the secret config every case may use. */
export async function badInputEnv(): Promise<EngineEnv> {
  const env = await engineEnv({ fixtures: boundaryFixtures() });
  await env.t.stack.setConfig("resources:secrets", { value: JSON.stringify(SECRETS), secret: true });
  return env;
}

const long = (n: number, c = "a") => c.repeat(n);

// ---------------------------------------------------------------------------------------------
// Valid bases; each case changes one thing.

export const syncArgs = (extra: Args = {}): Args => ({
  destination: "vercel",
  name: "bad-sync",
  projectId: PROJECT,
  connectionId: CONNECTIONS.vercel,
  environment: "dev",
  secretPath: "/app",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj", appName: "web", env: "production", teamId: "team" },
  waitForSync: false,
  ...extra,
});
export const rotationArgs = (extra: Args = {}): Args => ({
  type: "postgres-credentials",
  name: "bad-rotation",
  projectId: PROJECT,
  connectionId: CONNECTIONS.postgres,
  environment: "dev",
  secretPath: "/app/db",
  rotationInterval: 30,
  parameters: { username1: "u1", username2: "u2" },
  secretsMapping: { username: "BAD_USER", password: "BAD_PASSWORD" },
  ...extra,
});
export const profileArgs = (extra: Args = {}): Args => ({
  projectId: PKI_PROJECT,
  certificatePolicyId: POLICY,
  caId: CA,
  slug: "bad-profile",
  enrollmentType: "api",
  apiConfig: { autoRenew: false },
  ...extra,
});
export const connArgs = (app: App, extra: Args = {}): Args => ({ app, connectionId: CONNECTIONS[app], ...extra });

/** Overrides that change the kind row, so must not be merged with other cases. */
const KIND_FIELDS = ["destination", "type", "app", "enrollmentType", "issuerType", "secretFieldsFrom"];
const mergeable = (key: string, extra: Args, build: (extra: Args) => Args) =>
  Object.keys(extra).some((k) => KIND_FIELDS.includes(k)) ? undefined : { key, extra, build };

const sync = (what: string, extra: Args, field: string, rule: string, more: Partial<BadCase> = {}): BadCase => ({
  what: `SecretSync ${what}`,
  resources: [{ kind: "SecretSync", name: "bad-sync", args: syncArgs(extra) }],
  field,
  rule,
  merge: mergeable("sync", extra, syncArgs),
  ...more,
});
const rotation = (what: string, extra: Args, field: string, rule: string): BadCase => ({
  what: `SecretRotation ${what}`,
  resources: [{ kind: "SecretRotation", name: "bad-rotation", args: rotationArgs(extra) }],
  field,
  rule,
  merge: mergeable("rotation", extra, rotationArgs),
});
const profile = (
  what: string,
  extra: Args,
  field: string,
  rule: string,
  more: { canaries?: string[]; name?: string; solo?: boolean } = {},
): BadCase => ({
  what: `CertificateProfile ${what}`,
  resources: [{ kind: "CertificateProfile", name: more.name ?? "bad-profile", args: profileArgs(extra) }],
  field,
  rule,
  canaries: more.canaries,
  merge: more.solo || more.name ? undefined : mergeable("profile", extra, profileArgs),
});
const conn = (
  app: App,
  what: string,
  extra: Args,
  field: string,
  rule: string,
  canaries?: string[],
  more: { solo?: boolean } = {},
): BadCase => ({
  what: `AppConnectionSettings (${app}) ${what}`,
  resources: [{ kind: "AppConnectionSettings", name: "bad-conn", args: connArgs(app, extra) }],
  field,
  rule,
  canaries,
  merge: more.solo ? undefined : mergeable(`conn-${app}`, extra, (e) => connArgs(app, e)),
});

const SLUG_RULE = (field: string) =>
  `${field} field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")`;

// ---------------------------------------------------------------------------------------------
// Secret syncs (docs/api-spec.md §4.2, §8; docs/service-api.md §2).

export const syncCases: BadCase[] = [
  sync("name empty", { name: "" }, "name", "must be at least 1 character"),
  sync("name of 257 characters", { name: long(257) }, "name", "must be at most 256 characters"),
  sync("name with upper case and underscore", { name: "Web_Prod" }, "name", SLUG_RULE("name")),
  sync("name with a non-ASCII letter", { name: "café-sync" }, "name", SLUG_RULE("name")),
  sync("name with a newline inside", { name: "web\nprod" }, "name", SLUG_RULE("name")),
  sync("name with a zero-width space", { name: "web\u200bprod" }, "name", SLUG_RULE("name")),
  sync("name ending in a hyphen", { name: "web-" }, "name", SLUG_RULE("name")),
  sync("name with two hyphens in a row", { name: "web--prod" }, "name", SLUG_RULE("name")),
  sync("description of 257 characters", { description: long(257) }, "description", "must be at most 256 characters"),
  sync("environment empty", { environment: "" }, "environment", "must be at least 1 character"),
  sync("environment of 65 characters", { environment: long(65) }, "environment", "must be at most 64 characters"),
  sync("environment in upper case", { environment: "Dev" }, "environment", SLUG_RULE("environment")),
  sync("projectId empty", { projectId: "" }, "projectId", "must not be empty"),
  sync("secretPath empty", { secretPath: "" }, "secretPath", "must not be empty"),
  sync("connectionId not a UUID", { connectionId: "vercel-connection" }, "connectionId", "must be a UUID"),
  sync(
    "connectionId one digit short",
    { connectionId: "50000000-0000-4000-8000-00000000012" },
    "connectionId",
    "must be a UUID",
  ),
  // Issue 19's cases, as a new user meets them.
  sync(
    "destination misspelt",
    { destination: "vercell" },
    "destination",
    'unknown destination "vercell" (did you mean "vercel"?); the ',
  ),
  sync(
    "destinationConfig with a field of another destination",
    {
      destinationConfig: {
        app: "prj",
        appName: "web",
        env: "production",
        teamId: "team",
        vaultBaseUrl: "https://v.vault.azure.net",
      },
    },
    "destinationConfig",
    `unknown field "vaultBaseUrl"; the fields here are ${Object.keys(syncDestinations.vercel.destinationConfig.shape).join(", ")}`,
  ),
  sync(
    "syncOptions with an option of another destination",
    { syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true } },
    "syncOptions",
    'unknown field "disableCertificateImport"; the fields here are initialSyncBehavior, ',
  ),
  sync(
    "destination not one the package types",
    { destination: "Vercel" },
    "destination",
    'unknown destination "Vercel" (did you mean "vercel"?); the ',
  ),
  sync(
    "unknown initialSyncBehavior",
    { syncOptions: { initialSyncBehavior: "overwrite" } },
    "syncOptions.initialSyncBehavior",
    'must be one of the options "overwrite-destination", "import-prioritize-source", "import-prioritize-destination"',
  ),
  sync(
    "syncOptions without initialSyncBehavior",
    { syncOptions: {} },
    "syncOptions.initialSyncBehavior",
    "is required",
  ),
  sync(
    "keySchema without {{secretKey}}",
    { syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "PREFIX_" } },
    "syncOptions.keySchema",
    "must contain the {{secretKey}} placeholder",
  ),
  sync(
    "keySchema with a dot",
    { syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: "app.{{secretKey}}" } },
    "syncOptions.keySchema",
    "may only contain {{secretKey}}, {{environment}} and the characters a-z A-Z 0-9 _ - /",
  ),
  sync(
    "keySchema of 256 characters",
    { syncOptions: { initialSyncBehavior: "overwrite-destination", keySchema: `{{secretKey}}${long(243, "K")}` } },
    "syncOptions.keySchema",
    "must be at most 255 characters",
  ),
  sync(
    "recursive with an importing initialSyncBehavior",
    { syncOptions: { initialSyncBehavior: "import-prioritize-source", recursive: true } },
    "syncOptions.recursive",
    "A sync that includes subfolders cannot also import existing secrets from the destination",
  ),
  sync(
    "destinationConfig.app empty",
    { destinationConfig: { app: "", appName: "web", env: "production", teamId: "team" } },
    "destinationConfig.app",
    "must not be empty",
  ),
  sync(
    "destinationConfig without teamId",
    { destinationConfig: { app: "prj", appName: "web", env: "production" } },
    "destinationConfig.teamId",
    "is required",
  ),
  sync(
    "a key-vault destinationConfig on a vercel sync",
    { destinationConfig: { vaultBaseUrl: "https://kv.vault.azure.net" } },
    "destinationConfig.app",
    "is required",
  ),
  sync(
    "key-vault vaultBaseUrl not a URL",
    {
      destination: "azure-key-vault",
      connectionId: CONNECTIONS["azure-key-vault"],
      destinationConfig: { vaultBaseUrl: "kv.vault" },
    },
    "destinationConfig.vaultBaseUrl",
    "must be a URL",
  ),
  sync(
    "app-configuration configurationUrl empty",
    {
      destination: "azure-app-configuration",
      connectionId: CONNECTIONS["azure-app-configuration"],
      destinationConfig: { configurationUrl: "" },
    },
    "destinationConfig.configurationUrl",
    "must not be empty",
  ),
  sync("isAutoSyncEnabled a string", { isAutoSyncEnabled: "yes" }, "isAutoSyncEnabled", "expected boolean"),
  sync("syncTimeoutSeconds 0", { syncTimeoutSeconds: 0 }, "syncTimeoutSeconds", "must be a positive number of seconds"),
];

// ---------------------------------------------------------------------------------------------
// Secret rotations (docs/api-spec.md §4.3, §8; docs/service-api.md §3).

export const rotationCases: BadCase[] = [
  rotation("name empty", { name: "" }, "name", "must be at least 1 character"),
  rotation("name of spaces only", { name: "   " }, "name", "must be at least 1 character"),
  rotation("name of 65 characters", { name: long(65) }, "name", "must be at most 64 characters"),
  rotation("name with a tab inside", { name: "db\tcreds" }, "name", SLUG_RULE("name")),
  rotation(
    "description of 257 characters",
    { description: long(257) },
    "description",
    "must be at most 256 characters",
  ),
  rotation("environment empty", { environment: "" }, "environment", "must be at least 1 character"),
  rotation("environment of 65 characters", { environment: long(65) }, "environment", "must be at most 64 characters"),
  rotation("projectId empty", { projectId: "" }, "projectId", "must not be empty"),
  rotation("secretPath empty", { secretPath: "" }, "secretPath", "must not be empty"),
  rotation("connectionId in braces", { connectionId: `{${CONNECTIONS.postgres}}` }, "connectionId", "must be a UUID"),
  rotation("rotationInterval 0", { rotationInterval: 0 }, "rotationInterval", "must be at least 1 (days)"),
  rotation("rotationInterval negative", { rotationInterval: -7 }, "rotationInterval", "must be at least 1 (days)"),
  rotation("rotationInterval not a number", { rotationInterval: "weekly" }, "rotationInterval", "expected number"),
  rotation("rotateAtUtc.hours 24", { rotateAtUtc: { hours: 24, minutes: 0 } }, "rotateAtUtc.hours", "must be 0 to 23"),
  rotation(
    "rotateAtUtc.minutes 60",
    { rotateAtUtc: { hours: 0, minutes: 60 } },
    "rotateAtUtc.minutes",
    "must be 0 to 59",
  ),
  rotation(
    "type not a rotation type",
    { type: "postgres" },
    "type",
    'unknown rotation type "postgres" (did you mean "postgres-credentials"?); the ',
  ),
  rotation(
    "parameters.username1 empty",
    { parameters: { username1: "", username2: "u2" } },
    "parameters.username1",
    "must not be empty",
  ),
  rotation(
    "rotationStatement without {{password}}",
    { parameters: { username1: "u1", username2: "u2", rotationStatement: "ALTER USER {{username}}" } },
    "parameters.rotationStatement",
    "must contain {{username}} and {{password}}",
  ),
  rotation(
    "rotationStatement with an unknown variable",
    {
      parameters: {
        username1: "u1",
        username2: "u2",
        rotationStatement: "ALTER USER {{username}} IN {{schema}} WITH PASSWORD '{{password}}'",
      },
    },
    "parameters.rotationStatement",
    "may only use the variables {{username}}, {{password}} and {{database}}",
  ),
  rotation(
    "passwordRequirements.length 251",
    {
      parameters: {
        username1: "u1",
        username2: "u2",
        passwordRequirements: { length: 251, required: { digits: 1, lowercase: 1, uppercase: 1, symbols: 0 } },
      },
    },
    "parameters.passwordRequirements.length",
    "must be 1 to 250",
  ),
  rotation(
    "passwordRequirements requiring nothing",
    {
      parameters: {
        username1: "u1",
        username2: "u2",
        passwordRequirements: { length: 16, required: { digits: 0, lowercase: 0, uppercase: 0, symbols: 0 } },
      },
    },
    "parameters.passwordRequirements.required",
    "at least one required character count must be above 0",
  ),
  rotation(
    "passwordRequirements requiring more than length",
    {
      parameters: {
        username1: "u1",
        username2: "u2",
        passwordRequirements: { length: 3, required: { digits: 1, lowercase: 1, uppercase: 1, symbols: 1 } },
      },
    },
    "parameters.passwordRequirements.required",
    "the required character counts must not add up to more than length",
  ),
  rotation(
    "passwordRequirements with a negative count",
    {
      parameters: {
        username1: "u1",
        username2: "u2",
        passwordRequirements: { length: 16, required: { digits: -1, lowercase: 1, uppercase: 1, symbols: 0 } },
      },
    },
    "parameters.passwordRequirements.required.digits",
    "must be at least 0",
  ),
  rotation(
    "secretsMapping name with ':'",
    { secretsMapping: { username: "BAD_USER", password: "DB:PASSWORD" } },
    "secretsMapping.password",
    "must not contain ':' or '/'",
  ),
  rotation(
    "secretsMapping name empty",
    { secretsMapping: { username: "", password: "BAD_PASSWORD" } },
    "secretsMapping.username",
    "must not be empty",
  ),
  rotation(
    "redis type with SQL parameters",
    { type: "redis-credentials", connectionId: CONNECTIONS.redis },
    "parameters.permissionScope",
    "is required",
  ),
  rotation(
    "azure-client-secret type with a username/password mapping",
    {
      type: "azure-client-secret",
      connectionId: CONNECTIONS["azure-client-secrets"],
      parameters: { objectId: "obj", clientId: "client" },
    },
    "secretsMapping.clientId",
    "is required",
  ),
  rotation(
    "isAutoRotationEnabled a string",
    { isAutoRotationEnabled: "true" },
    "isAutoRotationEnabled",
    "expected boolean",
  ),
];

// ---------------------------------------------------------------------------------------------
// Certificate profiles (docs/api-spec.md §4.4, §8; docs/service-api.md §4).

const ONE_OF = (values: readonly string[]) => `must be one of the options ${values.map((v) => `"${v}"`).join(", ")}`;

export const profileCases: BadCase[] = [
  profile("slug empty", { slug: "" }, "slug", "must be 1 to 255 characters"),
  profile("slug of 256 characters", { slug: long(256) }, "slug", "must be 1 to 255 characters"),
  profile(
    "slug with upper case and underscore",
    { slug: "Web_Servers" },
    "slug",
    "may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)",
  ),
  profile(
    "slug with a non-ASCII letter",
    { slug: "zertifikat-ß" },
    "slug",
    "may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)",
  ),
  profile(
    "slug with a NUL character",
    { slug: "web\u0000servers" },
    "slug",
    "may only contain lowercase letters, digits and hyphens (^[a-z0-9-]+$)",
  ),
  profile(
    "description of 1001 characters",
    { description: long(1001) },
    "description",
    "must be at most 1000 characters",
  ),
  profile("projectId empty", { projectId: "" }, "projectId", "must not be empty"),
  profile(
    "certificatePolicyId not a UUID",
    { certificatePolicyId: "policy-1" },
    "certificatePolicyId",
    "must be a UUID",
  ),
  profile("caId with a non-hex digit", { caId: "60000000-0000-4000-8000-00000000000g" }, "caId", "must be a UUID"),
  profile(
    "unknown enrollmentType",
    { enrollmentType: "cmp" },
    "enrollmentType",
    ONE_OF(["api", "est", "acme", "scep"]),
  ),
  profile("unknown issuerType", { issuerType: "external" }, "issuerType", ONE_OF(["ca", "self-signed"])),
  profile(
    "API enrollment without apiConfig",
    { apiConfig: undefined },
    "apiConfig",
    "API enrollment requires API configuration",
    { solo: true },
  ),
  profile(
    "EST enrollment without estConfig",
    { enrollmentType: "est", apiConfig: undefined },
    "estConfig",
    "EST enrollment requires EST configuration",
  ),
  profile(
    "API enrollment with an estConfig",
    { estConfig: { passphrase: "canary-est-plain-b41d9e" } },
    "estConfig",
    'is not allowed with enrollmentType "api"',
    { canaries: ["canary-est-plain-b41d9e"], solo: true },
  ),
  profile(
    "self-signed with a caId",
    { issuerType: "self-signed" },
    "caId",
    'must not be set when issuerType is "self-signed"',
  ),
  profile(
    "self-signed with ACME enrollment",
    { issuerType: "self-signed", caId: undefined, enrollmentType: "acme", apiConfig: undefined },
    "enrollmentType",
    'must be "api" when issuerType is "self-signed"',
  ),
  profile("CA-issued without caId", { caId: undefined }, "caId", 'is required when issuerType is "ca"', { solo: true }),
  profile(
    "acmeConfig skipping both DNS and EAB",
    {
      enrollmentType: "acme",
      apiConfig: undefined,
      acmeConfig: { skipDnsOwnershipVerification: true, skipEabBinding: true },
    },
    "acmeConfig",
    "skipDnsOwnershipVerification and skipEabBinding cannot both be true",
    { solo: true },
  ),
  profile(
    "apiConfig.renewBeforeDays 31",
    { apiConfig: { autoRenew: true, renewBeforeDays: 31 } },
    "apiConfig.renewBeforeDays",
    "must be 1 to 30",
  ),
  profile(
    "defaults.ttlDays 0",
    { defaults: { ttlDays: 0 } },
    "defaults.ttlDays",
    "must be a positive whole number of days",
  ),
  profile(
    "defaults.ttlDays 1.5",
    { defaults: { ttlDays: 1.5 } },
    "defaults.ttlDays",
    "must be a positive whole number of days",
  ),
  profile(
    "unknown defaults.keyAlgorithm",
    { defaults: { keyAlgorithm: "RSA_1024" } },
    "defaults.keyAlgorithm",
    ONE_OF(["RSA_2048", "RSA_3072", "RSA_4096", "EC_prime256v1", "EC_secp384r1"]),
  ),
  profile(
    "unknown defaults.signatureAlgorithm",
    { defaults: { signatureAlgorithm: "SHA1" } },
    "defaults.signatureAlgorithm",
    "must be one of the options",
  ),
  profile(
    "unknown key usage",
    { defaults: { keyUsages: ["digital_signature", "sign"] } },
    "defaults.keyUsages.1",
    "must be one of the options",
  ),
  profile(
    "unknown extended key usage",
    { defaults: { extendedKeyUsages: ["any"] } },
    "defaults.extendedKeyUsages.0",
    "must be one of the options",
  ),
  profile(
    "EST passphrase empty, given as a plain value",
    { enrollmentType: "est", apiConfig: undefined, estConfig: { passphrase: "" } },
    "estConfig.passphrase",
    "must not be empty",
  ),
  profile(
    "SCEP challengePassword of 7 characters, given as a plain value",
    { enrollmentType: "scep", apiConfig: undefined, scepConfig: { challengePassword: "pln7chr" } },
    "scepConfig.challengePassword",
    "a static challenge needs a challengePassword of at least 8 characters",
    { canaries: ["pln7chr"] },
  ),
  profile(
    "SCEP challengePassword of 7 characters, from secret config",
    {
      enrollmentType: "scep",
      apiConfig: undefined,
      scepConfig: { includeCaCertInResponse: true },
      secretFieldsFrom: ["scepConfig"],
    },
    "scepConfig.challengePassword",
    "a static challenge needs a challengePassword of at least 8 characters",
    { canaries: [SECRET_CANARY.scepPassword], name: "profile-secret-config" },
  ),
];

// ---------------------------------------------------------------------------------------------
// App connection settings: the PATCH matrix (docs/api-spec.md §4.1) and the other rules
// (docs/service-api.md §1). The service's message for a field a kind does not take is
// "Not supported for <App> Connections".

const LABELS: Record<App, string> = {
  auth0: "Auth0",
  postgres: "PostgreSQL",
  mssql: "Microsoft SQL Server",
  mysql: "MySQL",
  redis: "Redis",
  "azure-client-secrets": "Azure Client Secrets",
  ldap: "LDAP",
  "octopus-deploy": "Octopus Deploy",
  oci: "OCI",
  bitbucket: "Bitbucket",
  venafi: "Venafi TLS Protect Cloud",
  vercel: "Vercel",
  "azure-app-configuration": "Azure App Configuration",
  "azure-key-vault": "Azure Key Vault",
};
const notSupported = (app: App) => `Not supported for ${LABELS[app]} Connections`;

/** The spec's 4.1 rows (one kind per row) and the three destination kinds this package adds. */
const ONLY_FALSE_PLATFORM: App[] = [
  "auth0",
  "redis",
  "azure-client-secrets",
  "ldap",
  "octopus-deploy",
  "oci",
  "bitbucket",
  "venafi",
  "azure-app-configuration",
];
const NO_GATEWAY: App[] = [
  "auth0",
  "redis",
  "azure-client-secrets",
  "octopus-deploy",
  "oci",
  "bitbucket",
  "venafi",
  "vercel",
];
const ONLY_FALSE_AUTO_ROTATION: App[] = [
  "auth0",
  "postgres",
  "redis",
  "ldap",
  "octopus-deploy",
  "oci",
  "bitbucket",
  "venafi",
];
const NO_ROTATION: App[] = [
  "auth0",
  "postgres",
  "redis",
  "ldap",
  "octopus-deploy",
  "oci",
  "bitbucket",
  "venafi",
  "azure-key-vault",
];

export const connectionMatrixCases: BadCase[] = [
  ...ONLY_FALSE_PLATFORM.map((app) =>
    conn(
      app,
      "isPlatformManagedCredentials true",
      { isPlatformManagedCredentials: true },
      "isPlatformManagedCredentials",
      notSupported(app),
    ),
  ),
  ...NO_GATEWAY.map((app) => conn(app, "gatewayId set", { gatewayId: GATEWAY }, "gatewayId", notSupported(app))),
  ...ONLY_FALSE_AUTO_ROTATION.map((app) =>
    conn(
      app,
      "isAutoRotationEnabled true",
      { isAutoRotationEnabled: true },
      "isAutoRotationEnabled",
      notSupported(app),
    ),
  ),
  ...NO_ROTATION.map((app) =>
    conn(app, "rotation set", { rotation: { rotationInterval: 30 } }, "rotation", notSupported(app)),
  ),
  conn("postgres", "gatewayId not a UUID", { gatewayId: "gw-1" }, "gatewayId", "must be a UUID"),
  conn("ldap", "gatewayId not a UUID", { gatewayId: "emulator-gateway" }, "gatewayId", "must be a UUID"),
  conn(
    "postgres",
    "isPlatformManagedCredentials turned on without credentials",
    { isPlatformManagedCredentials: true },
    "credentials",
    "is required when turning on isPlatformManagedCredentials",
    undefined,
    { solo: true },
  ),
  conn(
    "azure-client-secrets",
    "rotation.rotationInterval 0",
    { rotation: { rotationInterval: 0 } },
    "rotation.rotationInterval",
    "must be at least 1",
  ),
  conn(
    "azure-client-secrets",
    "rotation.rotationInterval 366",
    { rotation: { rotationInterval: 366 } },
    "rotation.rotationInterval",
    "must be at most 365",
  ),
  conn(
    "azure-client-secrets",
    "isAutoRotationEnabled a string",
    { isAutoRotationEnabled: "on" },
    "isAutoRotationEnabled",
    "expected boolean",
  ),
];

const PG_CANARY = "canary-plain-pg-password-6d02b7";
const pgCredentials = (extra: Args = {}) => ({
  host: "db.internal",
  port: 5432,
  database: "app",
  username: "admin",
  password: PG_CANARY,
  sslEnabled: true,
  sslRejectUnauthorized: true,
  ...extra,
});
const VENAFI_KEY_257 = `canary-venafi-${long(243, "v")}`;
const BITBUCKET_TOKEN_256 = `canary-bitbucket-${long(239, "b")}`;
const AZURE_SECRET_51 = `canary-azure-${long(38, "z")}`;
const LDAP_CANARY = "canary-ldap-bind-4a7e90";
const AUTH0_CANARY = "canary-auth0-secret-c5d3aa";

export const connectionOtherCases: BadCase[] = [
  conn(
    "postgres",
    "app not a connection kind",
    { app: "postgresql" },
    "app",
    'unknown connection kind "postgresql" (did you mean "postgres"?); the ',
  ),
  conn("postgres", "connectionId not a UUID", { connectionId: "pg" }, "connectionId", "must be a UUID"),
  conn(
    "postgres",
    "connectionId without dashes",
    { connectionId: CONNECTIONS.postgres.replace(/-/g, "") },
    "connectionId",
    "must be a UUID",
  ),
  conn(
    "postgres",
    "both connectionId and connectionName",
    { connectionName: "emulator-postgres" },
    "connectionId",
    "give exactly one of connectionId and connectionName",
    undefined,
    { solo: true },
  ),
  conn(
    "postgres",
    "neither connectionId nor connectionName",
    { connectionId: undefined },
    "connectionId",
    "give exactly one of connectionId and connectionName",
    undefined,
    { solo: true },
  ),
  conn(
    "postgres",
    "connectionName of 65 characters",
    { connectionId: undefined, connectionName: long(65) },
    "connectionName",
    "must be at most 64 characters",
  ),
  conn(
    "postgres",
    "connectionName empty",
    { connectionId: undefined, connectionName: "" },
    "connectionName",
    "must be at least 1 character",
  ),
  conn(
    "postgres",
    "connectionName with a bell character",
    { connectionId: undefined, connectionName: "emulator\u0007postgres" },
    "connectionName",
    SLUG_RULE("name"),
  ),
  conn(
    "postgres",
    "description of 257 characters",
    { description: long(257) },
    "description",
    "must be at most 256 characters",
  ),
  conn(
    "postgres",
    "projectId empty",
    { connectionId: undefined, connectionName: "emulator-postgres", projectId: "" },
    "projectId",
    "must not be empty",
  ),
  conn(
    "postgres",
    "credentials.port not a number, password given as a plain value",
    { credentials: pgCredentials({ port: "five-four-three-two" }) },
    "credentials.port",
    "must be a number",
    [PG_CANARY],
  ),
  conn(
    "postgres",
    "credentials without sslEnabled, password given as a plain value",
    { credentials: pgCredentials({ sslEnabled: undefined }) },
    "credentials.sslEnabled",
    "is required",
    [PG_CANARY],
  ),
  conn(
    "postgres",
    "credentials.host empty",
    { credentials: pgCredentials({ host: "" }) },
    "credentials.host",
    "must not be empty",
    [PG_CANARY],
  ),
  {
    what: "AppConnectionSettings (postgres) credentials.database empty, password from secret config",
    resources: [
      {
        kind: "AppConnectionSettings",
        name: "conn-secret-config",
        args: connArgs("postgres", {
          credentials: { ...pgCredentials({ database: "" }), password: undefined },
          secretFieldsFrom: ["credentials"],
        }),
      },
    ],
    field: "credentials.database",
    rule: "must not be empty",
    canaries: [SECRET_CANARY.postgresPassword],
  },
  conn(
    "venafi",
    "credentials.apiKey of 257 characters",
    { credentials: { apiKey: VENAFI_KEY_257, region: "us" } },
    "credentials.apiKey",
    "must be at most 256 characters",
    [VENAFI_KEY_257],
  ),
  conn(
    "venafi",
    "credentials.region not a region",
    { credentials: { apiKey: "canary-venafi-key-ee21", region: "us-east-1" } },
    "credentials.region",
    ONE_OF(["us", "eu", "au", "uk", "sg", "ca"]),
    ["canary-venafi-key-ee21"],
  ),
  conn(
    "venafi",
    "credentials of a SQL connection",
    { credentials: pgCredentials() },
    "credentials.apiKey",
    "is required",
    [PG_CANARY],
  ),
  conn(
    "bitbucket",
    "credentials.apiToken of 256 characters",
    { credentials: { apiToken: BITBUCKET_TOKEN_256, email: "ops@example.com" } },
    "credentials.apiToken",
    "must be at most 255 characters",
    [BITBUCKET_TOKEN_256],
  ),
  conn(
    "bitbucket",
    "credentials.email not an e-mail address",
    { credentials: { apiToken: "canary-bb-token-91f0", email: "ops at example.com" } },
    "credentials.email",
    "must be an e-mail address",
    ["canary-bb-token-91f0"],
  ),
  conn(
    "ldap",
    "credentials.url not an LDAP URL",
    {
      credentials: {
        provider: "active-directory",
        url: "https://dir.example.com",
        dn: "cn=admin,dc=example,dc=com",
        password: LDAP_CANARY,
      },
    },
    "credentials.url",
    "must be an LDAP URL (ldap:// or ldaps://)",
    [LDAP_CANARY],
  ),
  conn(
    "ldap",
    "credentials.dn with a space after a comma",
    {
      credentials: {
        provider: "active-directory",
        url: "ldaps://dir.example.com",
        dn: "cn=admin, dc=example",
        password: LDAP_CANARY,
      },
    },
    "credentials.dn",
    "must be a distinguished name (cn=...,dc=...) or a user principal name (user@domain.tld)",
    [LDAP_CANARY],
  ),
  conn(
    "ldap",
    "credentials.provider not a directory provider",
    {
      credentials: {
        provider: "openldap",
        url: "ldaps://dir.example.com",
        dn: "cn=admin,dc=example,dc=com",
        password: LDAP_CANARY,
      },
    },
    "credentials.provider",
    ONE_OF(["active-directory"]).replace("must be one of the options ", "must be "),
    [LDAP_CANARY],
  ),
  conn(
    "auth0",
    "credentials.audience not a URL",
    { credentials: { domain: "x.auth0.com", clientId: "cid", clientSecret: AUTH0_CANARY, audience: "api" } },
    "credentials.audience",
    "must be a URL",
    [AUTH0_CANARY],
  ),
  conn(
    "octopus-deploy",
    "credentials.instanceUrl of 256 characters",
    {
      credentials: { instanceUrl: `https://octopus.example.com/${long(228, "o")}`, apiKey: "canary-octopus-key-11aa" },
    },
    "credentials.instanceUrl",
    "must be at most 255 characters",
    ["canary-octopus-key-11aa"],
  ),
  conn(
    "azure-client-secrets",
    "client-secret credentials.clientSecret of 51 characters",
    {
      credentials: {
        clientId: "a1b2c3d4-0000-4000-8000-000000000001",
        clientSecret: AZURE_SECRET_51,
        tenantId: "a1b2c3d4-0000-4000-8000-000000000002",
      },
    },
    "credentials.clientSecret",
    "must be at most 50 characters",
    [AZURE_SECRET_51],
  ),
];

/**
 * A program-side query (getAuditLogsOutput) fails in preview as well, before any request. One
 * case only: a program that throws costs the engine about ten times a check failure; the other
 * audit-query rules are checked against the SDK directly (bad-input-b).
 */
export const auditCases: BadCase[] = [
  {
    what: "audit-log query with limit 1001",
    resources: [],
    auditQuery: { limit: 1001 },
    rule: "limit: must be at most 1000",
  },
];

/** The name jest shows: what is wrong → the message. */
export const caseName = (c: BadCase) => `${c.what} → "${c.field ? `${c.field}: ` : ""}${c.rule}"`;

/** Every value the error output must never contain (besides each case's own canaries). */
export const globalCanaries = (env: EngineEnv) => [
  env.emulator.token,
  SECRET_CANARY.postgresPassword,
  SECRET_CANARY.scepPassword,
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export interface PreviewOutcome {
  rejected: boolean;
  text: string;
  requests: Awaited<ReturnType<EngineEnv["requests"]>>;
}

/** Declares the resources (and audit query), previews, and returns the output and the API requests made. */
export async function previewOutcome(
  env: EngineEnv,
  resources: Declared[],
  auditQuery?: Args,
): Promise<PreviewOutcome> {
  await env.declare(resources);
  if (auditQuery) await env.t.stack.setConfig("resources:auditQuery", { value: JSON.stringify(auditQuery) });
  await env.resetRequests();
  try {
    const outcome = await env.t.stack.preview().then(
      () => undefined,
      (e: unknown) => e,
    );
    const requests = await env.requests();
    const text = outcome === undefined ? "preview passed" : String((outcome as Error).message ?? outcome);
    return { rejected: outcome !== undefined, text, requests };
  } finally {
    if (auditQuery) await env.t.stack.removeConfig("resources:auditQuery");
  }
}

/**
 * The failure of one resource, naming the field and the rule: the provider reports every check
 * failure on the resource (provider/engine-voice.ts), which the engine prints as
 * `<type> resource '<name>' has a problem: <path>: <rule>`.
 */
export function failurePattern(c: BadCase, resourceName: string): RegExp {
  if (!c.field) return new RegExp(escape(c.rule));
  return new RegExp(`resource '${escape(resourceName)}' has a problem: ${escape(c.field)}: ${escape(c.rule)}`);
}

interface Group {
  cases: BadCase[];
  resources: Declared[];
  auditQuery?: Args;
}

const disjoint = (a: Args, b: Args) => Object.keys(a).every((k) => !(k in b));

/**
 * The programs the cases run as: mergeable cases (see `BadCase.merge`) share one resource, up
 * to `size` cases; every other case runs alone, its resource renamed so no two programs reuse a
 * name (secret-config cases keep theirs, which their secrets are keyed by).
 */
function programs(cases: BadCase[], prefix: string, size: number): Group[] {
  const groups: (Group & { key?: string; extra: Args })[] = [];
  for (const c of cases) {
    const open = c.merge
      ? groups.find((g) => g.key === c.merge!.key && g.cases.length < size && disjoint(g.extra, c.merge!.extra))
      : undefined;
    if (open) {
      open.cases.push(c);
      Object.assign(open.extra, c.merge!.extra);
      open.resources = [{ ...open.resources[0]!, args: c.merge!.build(open.extra) }];
    } else {
      const name = `${prefix}-${groups.length}`;
      groups.push({
        cases: [c],
        key: c.merge?.key,
        extra: { ...c.merge?.extra },
        auditQuery: c.auditQuery,
        resources: c.resources.map((r) => (r.name in SECRETS ? r : { ...r, name })),
      });
    }
  }
  return groups;
}

/**
 * One test per case: the preview rejects, the output names the field and the rule and echoes no
 * secret, and no request reached the API. A preview costs the engine several seconds, so
 * independent field cases share a program (`programs`); each program is previewed once.
 */
export function badInputTests(cases: BadCase[], envRef: () => EngineEnv, opts: { prefix: string; mergeUpTo: number }) {
  const groups = programs(cases, opts.prefix, opts.mergeUpTo);
  const outcomes = new Map<Group, Promise<PreviewOutcome>>();
  const outcomeOf = (g: Group) => {
    if (!outcomes.has(g)) outcomes.set(g, previewOutcome(envRef(), g.resources, g.auditQuery));
    return outcomes.get(g)!;
  };
  const rows = groups.flatMap((g) => g.cases.map((c) => [caseName(c), c, g] as const));

  test.each(rows)("%s", async (_name, c, g) => {
    const env = envRef();
    const { rejected, text, requests } = await outcomeOf(g);
    expect(rejected).toBe(true);
    expect(text).toMatch(failurePattern(c, g.resources[0]?.name ?? ""));
    for (const canary of [...globalCanaries(env), ...(c.canaries ?? [])]) expect(text).not.toContain(canary);
    expect(requests).toEqual([]);
  });
}

/** How many invalid cases, and how many programs they run as. */
export const programCount = (cases: BadCase[], mergeUpTo: number) => programs(cases, "x", mergeUpTo).length;
