import { dynamicProvider } from "../../provider/dynamic-provider";
import { secretSyncDefinition } from "../../provider/secret-sync";
import { certificateProfileDefinition } from "../../provider/certificate-profile";
import { appConnectionSettingsDefinition } from "../../provider/app-connection-settings";
import { appConnectionDefinition } from "../../provider/app-connection";
import { hashSecrets, UNKNOWN } from "../../provider/values";
import { syncDestinations } from "../../sdk/schemas";

// check and diff need no server: they run in preview, before any API call.

const sync = dynamicProvider(secretSyncDefinition);
const profile = dynamicProvider(certificateProfileDefinition);
const settings = dynamicProvider(appConnectionSettingsDefinition);

const syncArgs = {
  destination: "vercel",
  name: "web-prod",
  projectId: "p1",
  connectionId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
  environment: "prod",
  secretPath: "/app/",
  syncOptions: { initialSyncBehavior: "overwrite-destination" },
  destinationConfig: { app: "prj", appName: "web", env: "production", teamId: "team" },
  // The program's name of the resource, as the resource class registers it (one resource here).
  __resourceName: "web-prod",
};

describe("check", () => {
  it("accepts valid args; args at what their absence means and options at their default stay out of state", async () => {
    const { inputs, failures } = await sync.check!({}, syncArgs);
    expect(failures ?? []).toEqual([]);
    expect(inputs).toMatchObject({ secretPath: "/app" });
    // The service's default (absentMeans), declared or not.
    expect(inputs).not.toHaveProperty("isAutoSyncEnabled");
    expect((await sync.check!({}, { ...syncArgs, isAutoSyncEnabled: true })).inputs).not.toHaveProperty(
      "isAutoSyncEnabled",
    );
    expect((await sync.check!({}, { ...syncArgs, isAutoSyncEnabled: false })).inputs).toMatchObject({
      isAutoSyncEnabled: false,
    });
    // Last inputs that hold it (an older release's, or a value the program stops declaring) keep
    // it: the engine shows a change by the inputs, and a preview must not show it removed.
    for (const last of [true, false]) {
      const olds = { ...inputs, isAutoSyncEnabled: last };
      expect((await sync.check!(olds, syncArgs)).inputs).toMatchObject({ isAutoSyncEnabled: true });
    }
    for (const option of ["waitForSync", "removeSecrets", "syncTimeoutSeconds", "allowDuplicateDestination"])
      expect(inputs).not.toHaveProperty(option);
    const set = await sync.check!(
      {},
      { ...syncArgs, waitForSync: false, removeSecrets: true, syncTimeoutSeconds: 300 },
    );
    expect(set.inputs).toMatchObject({ waitForSync: false, removeSecrets: true });
    expect(set.inputs).not.toHaveProperty("syncTimeoutSeconds");
  });

  it("an option turned back to its default is a change, and one left at it is none", async () => {
    // The outputs of the object made: the service reports isAutoSyncEnabled.
    const olds = { ...(await sync.check!({}, syncArgs)).inputs, isAutoSyncEnabled: true, waitForSync: false };
    const back = (await sync.check!(olds, syncArgs)).inputs;
    expect((await sync.diff!("id-1", olds, back)).changes).toBe(true);
    const same = (await sync.check!(olds, { ...syncArgs, waitForSync: false })).inputs;
    expect((await sync.diff!("id-1", olds, same)).changes).toBe(false);
    // State written by earlier releases holds the defaults: no change either.
    const older = {
      ...back,
      isAutoSyncEnabled: true,
      waitForSync: true,
      removeSecrets: false,
      syncTimeoutSeconds: 300,
    };
    expect((await sync.diff!("id-1", older, back)).changes).toBe(false);
  });

  it("names the property and the rule of every violation", async () => {
    const { failures } = await sync.check!(
      {},
      { ...syncArgs, name: "Web_Prod", environment: "x".repeat(65), connectionId: "nope" },
    );
    expect(failures).toEqual(
      expect.arrayContaining([
        {
          property: "name",
          reason:
            'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
        },
        { property: "environment", reason: "must be at most 64 characters" },
        { property: "connectionId", reason: "must be a UUID" },
      ]),
    );
  });

  it("checks limits on both sides: a 256-character sync name passes, 257 fails", async () => {
    expect((await sync.check!({}, { ...syncArgs, name: "a".repeat(256) })).failures ?? []).toEqual([]);
    expect((await sync.check!({}, { ...syncArgs, name: "a".repeat(257) })).failures).toEqual([
      { property: "name", reason: "must be at most 256 characters" },
    ]);
  });

  it("accepts values still unknown during preview and validates the rest", async () => {
    const { failures } = await sync.check!(
      {},
      { ...syncArgs, connectionId: UNKNOWN, destinationConfig: UNKNOWN, name: "BAD" },
    );
    expect(failures).toEqual([
      {
        property: "name",
        reason:
          'name field can only contain lowercase letters, numbers, and hyphens (one hyphen at a time, not at either end: "a-b", not "a--b", "-a" or "a-")',
      },
    ]);
  });

  it("reports a required nested field by its path", async () => {
    const { failures } = await sync.check!({}, { ...syncArgs, syncOptions: {} });
    expect(failures).toEqual([{ property: "syncOptions.initialSyncBehavior", reason: "is required" }]);
  });

  it("syncOptions.recursive: subfolders only with the overwrite-destination initial sync", async () => {
    const recursive = (initialSyncBehavior: string) => ({
      ...syncArgs,
      syncOptions: { initialSyncBehavior, recursive: true },
    });
    const ok = await sync.check!({}, recursive("overwrite-destination"));
    expect(ok.failures ?? []).toEqual([]);
    expect(ok.inputs.syncOptions).toEqual({ initialSyncBehavior: "overwrite-destination", recursive: true });
    expect((await sync.check!({}, recursive("import-prioritize-source"))).failures).toEqual([
      {
        property: "syncOptions.recursive",
        reason:
          "A sync that includes subfolders cannot also import existing secrets from the destination, because there is no single folder to import them into. Turn off subfolders, or set the first sync to overwrite the destination.",
      },
    ]);
  });

  it("rejects config objects that do not belong to the enrollment type, and a missing required one", async () => {
    const base = {
      projectId: "p",
      certificatePolicyId: syncArgs.connectionId,
      caId: syncArgs.connectionId,
      slug: "web",
    };
    const wrong = await profile.check!(
      {},
      { ...base, enrollmentType: "api", apiConfig: {}, estConfig: { passphrase: "x" } },
    );
    expect(wrong.failures).toEqual([{ property: "estConfig", reason: 'is not allowed with enrollmentType "api"' }]);
    const missing = await profile.check!({}, { ...base, enrollmentType: "est" });
    expect(missing.failures).toEqual([{ property: "estConfig", reason: "EST enrollment requires EST configuration" }]);
  });

  it("enforces the PATCH support matrix of the connection's kind", async () => {
    const { failures } = await settings.check!(
      {},
      { app: "auth0", connectionName: "idp", gatewayId: syncArgs.connectionId, isAutoRotationEnabled: true },
    );
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "gatewayId", reason: "Not supported for Auth0 Connections" },
        { property: "isAutoRotationEnabled", reason: "Not supported for Auth0 Connections" },
      ]),
    );
    expect(
      (await settings.check!({}, { app: "postgres", connectionName: "db", gatewayId: null })).failures ?? [],
    ).toEqual([]);
  });

  it("refuses to turn platform-managed credentials off once they were on", async () => {
    const olds = { app: "postgres", connectionName: "db", isPlatformManagedCredentials: true };
    const { failures } = await settings.check!(olds, { ...olds, isPlatformManagedCredentials: false });
    expect(failures).toEqual([
      { property: "isPlatformManagedCredentials", reason: "cannot be turned off once enabled (the switch is one-way)" },
    ]);
  });

  it("does not echo rejected secret values in failures", async () => {
    const secret = "canary-secret-value-0042";
    const { failures } = await profile.check!(
      {},
      {
        projectId: "p",
        certificatePolicyId: syncArgs.connectionId,
        slug: "web",
        issuerType: "self-signed",
        enrollmentType: "scep",
        scepConfig: { challengePassword: secret.slice(0, 5) },
      },
    );
    expect(JSON.stringify(failures)).not.toContain(secret.slice(0, 5));
  });
});

describe("diff", () => {
  const observed = {
    name: "web-prod",
    projectId: "p1",
    connectionId: syncArgs.connectionId,
    environment: "prod",
    secretPath: "/app",
    destination: "vercel",
    destinationConfig: { teamId: "team", env: "production", appName: "web", app: "prj" },
    syncOptions: { initialSyncBehavior: "overwrite-destination" },
    description: null,
    isAutoSyncEnabled: true,
  };
  const olds = {
    ...observed,
    observed,
    adoptExisting: false,
    removeSecrets: false,
    waitForSync: true,
    syncTimeoutSeconds: 300,
  };
  const news = async (over: Record<string, unknown>) => (await sync.check!({}, { ...syncArgs, ...over })).inputs;

  it("reports no change for the same args, whatever the key order and server-filled nulls", async () => {
    expect(await sync.diff!("id", olds, await news({}))).toMatchObject({ changes: false, replaces: [] });
  });

  it("replaces a resource moved to another endpoint, and only then: the object lives at one endpoint", async () => {
    const moved = { ...(await news({})), endpoint: "eu" };
    expect(await sync.diff!("id", olds, moved)).toMatchObject({ changes: true, replaces: ["endpoint"] });
    expect(await sync.diff!("id", { ...olds, endpoint: "eu" }, moved)).toMatchObject({ changes: false, replaces: [] });
    expect(await sync.diff!("id", { ...olds, endpoint: "eu" }, await news({}))).toMatchObject({
      replaces: ["endpoint"],
    });
  });

  it("reads an arg left out as what its absence means: auto-sync turned off outside is a change", async () => {
    const off = { ...olds, observed: { ...observed, isAutoSyncEnabled: false } };
    expect(await sync.diff!("id", off, await news({}))).toMatchObject({ changes: true, replaces: [] });
    expect(await sync.diff!("id", off, await news({ isAutoSyncEnabled: false }))).toMatchObject({ changes: false });
    expect(await sync.diff!("id", olds, await news({ isAutoSyncEnabled: true }))).toMatchObject({ changes: false });
  });

  it("reports an updatable change in place", async () => {
    expect(await sync.diff!("id", olds, await news({ description: "x" }))).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("replaces, deleting first, when an immutable field changes", async () => {
    expect(await sync.diff!("id", olds, await news({ projectId: "p2" }))).toEqual({
      changes: true,
      replaces: ["projectId"],
      deleteBeforeReplace: true,
    });
  });

  it("replaces when an immutable field is unknown during preview", async () => {
    const d = await sync.diff!("id", olds, { ...(await news({})), projectId: UNKNOWN });
    expect(d.replaces).toEqual(["projectId"]);
  });

  it("sees a changed secret through its hash, never the secret", async () => {
    const args = { estConfig: { passphrase: "first", disableBootstrapCaValidation: false } };
    const profileObserved = { estConfig: { disableBootstrapCaValidation: false } };
    const profileOlds = {
      ...profileObserved,
      observed: profileObserved,
      secretHashes: hashSecrets(args, ["estConfig.passphrase"]),
      adoptExisting: false,
    };
    expect(JSON.stringify(profileOlds)).not.toContain("first");
    expect((await profile.diff!("id", profileOlds, { ...args, adoptExisting: false })).changes).toBe(false);
    const changed = { estConfig: { passphrase: "second", disableBootstrapCaValidation: false }, adoptExisting: false };
    expect((await profile.diff!("id", profileOlds, changed)).changes).toBe(true);
  });

  it("reads state of earlier releases without the config object (a write's answer had none) as at its defaults", async () => {
    // What a release that read the config from the create's answer stored, against today's service
    // (docs/service-api.md §4): the config's id, no config.
    const declared = {
      projectId: "p1",
      certificatePolicyId: "7f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
      caId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
      slug: "web-servers",
      enrollmentType: "est",
      estConfig: { passphrase: "first" },
    };
    const checked = async (over: Record<string, unknown>) => {
      const r = await profile.check!({}, { ...declared, ...over });
      expect(r.failures ?? []).toEqual([]);
      return r.inputs;
    };
    const { estConfig: _none, ...recorded } = { ...declared, issuerType: "ca" };
    const olderOlds = {
      ...recorded,
      estConfigId: "8f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
      secretHashes: hashSecrets(declared, ["estConfig.passphrase"]),
      adoptExisting: false,
    };
    expect((await profile.diff!("id", olderOlds, await checked({}))).changes).toBe(false);
    // A field the program sets away from its default is sent (once: the write records the config).
    const away = await checked({ estConfig: { passphrase: "first", disableBootstrapCaValidation: true } });
    expect((await profile.diff!("id", olderOlds, away)).changes).toBe(true);
    // A config the state holds is what is compared, and one with no id is none.
    const held = { ...olderOlds, estConfig: { disableBootstrapCaValidation: true } };
    expect((await profile.diff!("id", held, away)).changes).toBe(false);
    expect((await profile.diff!("id", held, await checked({}))).changes).toBe(true);
    const noId = { ...olderOlds, estConfigId: null };
    expect((await profile.diff!("id", noId, await checked({}))).changes).toBe(true);
  });

  it("counts dropping adoptExisting, which acts only on create, as no change", async () => {
    expect(await sync.diff!("id", { ...olds, adoptExisting: true }, await news({}))).toMatchObject({
      changes: false,
      replaces: [],
    });
  });

  it("counts a provider-only option change as a change without replacement", async () => {
    expect(await sync.diff!("id", olds, await news({ removeSecrets: true }))).toMatchObject({
      changes: true,
      replaces: [],
    });
  });
});

describe("one sync per destination in a program (the provider process sees every check)", () => {
  const at = (resource: string, app: string, over: Record<string, unknown> = {}) => ({
    ...syncArgs,
    name: resource,
    __resourceName: resource,
    destinationConfig: { app, appName: `${resource} label`, env: "production", teamId: "team" },
    ...over,
  });

  it("refuses a second resource to the same place, labels aside, naming both; never stores the name", async () => {
    const first = await sync.check!({}, at("one-a", "prj_one"));
    expect(first.failures ?? []).toEqual([]);
    expect(first.inputs).not.toHaveProperty("__resourceName");
    expect((await sync.check!({}, at("one-b", "prj_one"))).failures).toEqual([
      {
        property: "",
        reason:
          'destinationConfig: SecretSync "one-b" and SecretSync "one-a" of this program both sync to this destination through the same connection, and two syncs would overwrite each other\'s secrets; point one of them elsewhere or set allowDuplicateDestination: true on it',
      },
    ]);
    // The holder's own check again is no conflict; another place, or the opt-out, is none either.
    expect((await sync.check!({}, at("one-a", "prj_one"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("one-b", "prj_one_b"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("one-c", "prj_one", { allowDuplicateDestination: true }))).failures ?? []).toEqual(
      [],
    );
  });

  it("leaves the same config through another connection to the service's check (its rule weighs the connection)", async () => {
    // services/secret-sync/secret-sync-service.ts (checkDuplicateDestination): the newest service
    // hands both syncs' connections to the destination's own duplicate function, which decrypts
    // them; only the service can tell two AWS accounts apart. One connection is one account.
    expect((await sync.check!({}, at("acct-a", "prj_acct"))).failures ?? []).toEqual([]);
    const otherConnection = { connectionId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a99" };
    expect((await sync.check!({}, at("acct-b", "prj_acct", otherConnection))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("acct-c", "prj_acct", { connectionId: UNKNOWN }))).failures ?? []).toEqual([]);
  });

  it("follows the service's own rule of a destination: a GitLab environment '*' overlaps every named one", async () => {
    // services/secret-sync/secret-sync-maps.ts, DESTINATION_DUPLICATE_CHECK_MAP[GitLab]: the same
    // project, and the same targetEnvironment or either one every environment ("*", "" or absent).
    const gitlab = (resource: string, projectId: string, targetEnvironment: string) => ({
      ...syncArgs,
      name: resource,
      __resourceName: resource,
      destination: "gitlab",
      syncOptions: { initialSyncBehavior: "overwrite-destination" },
      destinationConfig: { scope: "project", projectId, projectName: `${resource} label`, targetEnvironment },
    });
    expect((await sync.check!({}, gitlab("gl-prod", "77", "production"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, gitlab("gl-staging", "77", "staging"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, gitlab("gl-elsewhere", "78", "*"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, gitlab("gl-all", "77", "*"))).failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^destinationConfig: SecretSync "gl-all" and SecretSync "gl-(prod|staging)"/),
      },
    ]);
  });

  it("frees a place when its holder moves elsewhere, and skips a config still unknown", async () => {
    expect((await sync.check!({}, at("two-a", "prj_two"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("two-a", "prj_two_moved"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("two-b", "prj_two"))).failures ?? []).toEqual([]);
    expect((await sync.check!({}, at("two-c", "prj_two", { destinationConfig: UNKNOWN }))).failures ?? []).toEqual([]);
  });
});

describe("secret revisions (a preview shows which secret changed)", () => {
  const est = {
    projectId: "p1",
    certificatePolicyId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a10",
    caId: "6f1c7a52-2b0e-4c55-9d9a-3f0c1f6e2a11",
    slug: "devices",
    enrollmentType: "est",
    estConfig: { disableBootstrapCaValidation: true, passphrase: "first-passphrase" },
  };
  const revisions = async (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    (await profile.check!(olds, news)).inputs?.secretRevisions;

  it("starts at 1, keeps it while the value stays, raises it when the value changes", async () => {
    const first = (await profile.check!({}, est)).inputs!;
    expect(first.secretRevisions).toEqual({ "estConfig.passphrase": 1 });
    expect(await revisions(first, est)).toEqual({ "estConfig.passphrase": 1 });
    const changed = { ...est, estConfig: { ...est.estConfig, passphrase: "second-passphrase" } };
    expect(await revisions(first, changed)).toEqual({ "estConfig.passphrase": 2 });
  });

  it("keeps it when the last inputs hold no value to compare with (after a refresh)", async () => {
    const refreshed = {
      ...est,
      estConfig: { disableBootstrapCaValidation: true },
      secretRevisions: { "estConfig.passphrase": 4 },
    };
    expect(await revisions(refreshed, est)).toEqual({ "estConfig.passphrase": 4 });
  });

  it("raises to 1 a revision a refresh marked as changed outside the program (0), so the preview shows it", async () => {
    const refreshed = {
      ...est,
      estConfig: { disableBootstrapCaValidation: true },
      secretRevisions: { "estConfig.passphrase": 0 },
    };
    expect(await revisions(refreshed, est)).toEqual({ "estConfig.passphrase": 1 });
  });
});

describe("destinations", () => {
  /** Vercel's `destinationConfig` fields, as its row declares them. */
  const vercelConfigFields = Object.keys(syncDestinations.vercel.destinationConfig.shape).join(", ");

  it("GenericSecretSync passes a destination's own config and sync options through, with the common rules", async () => {
    const args = {
      ...syncArgs,
      destination: "newer-than-this-package",
      destinationConfig: { region: "us-east-1", mappingBehavior: "one-to-one" },
      syncOptions: { initialSyncBehavior: "overwrite-destination", syncSecretMetadataAsTags: true },
      // What the GenericSecretSync class adds to its args.
      untypedDestination: true,
    };
    const { inputs, failures } = await sync.check!({}, args);
    expect(failures ?? []).toEqual([]);
    expect(inputs).toMatchObject({ destinationConfig: args.destinationConfig, syncOptions: args.syncOptions });
    const bad = await sync.check!({}, { ...args, name: "Bad Name", syncOptions: {} });
    expect(bad.failures?.map((f) => f.property).sort()).toEqual(["name", "syncOptions.initialSyncBehavior"]);
  });

  it("GenericSecretSync passes a field newer than the package through for a destination it types too", async () => {
    const newer = {
      ...syncArgs,
      destinationConfig: { ...syncArgs.destinationConfig, edgesFutureField: "x" },
      syncOptions: { initialSyncBehavior: "overwrite-destination", edgesFutureOption: true },
    };
    const generic = await sync.check!({}, { ...newer, untypedDestination: true });
    expect(generic.failures ?? []).toEqual([]);
    expect(generic.inputs).toMatchObject({
      destinationConfig: newer.destinationConfig,
      syncOptions: newer.syncOptions,
    });
    // SecretSync stays strict: the same fields are refused there, naming them.
    const typed = await sync.check!({}, newer);
    expect(typed.failures?.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      expect.stringMatching(/^syncOptions: unknown field "edgesFutureOption"/),
      expect.stringMatching(/^destinationConfig: unknown field "edgesFutureField"/),
    ]);
  });

  it("SecretSync refuses a destination it does not type, naming the nearest slug and the escape hatch", async () => {
    const { failures } = await sync.check!({}, { ...syncArgs, destination: "vercell" });
    expect(failures).toEqual([
      {
        property: "destination",
        reason: expect.stringMatching(
          /^unknown destination "vercell" \(did you mean "vercel"\?\); the \d+ this package types are .*GenericSecretSync/,
        ),
      },
    ]);
  });

  it("refuses a field of another kind in destinationConfig and syncOptions, naming it, instead of dropping it", async () => {
    const { failures } = await sync.check!(
      {},
      {
        ...syncArgs,
        destinationConfig: { ...syncArgs.destinationConfig, vaultBaseUrl: "https://v.vault.azure.net" },
        syncOptions: { ...syncArgs.syncOptions, disableCertificateImport: true },
      },
    );
    expect(failures).toEqual([
      {
        property: "syncOptions",
        reason: expect.stringMatching(/^unknown field "disableCertificateImport"; the fields here are /),
      },
      {
        property: "destinationConfig",
        reason: `unknown field "vaultBaseUrl"; the fields here are ${vercelConfigFields}`,
      },
    ]);
    const typo = await sync.check!(
      {},
      { ...syncArgs, destinationConfig: { ...syncArgs.destinationConfig, tamId: "t" } },
    );
    expect(typo.failures).toEqual([
      {
        property: "destinationConfig",
        reason: expect.stringMatching(/^unknown field "tamId" \(did you mean "teamId"\?\); /),
      },
    ]);
    // A TypeScript program names fields as the schemas do, whatever the key's spelling (the native
    // provider suggests snake_case for a Python dict's key: tests/provider/native-provider.test.ts).
    const snake = await sync.check!(
      {},
      { ...syncArgs, destinationConfig: { ...syncArgs.destinationConfig, team_idd: "t" } },
    );
    expect(snake.failures).toEqual([
      {
        property: "destinationConfig",
        reason: `unknown field "team_idd" (did you mean "teamId"?); the fields here are ${vercelConfigFields}`,
      },
    ]);
  });

  it("refuses an arg no sync has (an endpoint's settings are not args)", async () => {
    const { failures } = await sync.check!({}, { ...syncArgs, apiUrl: "https://example.com", token: "t" });
    expect(failures).toEqual([
      { property: "", reason: expect.stringMatching(/^unknown fields "apiUrl", "token"; the fields here are name, /) },
    ]);
  });
});

describe("AppConnection", () => {
  const connection = dynamicProvider(appConnectionDefinition);
  const pg = {
    app: "postgres",
    name: "db",
    method: "username-and-password",
    credentials: {
      host: "db.internal",
      port: 5432,
      database: "app",
      username: "admin",
      password: "canary-connection-password-1",
      sslEnabled: true,
      sslRejectUnauthorized: true,
    },
    __resourceName: "db",
  };

  it("accepts one method's create body and fills the service's defaults", async () => {
    const { inputs, failures } = await connection.check!({}, pg);
    expect(failures ?? []).toEqual([]);
    expect(inputs).toMatchObject({ app: "postgres", isPlatformManagedCredentials: false });
  });

  it("refuses a method the kind lacks, a credential of another method, and an unknown kind, naming each", async () => {
    expect((await connection.check!({}, { ...pg, method: "api-key" })).failures).toEqual([
      { property: "app", reason: expect.stringMatching(/^method: unknown PostgreSQL connection method "api-key"/) },
    ]);
    const other = await connection.check!({}, { ...pg, credentials: { ...pg.credentials, apiKey: "k" } });
    expect(other.failures).toEqual([
      { property: "credentials", reason: expect.stringMatching(/^unknown field "apiKey"; the fields here are host, /) },
    ]);
    expect((await connection.check!({}, { ...pg, app: "postgress" })).failures).toEqual([
      {
        property: "app",
        reason: expect.stringMatching(/^unknown connection kind "postgress" \(did you mean "postgres"\?\)/),
      },
    ]);
  });

  it("updates name, description and credentials in place; replaces on app, method or projectId", async () => {
    const observed = {
      app: "postgres",
      name: "db",
      description: null,
      method: "username-and-password",
      credentials: { ...pg.credentials, password: undefined },
      isPlatformManagedCredentials: false,
    };
    const olds = { ...observed, observed, adoptExisting: false };
    const news = async (over: Record<string, unknown>) => (await connection.check!({}, { ...pg, ...over })).inputs;
    expect(await connection.diff!("id", olds, await news({ name: "db2" }))).toMatchObject({ replaces: [] });
    expect(await connection.diff!("id", olds, await news({ projectId: "p2" }))).toMatchObject({
      replaces: ["projectId"],
    });
  });
});
