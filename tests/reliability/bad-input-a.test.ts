import { changeCounts } from "../engine/harness";
import { EngineEnv } from "../engine/lifecycle";
import {
  CONNECTIONS,
  LONG_ENV,
  POLICY,
  PROJECT,
  PKI_PROJECT,
  CA,
  auditCases,
  badInputEnv,
  badInputTests,
  connArgs,
  previewOutcome,
  profileArgs,
  rotationArgs,
  rotationCases,
  syncArgs,
  syncCases,
} from "./bad-input-cases";

// Bad input, first half: secret syncs, secret rotations, an audit-log query; then the values just inside every limit of docs/api-spec.md §8,
// declared together and applied. See bad-input-cases.ts.
jest.setTimeout(180_000);

const long = (n: number, c = "a") => c.repeat(n);
/** 64 characters: the longest connection name (docs/api-spec.md §8). */
const LONG_CONNECTION_NAME = `pg-${long(61, "n")}`;

/** Every value at (or just inside) a limit of docs/api-spec.md §8, in one program. */
const boundaries = [
  {
    kind: "SecretSync",
    name: "bound-sync-max",
    args: syncArgs({
      name: long(256, "s"),
      description: long(256, "é"),
      environment: LONG_ENV,
      secretPath: "/app",
      syncOptions: {
        initialSyncBehavior: "overwrite-destination",
        keySchema: `{{secretKey}}${long(242, "K")}`,
      },
      destinationConfig: { app: "prj-bound", appName: "bound", env: "production", teamId: "team" },
    }),
  },
  {
    kind: "SecretSync",
    name: "bound-sync-min",
    args: syncArgs({
      name: "s",
      secretPath: "/",
      destination: "azure-app-configuration",
      connectionId: CONNECTIONS["azure-app-configuration"],
      destinationConfig: { configurationUrl: "https://bound.azconfig.io" },
    }),
  },
  {
    kind: "SecretRotation",
    name: "bound-rotation-max",
    args: rotationArgs({
      name: long(64, "r"),
      description: long(256, "ü"),
      environment: LONG_ENV,
      secretPath: "/app",
      rotationInterval: 1,
      rotateAtUtc: { hours: 23, minutes: 59 },
      parameters: {
        username1: "u1",
        username2: "u2",
        // length 250, the required counts adding up to exactly that.
        passwordRequirements: { length: 250, required: { digits: 100, lowercase: 100, uppercase: 50, symbols: 0 } },
      },
      secretsMapping: { username: "BOUND_MAX_USER", password: "BOUND_MAX_PASSWORD" },
    }),
  },
  {
    kind: "SecretRotation",
    name: "bound-rotation-min",
    args: rotationArgs({
      name: "r",
      rotationInterval: 1,
      rotateAtUtc: { hours: 0, minutes: 0 },
      secretsMapping: { username: "BOUND_MIN_USER", password: "BOUND_MIN_PASSWORD" },
    }),
  },
  {
    kind: "CertificateProfile",
    name: "bound-profile-max",
    args: profileArgs({
      slug: long(255, "p"),
      description: long(1000, "d"),
      apiConfig: { autoRenew: true, renewBeforeDays: 30 },
      defaults: { ttlDays: 1 },
    }),
  },
  {
    kind: "CertificateProfile",
    name: "bound-profile-min",
    args: profileArgs({ slug: "p", apiConfig: { autoRenew: true, renewBeforeDays: 1 } }),
  },
  {
    kind: "CertificateProfile",
    name: "bound-profile-scep",
    args: {
      projectId: PKI_PROJECT,
      certificatePolicyId: POLICY,
      caId: CA,
      slug: "bound-scep",
      enrollmentType: "scep",
      scepConfig: { includeCaCertInResponse: true },
      secretFieldsFrom: ["scepConfig"],
    },
  },
  {
    kind: "CertificateProfile",
    name: "bound-profile-est",
    args: {
      projectId: PKI_PROJECT,
      certificatePolicyId: POLICY,
      caId: CA,
      slug: "bound-est",
      enrollmentType: "est",
      estConfig: { disableBootstrapCaValidation: false },
      secretFieldsFrom: ["estConfig"],
    },
  },
  {
    kind: "AppConnectionSettings",
    name: "bound-conn-name",
    args: { app: "postgres", connectionName: LONG_CONNECTION_NAME, description: long(256, "c") },
  },
  {
    kind: "AppConnectionSettings",
    name: "bound-conn-azure",
    args: connArgs("azure-client-secrets", {
      isPlatformManagedCredentials: false,
      gatewayId: null,
      isAutoRotationEnabled: true,
      rotation: { rotationInterval: 365 },
    }),
  },
  {
    kind: "AppConnectionSettings",
    name: "bound-conn-venafi",
    args: connArgs("venafi", { credentials: { apiKey: long(256, "k"), region: "ca" } }),
  },
  {
    kind: "AppConnectionSettings",
    name: "bound-conn-bitbucket",
    args: connArgs("bitbucket", { credentials: { apiToken: long(255, "t"), email: "ops@example.com" } }),
  },
];

describe("bad input fails at preview, naming field and rule, with no API call (syncs, rotations, audit query)", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await badInputEnv();
  }, 180_000);
  afterAll(async () => {
    await env?.dispose();
  }, 180_000);

  badInputTests([...syncCases, ...rotationCases, ...auditCases], () => env, {
    prefix: "a",
    mergeUpTo: 6,
  });

  it(`values just inside every limit (${boundaries.length} resources and an audit query of limit 1000) preview clean and apply`, async () => {
    // The longest connection name is given to the fixture's connection through the API.
    await env.client.appConnections.update("postgres", CONNECTIONS.postgres, { name: LONG_CONNECTION_NAME });
    await env.t.stack.setConfig("resources:auditQuery", { value: JSON.stringify({ limit: 1000 }) });
    try {
      const preview = await previewOutcome(env, boundaries);
      expect(preview.text).toBe("preview passed");
      expect(preview.requests.filter((r) => !r.path.includes("audit-logs"))).toEqual([]);

      const up = await env.t.stack.up();
      expect(changeCounts(up.summary.resourceChanges).create).toBe(boundaries.length + 1);
      const syncs = await env.client.secretSyncs.list("vercel", PROJECT);
      expect(syncs.find((s) => s.name === long(256, "s"))?.environment?.slug).toBe(LONG_ENV);
      const rotations = await env.client.secretRotations.list("postgres-credentials", PROJECT);
      expect(rotations.find((r) => r.name === long(64, "r"))?.rotationInterval).toBe(1);
      const profile = await env.client.certificateProfiles.getBySlug(long(255, "p"), PKI_PROJECT);
      expect(profile.description).toHaveLength(1000);
      const azure = await env.client.appConnections.get("azure-client-secrets", CONNECTIONS["azure-client-secrets"]);
      expect(azure.rotation?.rotationInterval).toBe(365);

      await env.declare([]);
      const destroy = await env.t.stack.up();
      expect(changeCounts(destroy.summary.resourceChanges).delete).toBe(boundaries.length);
    } finally {
      await env.t.stack.removeConfig("resources:auditQuery");
    }
  });
});
