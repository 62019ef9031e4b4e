import type { AppConnectionApp, RotationTypeSlug, SyncDestinationSlug } from "../../sdk";
import { engineEnv, EngineEnv, FixtureSummary, LifecycleSpec, lifecycleTests } from "./lifecycle";

// Each resource family through the whole lifecycle, under the real engine against the emulator.
jest.setTimeout(15 * 60_000);

const CANARY_PASSPHRASE = "canary-est-passphrase-5f1d0c";
const CANARY_PASSWORD = "canary-db-password-9b27e4";

function project(f: FixtureSummary, i = 0) {
  return f.projects[i]!;
}
/** A connection of the kind that the token's identity can use (org-scoped, or in the project). */
function connection(f: FixtureSummary, app: string, projectId?: string) {
  const c = f.connections.find((x) => x.app === app && (!x.projectId || x.projectId === projectId));
  if (!c) throw new Error(`fixture has no ${app} connection`);
  return c;
}
const orUndefined = <T>(p: Promise<T>) => p.catch((e) => (e.status === 404 ? undefined : Promise.reject(e)));

const families: LifecycleSpec[] = [
  {
    kind: "SecretSync",
    args: (f: FixtureSummary) => {
      const p = project(f);
      return {
        destination: "vercel",
        name: "web-prod",
        projectId: p.id,
        connectionId: connection(f, "vercel", p.id).id,
        environment: p.environments[0],
        secretPath: "/",
        syncOptions: { initialSyncBehavior: "overwrite-destination" },
        destinationConfig: { app: "prj_web", appName: "web", env: "production", teamId: "team_1" },
      };
    },
    update: {
      args: (a: Record<string, unknown>) => ({ ...a, description: "managed by pulumi" }),
      applied: (r: Record<string, unknown>) => r.description === "managed by pulumi",
    },
    replace: (a: Record<string, unknown>, f: FixtureSummary) => ({
      ...a,
      destination: "azure-key-vault",
      connectionId: connection(f, "azure-key-vault", a.projectId as string).id,
      destinationConfig: { vaultBaseUrl: "https://web-prod.vault.azure.net" },
    }),
    get: (c, id, a) => orUndefined(c.secretSyncs.get(a.destination as never, id)),
    drift: {
      apply: async (c, id, a) =>
        void (await c.secretSyncs.update(a.destination as SyncDestinationSlug, id, { isAutoSyncEnabled: false })),
      present: (r: Record<string, unknown>) => r.isAutoSyncEnabled === false,
    },
  },
  {
    kind: "SecretRotation",
    args: (f: FixtureSummary) => {
      const p = project(f);
      return {
        type: "postgres-credentials",
        name: "app-db",
        projectId: p.id,
        connectionId: connection(f, "postgres", p.id).id,
        environment: p.environments[0],
        secretPath: "/",
        rotationInterval: 30,
        parameters: { username1: "app_a", username2: "app_b" },
        secretsMapping: { username: "DB_USER", password: "DB_PASSWORD" },
      };
    },
    update: {
      args: (a: Record<string, unknown>) => ({ ...a, rotationInterval: 7 }),
      applied: (r: Record<string, unknown>) => r.rotationInterval === 7,
    },
    replace: (a: Record<string, unknown>, f: FixtureSummary) => ({ ...a, environment: project(f).environments[1] }),
    get: (c, id, a) => orUndefined(c.secretRotations.get(a.type as never, id)),
    drift: {
      apply: async (c, id, a) =>
        void (await c.secretRotations.update(a.type as RotationTypeSlug, id, {
          rotateAtUtc: { hours: 3, minutes: 30 },
        })),
      present: (r: Record<string, unknown>) => (r.rotateAtUtc as { hours: number }).hours === 3,
    },
  },
  {
    kind: "CertificateProfile",
    args: (f: FixtureSummary) => {
      const policy = f.certificatePolicies[0]!;
      return {
        projectId: policy.projectId,
        certificatePolicyId: policy.id,
        caId: f.certificateAuthorities.find((ca) => ca.projectId === policy.projectId)!.id,
        slug: "web-servers",
        enrollmentType: "est",
        estConfig: { disableBootstrapCaValidation: false },
        defaults: { ttlDays: 90, keyAlgorithm: "RSA_2048", keyUsages: ["digital_signature"] },
      };
    },
    update: {
      args: (a: Record<string, unknown>) => ({
        ...a,
        defaults: { ttlDays: 30, keyAlgorithm: "RSA_2048", keyUsages: ["digital_signature"] },
      }),
      applied: (r: Record<string, unknown>) => (r.defaults as { ttlDays: number }).ttlDays === 30,
    },
    replace: (a: Record<string, unknown>, f: FixtureSummary) => ({
      ...a,
      caId: f.certificateAuthorities.filter((ca) => ca.projectId === a.projectId)[1]!.id,
    }),
    get: (c, id) => orUndefined(c.certificateProfiles.get(id)),
    drift: {
      apply: async (c, id) => void (await c.certificateProfiles.update(id, { description: "edited in the web UI" })),
      present: (r: Record<string, unknown>) => r.description === "edited in the web UI",
    },
    secrets: { estConfig: { passphrase: CANARY_PASSPHRASE } },
  },
  {
    kind: "AppConnection",
    args: (f: FixtureSummary) => ({
      app: "postgres",
      name: "made-in-code",
      projectId: f.projects[0]!.id,
      description: "made by pulumi",
      method: "username-and-password",
      credentials: {
        host: "db.internal",
        port: 5432,
        database: "app",
        username: "admin",
        sslEnabled: true,
        sslRejectUnauthorized: true,
      },
    }),
    update: {
      args: (a: Record<string, unknown>) => ({ ...a, name: "made-in-code-renamed", description: "renamed" }),
      applied: (r: Record<string, unknown>) => r.name === "made-in-code-renamed" && r.description === "renamed",
    },
    // Another kind is another connection.
    replace: (a: Record<string, unknown>) => ({ ...a, app: "mysql" }),
    get: (c, id, a) => orUndefined(c.appConnections.get(a.app as never, id)),
    drift: {
      apply: async (c, id, a) =>
        void (await c.appConnections.update(a.app as AppConnectionApp, id, { description: "edited by hand" })),
      present: (r: Record<string, unknown>) => r.description === "edited by hand",
    },
    secrets: { credentials: { password: CANARY_PASSWORD } },
  },
  {
    kind: "AppConnectionSettings",
    args: (f: FixtureSummary) => ({
      app: "postgres",
      connectionId: connection(f, "postgres").id,
      description: "managed by pulumi",
      credentials: {
        host: "db.internal",
        port: 5432,
        database: "app",
        username: "admin",
        sslEnabled: true,
        sslRejectUnauthorized: true,
      },
    }),
    update: {
      args: (a: Record<string, unknown>) => ({ ...a, description: "still managed by pulumi" }),
      applied: (r: Record<string, unknown>) => r.description === "still managed by pulumi",
    },
    replace: (a: Record<string, unknown>, f: FixtureSummary) => ({
      ...a,
      app: "mysql",
      connectionId: connection(f, "mysql").id,
    }),
    get: (c, id, a) => orUndefined(c.appConnections.get(a.app as never, id)),
    drift: {
      apply: async (c, id, a) =>
        void (await c.appConnections.update(a.app as AppConnectionApp, id, { description: "edited by hand" })),
      present: (r: Record<string, unknown>) => r.description === "edited by hand",
    },
    secrets: { credentials: { password: CANARY_PASSWORD } },
    managesExisting: true,
  },
];

describe("every resource family under the real engine, in one stack", () => {
  let env: EngineEnv;
  beforeAll(async () => {
    env = await engineEnv();
  });
  afterAll(async () => {
    await env?.dispose();
  });
  lifecycleTests(families, () => env);
});
