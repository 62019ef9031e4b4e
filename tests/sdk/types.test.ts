import type {
  AppConnectionCreateInput,
  AppConnectionUpdateInput,
  GeneratedCredentials,
  SecretRotationCreateInput,
  SecretSyncCreateInput,
  SecretSyncUpdateInput,
} from "../../sdk";

/**
 * The per-kind request types are derived from the kind tables. jest only transpiles this file;
 * `tsc -p tsconfig.json --noEmit` (`npm run typecheck`, which `npm test` runs first) type-checks it,
 * so a wrong derivation fails there, and so does an `@ts-expect-error` line that compiles.
 */

test("per-kind request types follow the rows", () => {
  const pg: AppConnectionCreateInput<"postgres"> = {
    name: "db",
    method: "username-and-password",
    credentials: {
      host: "h",
      port: 5432,
      database: "d",
      username: "u",
      password: "p",
      sslEnabled: true,
      sslRejectUnauthorized: true,
    },
  };
  const az: AppConnectionCreateInput<"azure-client-secrets"> = {
    name: "az",
    method: "oauth",
    credentials: { code: "c", tenantId: "t" },
  };
  const oauthBody = { name: "a", method: "oauth", credentials: { code: "c", tenantId: "t" } } as const;
  // @ts-expect-error: a method of another kind
  const wrongMethod: AppConnectionCreateInput<"auth0"> = oauthBody;

  const sqlPatch: AppConnectionUpdateInput<"postgres"> = { isPlatformManagedCredentials: true, gatewayId: null };
  // @ts-expect-error: auth0 only accepts `false`
  const onlyFalse: AppConnectionUpdateInput<"auth0"> = { isPlatformManagedCredentials: true };
  // @ts-expect-error: no gateways for redis
  const noGateway: AppConnectionUpdateInput<"redis"> = { gatewayId: "x" };
  const azRotation: AppConnectionUpdateInput<"azure-client-secrets"> = {
    isAutoRotationEnabled: true,
    rotation: { rotationInterval: 7 },
  };

  const kv: SecretSyncCreateInput<"azure-key-vault">["syncOptions"] = {
    initialSyncBehavior: "overwrite-destination",
    disableCertificateImport: true,
  };
  // @ts-expect-error: vercel needs teamId
  const vercelConfig: SecretSyncCreateInput<"vercel">["destinationConfig"] = { app: "a", appName: "A", env: "e" };
  const patch: SecretSyncUpdateInput<"azure-app-configuration"> = {
    destinationConfig: { configurationUrl: "https://x" },
  };

  const redis: SecretRotationCreateInput<"redis-credentials">["parameters"] = { permissionScope: "+@all" };
  // @ts-expect-error: azure-client-secret needs objectId and clientId
  const azParams: SecretRotationCreateInput<"azure-client-secret">["parameters"] = { appName: "x" };
  const creds: GeneratedCredentials<"azure-client-secret"> = { clientId: "c", clientSecret: "s", keyId: "k" };

  expect([
    pg,
    az,
    wrongMethod,
    sqlPatch,
    onlyFalse,
    noGateway,
    azRotation,
    kv,
    vercelConfig,
    patch,
    redis,
    azParams,
    creds,
  ]).toHaveLength(13);
});

test("over a union of slugs the types are the union of the per-kind types", () => {
  type AnyApp = import("../../sdk").AppConnectionApp;
  const anyKind: AppConnectionCreateInput<AnyApp> = {
    name: "x",
    method: "api-key",
    credentials: { apiKey: "k", region: "eu" },
  };
  // @ts-expect-error: credentials of no method
  const none: AppConnectionCreateInput<AnyApp> = { name: "x", method: "api-key", credentials: { nothing: 1 } };
  const sync: SecretSyncCreateInput<"vercel" | "azure-key-vault">["destinationConfig"] = { vaultBaseUrl: "https://v" };
  expect([anyKind, none, sync]).toHaveLength(3);
});
