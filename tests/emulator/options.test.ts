import {
  AppConnectionOptionsEnvelope,
  SecretRotationOptionsEnvelope,
  SecretSyncOptionsEnvelope,
  apiPaths,
  appConnectionKinds,
  knownSyncDestinations,
  projectTypes,
  rotationTypes,
  syncDestinations,
  type AppConnectionKind,
  type RotationType,
} from "../../sdk/schemas";
import type { RunningEmulator } from "../../emulator";
import { expect422, expectError, start, type Api } from "./helpers";

/**
 * The options routes: which destinations, connection kinds and rotation types the service offers,
 * each answered from its kind table as the service's `list…Options` answer from theirs.
 */

let emu: RunningEmulator;
let api: Api;
beforeAll(async () => ({ emu, api } = await start()));
afterAll(() => emu.stop());

const kinds = Object.values(appConnectionKinds) as AppConnectionKind[];
const types = Object.values(rotationTypes) as RotationType[];
const sortedByName = (names: string[]) => [...names].sort((a, b) => a.localeCompare(b));

// server/routes/v1/secret-sync-routers/secret-sync-router.ts (`GET /options`, listSecretSyncOptions
// in services/secret-sync/secret-sync-fns.ts): each destination's *_SYNC_LIST_OPTION, sorted by name.
describe("GET /api/v1/secret-syncs/options", () => {
  const url = `${apiPaths.allSecretSyncs}/options`;

  test("one option per destination row, sorted by name, with its connection and import flag", async () => {
    const res = await api.get(url);
    expect(res.status).toBe(200);
    const options = SecretSyncOptionsEnvelope.parse(res.body).secretSyncOptions;
    expect(options.map((o) => o.name)).toEqual(sortedByName(knownSyncDestinations.map((d) => d.label)));
    for (const d of knownSyncDestinations) {
      expect(options.find((o) => o.destination === d.destination)).toMatchObject({
        name: d.label,
        connection: d.connectionApp,
        canImportSecrets: d.canImport,
      });
    }
  });

  test("the flags of the service's list options", async () => {
    const res = await api.get(url);
    const options = SecretSyncOptionsEnvelope.parse(res.body).secretSyncOptions;
    // the wire objects, with no field the lenient schema would drop
    const of = (d: string) =>
      (res.body.secretSyncOptions as Record<string, unknown>[]).find((o) => o["destination"] === d);
    // services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-constants.ts
    expect(of("aws-secrets-manager")).toEqual({
      name: "AWS Secrets Manager",
      destination: "aws-secrets-manager",
      connection: "aws",
      canImportSecrets: true,
      canRemoveSecretsOnDeletion: true,
    });
    // services/secret-sync/github/github-sync-schemas.ts: canImportSecrets false
    expect(of("github")).toMatchObject({ connection: "github", canImportSecrets: false });
    // ee/services/secret-sync/chef/chef-sync-constants.ts, oci-vault/oci-vault-sync-constants.ts
    expect(of("chef")).toMatchObject({ enterprise: true, canImportSecrets: true });
    expect(of("oci-vault")).toMatchObject({ enterprise: true, connection: "oci" });
    expect(of("vercel")).not.toHaveProperty("enterprise");
    // services/secret-sync/azure-entra-id-scim/azure-entra-id-scim-sync-constants.ts
    expect(of("azure-entra-id-scim")).toMatchObject({
      connection: "azure-entra-id",
      canImportSecrets: false,
      canRemoveSecretsOnDeletion: false,
      supportsKeySchema: false,
      supportsDisableSecretDeletion: false,
    });
    expect(options.filter((o) => o.enterprise).map((o) => o.destination)).toEqual(["chef", "oci-vault"]);
    expect(options.find((o) => o.destination === "external-infisical")?.name).toBe(
      syncDestinations["external-infisical"].label,
    );
  });

  test("needs a token; counts as a read (readLimit)", async () => {
    expectError(await api.get(url, { token: null }), 401, "UnauthorizedError");
    await api.delete("/__admin/requests");
    await api.get(url);
    expect((await api.get("/__admin/requests")).body.requests).toMatchObject([
      { path: url, bucket: "read", status: 200 },
    ]);
  });
});

// server/routes/v1/app-connection-routers/app-connection-router.ts (`GET /options`, querystring
// projectType) and listAppConnectionOptions in services/app-connection/app-connection-fns.ts.
describe("GET /api/v1/app-connections/options", () => {
  const url = `${apiPaths.allAppConnections}/options`;
  const apps = async (projectType?: string) =>
    AppConnectionOptionsEnvelope.parse((await api.get(url, { query: { projectType } })).body).appConnectionOptions.map(
      (o) => o.app,
    );

  test("every kind, sorted by name, with its methods; the SQL kinds support platform management", async () => {
    const res = await api.get(url);
    expect(res.status).toBe(200);
    const options = AppConnectionOptionsEnvelope.parse(res.body).appConnectionOptions;
    expect(options.map((o) => o.name)).toEqual(sortedByName(kinds.map((k) => k.label)));
    for (const k of kinds) {
      const o = options.find((x) => x.app === k.app)!;
      expect(o).toMatchObject({ name: k.label, methods: Object.keys(k.methods) });
    }
    // services/app-connection/postgres/postgres-connection-schemas.ts: supportsPlatformManagement true
    expect(options.find((o) => o.app === "postgres")).toEqual({
      name: "PostgreSQL",
      app: "postgres",
      methods: ["username-and-password"],
      supportsPlatformManagement: true,
    });
    expect(options.find((o) => o.app === "vercel")).toEqual({ name: "Vercel", app: "vercel", methods: ["api-token"] });
  });

  test("projectType filters as the service does", async () => {
    const secretManager = new Set([
      ...knownSyncDestinations.map((d) => d.connectionApp),
      ...types.map((t) => t.connectionApp),
    ]);
    const sm = await apps("secret-manager");
    expect(new Set(sm)).toEqual(secretManager);
    expect(sm).not.toContain("github-radar");
    // PKI_APP_CONNECTIONS
    expect((await apps("cert-manager")).sort()).toEqual([
      "aws",
      "azure-adcs",
      "azure-key-vault",
      "chef",
      "cloudflare",
      "dns-made-easy",
    ]);
    // SECRET_SCANNING_DATA_SOURCE_CONNECTION_MAP (ee/services/secret-scanning-v2/secret-scanning-v2-maps.ts)
    expect((await apps("secret-scanning")).sort()).toEqual(["bitbucket", "github-radar", "gitlab"]);
    for (const none of ["kms", "ssh", "pam"]) expect(await apps(none)).toEqual([]);
    expect(projectTypes).toEqual(["secret-manager", "cert-manager", "kms", "ssh", "secret-scanning", "pam"]);
    // z.nativeEnum(ProjectType)
    expect422(await api.get(url, { query: { projectType: "secrets" } }), ["projectType"]);
  });
});

// ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts (`GET /options`,
// listSecretRotationOptions in ee/services/secret-rotation-v2/secret-rotation-v2-fns.ts).
describe("GET /api/v2/secret-rotations/options", () => {
  test("one option per rotation type, sorted by name, with its connection", async () => {
    const res = await api.get(`${apiPaths.allSecretRotations}/options`);
    expect(res.status).toBe(200);
    const options = SecretRotationOptionsEnvelope.parse(res.body).secretRotationOptions;
    expect(options.map((o) => o.name)).toEqual(sortedByName(types.map((t) => t.label)));
    for (const t of types) {
      expect(options.find((o) => o.type === t.type)).toEqual({
        name: t.label,
        type: t.type,
        connection: t.connectionApp,
      });
    }
    // ee/services/secret-rotation-v2/okta-client-secret/okta-client-secret-rotation-schemas.ts
    expect(options.find((o) => o.type === "okta-client-secret")).toMatchObject({
      name: "Okta Client Secret",
      connection: "okta",
    });
  });
});
