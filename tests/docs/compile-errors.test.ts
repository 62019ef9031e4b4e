import { compileSnippets, type SnippetDiagnostic } from "./helpers/compile";

/**
 * What a TypeScript user sees first for a typical mistake in a resource's args: the compiler's
 * first message names the field at fault (and, for a misspelt one, the field meant), for each
 * resource, in a nested object of the kind (`destinationConfig`, `parameters`, `credentials`, a
 * profile's config) as at the top. Valid programs, with any field an `Output` or a promise
 * (nested objects whole included), compile without a message. The snippets are compiled here by
 * the TypeScript compiler, so the messages are asserted whether or not jest type-checks tests.
 */

const prelude = `
import * as pulumi from "@pulumi/pulumi";
import {
  AppConnection, AppConnectionSettings, CertificateProfile, GenericSecretSync, SecretRotation, SecretSync,
  type AppConnectionArgs, type AppConnectionSettingsArgs, type CertificateProfileArgs,
  type SecretRotationArgs, type SecretSyncArgs,
} from "secretops-pulumi";
declare const out: pulumi.Output<string>;
declare const maybe: pulumi.Output<string | undefined>;
const base = { name: "n", projectId: "p", connectionId: "c", environment: "e", secretPath: "/" };
const sync = { ...base, syncOptions: { initialSyncBehavior: "overwrite-destination" as const } };
const rotation = { ...base, rotationInterval: 30, secretsMapping: { username: "U", password: "P" } };
const pg = { host: "h", port: 5432, database: "d", username: "u", password: "p", sslEnabled: true, sslRejectUnauthorized: true };
const profile = { projectId: "p", certificatePolicyId: "c", slug: "s", issuerType: "ca" as const, caId: "x" };
export {};
`;

/** A mistake, the first message it must get, and (for a misspelling) the field meant. */
interface Mistake {
  code: string;
  first: RegExp;
}

const mistakes: Record<string, Mistake> = {
  syncNestedTypo: {
    code: `new SecretSync("s", { ...sync, destination: "aws-secrets-manager", destinationConfig: { region: "eu-west-1", mapingBehavior: "one-to-one" } });`,
    first:
      /'mapingBehavior' does not exist in type 'SecretSyncAwsSecretsManagerDestinationConfig'.*Did you mean to write 'mappingBehavior'\?/,
  },
  syncMissingField: {
    code: `new SecretSync("s", { ...sync, destination: "github", destinationConfig: { owner: "o", repo: "r" } });`,
    first:
      /Property 'scope' is missing in type '\{ owner: string; repo: string; \}' but required in type 'SecretSyncGithubDestinationConfig'/,
  },
  syncFieldOfAnotherKind: {
    code: `new SecretSync("s", { ...sync, destination: "vercel", destinationConfig: { vaultBaseUrl: "https://v", app: "a", appName: "b", env: "production", teamId: "t" } });`,
    first: /'vaultBaseUrl' does not exist in type 'SecretSyncVercelDestinationConfig'/,
  },
  syncTopLevelTypo: {
    code: `new SecretSync("s", { ...sync, destination: "github", destinationConfig: { scope: "repository", owner: "o", repo: "r" }, isAutoSyncEnabld: false });`,
    first: /'isAutoSyncEnabld' does not exist .*Did you mean to write 'isAutoSyncEnabled'\?/,
  },
  syncUnknownDestination: {
    code: `new SecretSync("s", { ...sync, destination: "githb", destinationConfig: { scope: "repository" } });`,
    first: /Type '"githb"' is not assignable to type .*Did you mean '"github"'\?/,
  },
  syncWrongValue: {
    code: `new SecretSync("s", { ...sync, destination: "github", destinationConfig: { scope: "repo", owner: "o", repo: "r" } });`,
    first: /Type '"repo"' is not assignable to type .*"organization" \| "repository" \| "repository-environment"/,
  },
  rotationNestedTypo: {
    code: `new SecretRotation("r", { ...rotation, type: "postgres-credentials", parameters: { username1: "a", usernme2: "b" } });`,
    first:
      /'usernme2' does not exist in type 'SecretRotationPostgresCredentialsParameters'.*Did you mean to write 'username2'\?/,
  },
  rotationMissingField: {
    code: `new SecretRotation("r", { ...rotation, type: "postgres-credentials", parameters: { username1: "a" } });`,
    first:
      /Property 'username2' is missing in type '\{ username1: string; \}' but required in type 'SecretRotationPostgresCredentialsParameters'/,
  },
  rotationFieldOfAnotherKind: {
    code: `new SecretRotation("r", { ...rotation, type: "postgres-credentials", parameters: { username1: "a", username2: "b", dn: "CN=x" } });`,
    first: /'dn' does not exist in type 'SecretRotationPostgresCredentialsParameters'/,
  },
  rotationMappingTypo: {
    code: `new SecretRotation("r", { ...rotation, type: "postgres-credentials", parameters: { username1: "a", username2: "b" }, secretsMapping: { username: "U", pasword: "P" } });`,
    first:
      /'pasword' does not exist in type 'SecretRotationPostgresCredentialsSecretsMapping'.*Did you mean to write 'password'\?/,
  },
  connectionNestedTypo: {
    code: `const { password: _, ...rest } = pg;
new AppConnection("c", { name: "c", app: "postgres", method: "username-and-password", credentials: { ...rest, pasword: "p" } });`,
    first:
      /'pasword' does not exist in type 'AppConnectionPostgresUsernameAndPasswordCredentials'.*Did you mean to write 'password'\?/,
  },
  connectionMissingField: {
    code: `const { database: _, ...rest } = pg;
new AppConnection("c", { name: "c", app: "postgres", method: "username-and-password", credentials: rest });`,
    first:
      /Property 'database' is missing in type .* but required in type 'AppConnectionPostgresUsernameAndPasswordCredentials'/,
  },
  connectionFieldOfAnotherKind: {
    code: `new AppConnection("c", { name: "c", app: "postgres", method: "username-and-password", credentials: { ...pg, personalAccessToken: "t" } });`,
    first: /'personalAccessToken' does not exist in type 'AppConnectionPostgresUsernameAndPasswordCredentials'/,
  },
  connectionFieldOfAnotherMethod: {
    code: `new AppConnection("c", { name: "c", app: "github", method: "pat", credentials: { personalAccessToken: "t", installationId: "i" } });`,
    first: /'installationId' does not exist in type 'AppConnectionGithubPatCredentials'/,
  },
  connectionUnknownMethod: {
    code: `new AppConnection("c", { name: "c", app: "github", method: "patt", credentials: { personalAccessToken: "t" } });`,
    first: /Type '"patt"' is not assignable to type .*Did you mean '"pat"'\?/,
  },
  profileNestedTypo: {
    code: `new CertificateProfile("p", { ...profile, enrollmentType: "est", estConfig: { passphrase: "x", disableBootstrapCaValidaton: true } });`,
    first: /'disableBootstrapCaValidaton' does not exist .*Did you mean to write 'disableBootstrapCaValidation'\?/,
  },
  profileMissingField: {
    code: `new CertificateProfile("p", { ...profile, enrollmentType: "est", estConfig: { caChain: "pem" } });`,
    first: /Property 'passphrase' is missing in type '\{ caChain: string; \}' but required in type/,
  },
  profileFieldOfAnotherKind: {
    code: `new CertificateProfile("p", { ...profile, enrollmentType: "api", apiConfig: { autoRenew: true }, estConfig: { passphrase: "x" } });`,
    first: /'estConfig' does not exist in type/,
  },
  profileSelfSignedWithCa: {
    code: `const { caId: _, ...noCa } = profile;
new CertificateProfile("p", { ...noCa, issuerType: "self-signed", caId: "x", enrollmentType: "api", apiConfig: {} });`,
    first: /caId/,
  },
  profileEstWithoutConfig: {
    code: `new CertificateProfile("p", { ...profile, enrollmentType: "est" });`,
    first: /Property 'estConfig' is missing/,
  },
  settingsTypo: {
    code: `new AppConnectionSettings("x", { app: "postgres", connectionId: "c", isPlatformManagedCredentals: true });`,
    first:
      /'isPlatformManagedCredentals'.*Did you mean to write 'isPlatformManagedCredentials'\?|'isPlatformManagedCredentals' does not exist.*Did you mean to write 'isPlatformManagedCredentials'\?/,
  },
  settingsOptionalNestedTypo: {
    code: `const { password: _, ...rest } = pg;
new AppConnectionSettings("x", { app: "postgres", connectionId: "c", credentials: { ...rest, pasword: "p" } });`,
    first:
      /'pasword' does not exist in type 'AppConnectionSettingsPostgresCredentials'.*Did you mean to write 'password'\?/,
  },
  settingsUnsupportedGateway: {
    code: `new AppConnectionSettings("x", { app: "auth0", connectionId: "c", gatewayId: "g" });`,
    first: /Type 'string' is not assignable to type 'Input<null \| undefined>'/,
  },
  settingsOnlyFalse: {
    code: `new AppConnectionSettings("x", { app: "auth0", connectionId: "c", isAutoRotationEnabled: true });`,
    first: /Type 'true' is not assignable to type 'Input<false \| undefined>'/,
  },
  annotatedUnionWrongConfig: {
    code: `export const a: SecretSyncArgs = { ...sync, destination: "vercel", destinationConfig: { vaultBaseUrl: "https://v" } };`,
    first: /vaultBaseUrl/,
  },
  annotatedKindMissingField: {
    code: `export const a: SecretSyncArgs<"github"> = { ...sync, destination: "github", destinationConfig: { owner: "o", repo: "r" } };`,
    first: /Property 'scope' is missing/,
  },
  annotatedRotationMapping: {
    code: `export const r: SecretRotationArgs = { ...rotation, type: "postgres-credentials", parameters: { username1: "a", username2: "b" }, secretsMapping: { clientId: "A", clientSecret: "B" } };`,
    first: /clientId/,
  },
  outputThatIsNot: {
    code: `declare const s: SecretSync;
export const nope = s.rotationInterval;`,
    first: /Property 'rotationInterval' does not exist on type/,
  },
};

/** Valid programs: each must compile without a message. */
const valid: Record<string, string> = {
  outputsAndPromises: `
new SecretSync("s1", { ...sync, projectId: out, destination: "aws-secrets-manager", destinationConfig: pulumi.output({ region: "eu-west-1" as const, mappingBehavior: "one-to-one" as const }) });
new SecretSync("s2", { ...sync, destination: "aws-secrets-manager", destinationConfig: Promise.resolve({ region: "eu-west-1" as const, mappingBehavior: "one-to-one" as const }) });
new SecretSync("s3", { ...sync, destination: "github", destinationConfig: { scope: "repository", owner: out, repo: maybe } });
new SecretSync("s4", { ...sync, destination: "vercel", destinationConfig: { app: out, appName: "b", env: "production", teamId: "t", branch: maybe }, syncOptions: pulumi.output({ initialSyncBehavior: "overwrite-destination" as const }) });
new SecretSync("s5", { ...sync, destination: "koyeb", destinationConfig: {} });
new SecretSync("s6", { ...sync, destination: "koyeb", destinationConfig: Promise.resolve({}) });
new SecretRotation("r1", { ...rotation, type: "postgres-credentials", parameters: { username1: out, username2: "b" }, secretsMapping: pulumi.output({ username: "U", password: "P" }) });
new SecretRotation("r2", { ...rotation, type: "redis-credentials", parameters: { permissionScope: "~* +@all" } });
new AppConnection("c1", { name: "c", app: "postgres", method: "username-and-password", credentials: { ...pg, password: out } });
new AppConnection("c2", { name: "c", app: "github", method: "pat", credentials: pulumi.secret({ personalAccessToken: "t" }) });
declare const pat: pulumi.Output<"pat">;
new AppConnection("c3", { name: "c", app: "github", method: pat, credentials: { personalAccessToken: "t" } });
new CertificateProfile("p1", { ...profile, caId: out, enrollmentType: "est", estConfig: { passphrase: out } });
new CertificateProfile("p2", { projectId: "p", certificatePolicyId: "c", slug: "s", issuerType: "self-signed", enrollmentType: "api", apiConfig: pulumi.output({ autoRenew: true }) });
new AppConnectionSettings("x1", { app: "postgres", connectionName: out, gatewayId: null });
new AppConnectionSettings("x2", { app: "auth0", connectionId: "c", isAutoRotationEnabled: false });
new AppConnectionSettings("x3", { app: "postgres", connectionId: "c", credentials: pulumi.output(undefined) });
new AppConnectionSettings("x4", { app: "postgres", connectionId: "c", credentials: Promise.resolve(undefined), description: maybe });
new GenericSecretSync("g", { ...sync, destination: "a-new-destination", destinationConfig: { anything: out } });
`,
  typedArgsAndUnions: `
declare const anySync: SecretSyncArgs;
declare const anyConnection: AppConnectionArgs;
declare const anySettings: AppConnectionSettingsArgs;
new SecretSync("s", anySync);
new AppConnection("c", anyConnection);
new AppConnectionSettings("x", anySettings);
export const github: SecretSyncArgs<"github"> = { ...sync, destination: "github", destinationConfig: { scope: "organization", org: "o", visibility: "all" } };
export const many: SecretSyncArgs[] = [
  github,
  { ...sync, destination: "azure-key-vault", destinationConfig: { vaultBaseUrl: "https://v" }, syncOptions: { initialSyncBehavior: "overwrite-destination", disableCertificateImport: true } },
  { ...sync, destination: "vercel", destinationConfig: { app: "a", appName: "b", env: "production", teamId: "t" }, syncOptions: { initialSyncBehavior: "import-prioritize-source" } },
];
export const redis: SecretRotationArgs = { ...rotation, type: "redis-credentials", parameters: { permissionScope: "~* +@all" } };
export const selfSigned: CertificateProfileArgs = { projectId: "p", certificatePolicyId: "c", slug: "s", issuerType: "self-signed", enrollmentType: "api", apiConfig: {} };
export const sqlGateway: AppConnectionSettingsArgs = { app: "postgres", connectionId: "c", gatewayId: null };
new SecretSync("s2", github);
class MySync extends SecretSync {}
new MySync("m", github);
`,
  outputs: `
// Outputs are declared from each definition's mapping, with its types.
export function outputs(sync: SecretSync, rotation: SecretRotation, settings: AppConnectionSettings) {
  const projectId: pulumi.Output<string> = sync.projectId;
  const status: pulumi.Output<string | null | undefined> = sync.syncStatus;
  const interval: pulumi.Output<number> = rotation.rotationInterval;
  const name: pulumi.Output<string> = settings.name;
  return [projectId, status, interval, name];
}
export const isSync = (r: unknown) => r instanceof SecretSync;
`,
};

let results: Record<string, SnippetDiagnostic[]>;
beforeAll(() => {
  results = compileSnippets(
    Object.fromEntries([
      ...Object.entries(mistakes).map(([name, m]) => [name, prelude + m.code]),
      ...Object.entries(valid).map(([name, code]) => [name, prelude + code]),
    ]),
  );
}, 120_000);

describe("a mistake's first compile error names the field", () => {
  test.each(Object.keys(mistakes))("%s", (name) => {
    const first = results[name]![0];
    expect({ name, first: first?.message.replace(/\n\s*/g, " ") }).toEqual({
      name,
      first: expect.stringMatching(mistakes[name]!.first),
    });
  });
});

test("valid programs compile without a message", () => {
  const messages = Object.fromEntries(
    Object.keys(valid).map((name) => [name, results[name]!.map((d) => `${d.line}: ${d.message}`)]),
  );
  expect(messages).toEqual(Object.fromEntries(Object.keys(valid).map((name) => [name, []])));
});
