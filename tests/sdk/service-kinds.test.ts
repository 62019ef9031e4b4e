import { appConnectionKinds, rotationTypes, syncDestinations, type KindOrigin } from "../../sdk/schemas";

/**
 * The service's kinds, quoted from its own enums (Infisical/infisical, read on 2026-11-25), against
 * the kinds this package types. Every slug the service lists must be typed here, and its row must
 * say it is in the enum; a kind the package types beyond the quoted enum says on its row where it
 * comes from, so neither list can drift unnoticed.
 */

/** `backend/src/services/secret-sync/secret-sync-enums.ts` (commit 0584c33e): `SecretSync`, 44 values. */
const serviceSyncDestinations = [
  "aws-parameter-store",
  "aws-secrets-manager",
  "github",
  "gcp-secret-manager",
  "azure-key-vault",
  "azure-app-configuration",
  "azure-devops",
  "databricks",
  "humanitec",
  "terraform-cloud",
  "camunda",
  "vercel",
  "windmill",
  "hashicorp-vault",
  "teamcity",
  "oci-vault",
  "1password",
  "heroku",
  "render",
  "flyio",
  "trigger-dev",
  "gitlab",
  "cloudflare-pages",
  "cloudflare-workers",
  "supabase",
  "zabbix",
  "railway",
  "checkly",
  "digital-ocean-app-platform",
  "netlify",
  "northflank",
  "bitbucket",
  "laravel-forge",
  "chef",
  "octopus-deploy",
  "circleci",
  "azure-entra-id-scim",
  "external-infisical",
  "ovh",
  "devin",
  "ona",
  "travis-ci",
  "snowflake",
  "qovery",
];

/** `backend/src/services/app-connection/app-connection-enums.ts` (commit 00392e9c): `AppConnection`, 50 values. */
const serviceConnectionKinds = [
  "github",
  "github-radar",
  "aws",
  "databricks",
  "gcp",
  "azure-key-vault",
  "azure-app-configuration",
  "azure-client-secrets",
  "azure-devops",
  "azure-adcs",
  "humanitec",
  "terraform-cloud",
  "vercel",
  "postgres",
  "mssql",
  "mysql",
  "camunda",
  "windmill",
  "auth0",
  "hashicorp-vault",
  "ldap",
  "teamcity",
  "oci",
  "oracledb",
  "1password",
  "heroku",
  "render",
  "flyio",
  "gitlab",
  "cloudflare",
  "dns-made-easy",
  "zabbix",
  "railway",
  "bitbucket",
  "checkly",
  "supabase",
  "digital-ocean",
  "netlify",
  "okta",
  "redis",
  "mongodb",
  "laravel-forge",
  "chef",
  "northflank",
  "octopus-deploy",
  "ssh",
  "smb",
  "open-router",
  "circleci",
  "coolify",
];

/** `backend/src/ee/services/secret-rotation-v2/secret-rotation-v2-enums.ts` (newest stored version): `SecretRotation`, 15 values. */
const serviceRotationTypes = [
  "postgres-credentials",
  "mssql-credentials",
  "mysql-credentials",
  "oracledb-credentials",
  "auth0-client-secret",
  "azure-client-secret",
  "ldap-password",
  "aws-iam-user-secret",
  "okta-client-secret",
  "redis-credentials",
  "mongodb-credentials",
  "databricks-service-principal-secret",
  "unix-linux-local-account",
  "windows-local-account",
  "open-router-api-key",
];

/**
 * Kinds typed beyond the quoted enums say so on their row (`origin: { folder }`), naming the
 * folder of the service's source they were read from: newer than the enum versions stored, or
 * (venafi) absent from them. Kinds whose folder is in the stored source but that are not typed,
 * and why: `azure` (connection, one stored version, since split into the azure-* kinds),
 * `service-now` (connection, one stored version without a method enum: an earlier draft of
 * `servicenow`), `easydns` and `alibaba-cloud` (connections, with the `alibaba-cloud-kms`
 * destination: one stored version of each file, no documentation page, and for `easydns` no
 * `index.ts`: not known to have shipped).
 */
const tables: [string, Record<string, { origin?: KindOrigin }>, string[], number, string][] = [
  ["sync destinations", syncDestinations, serviceSyncDestinations, 44, "services/secret-sync/"],
  ["connection kinds", appConnectionKinds, serviceConnectionKinds, 50, "services/app-connection/"],
  ["rotation types", rotationTypes, serviceRotationTypes, 15, "ee/services/secret-rotation-v2/"],
];

const sorted = (xs: readonly string[]) => [...xs].sort();

describe.each(tables)("the service's %s", (_, table, service, count, folders) => {
  const slugs = Object.keys(table);
  const fromTheEnum = slugs.filter((slug) => table[slug]!.origin === "service-enum");

  test("are all typed, and are the rows whose origin is the service's enum", () => {
    expect(service).toHaveLength(count);
    expect(new Set(service).size).toBe(count);
    expect(service.filter((s) => !slugs.includes(s))).toEqual([]);
    expect(sorted(fromTheEnum)).toEqual(sorted(service));
  });

  test("every other row names the folder of the service's source it was read from", () => {
    const beyond = slugs.filter((slug) => table[slug]!.origin !== "service-enum");
    expect(beyond.length).toBe(slugs.length - count);
    for (const slug of beyond) {
      const origin = table[slug]!.origin;
      expect([slug, typeof origin === "object" && origin.folder]).toEqual([
        slug,
        expect.stringMatching(new RegExp(`^${folders}[a-z0-9-]+/$`)),
      ]);
    }
  });
});
