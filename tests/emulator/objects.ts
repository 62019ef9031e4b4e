import {
  GeneratedCredentialsResponseSchema,
  SecretRotationEnvelope,
  SecretSyncEnvelope,
  apiPaths,
  computeNextRotationAt,
  type KnownSyncDestination,
  type RotationType,
  type SecretRotation,
  type SecretSync,
} from "../../sdk/schemas";
import { FX, uniq, type Api } from "./helpers";

/**
 * Syncs and rotations made over HTTP from a row's example, for the emulator's rule tests
 * (tests/emulator) and its per-kind tier (tests/kinds). `api` is read at each call: a file's
 * emulator starts in its `beforeAll`.
 */

/** What the service answers a trigger while the sync's last job still runs. */
export const LOCKED = "A job for this sync is already in progress. Please try again shortly.";

export function syncObjects(api: () => Api) {
  const base = (d: string) => apiPaths.secretSyncs(d);
  const syncBody = (dest: KnownSyncDestination, extra: Record<string, unknown> = {}) => ({
    name: uniq("sync"),
    projectId: FX.projectId,
    connectionId: FX.connection(dest.connectionApp).id,
    environment: "dev",
    secretPath: "/app",
    syncOptions: {
      initialSyncBehavior: "overwrite-destination",
      keySchema: "APP_{{secretKey}}",
      disableSecretDeletion: false,
    },
    destinationConfig: dest.example.destinationConfig,
    ...extra,
  });
  const createSync = async (dest: KnownSyncDestination, extra: Record<string, unknown> = {}): Promise<SecretSync> => {
    const res = await api().post(base(dest.destination), syncBody(dest, extra));
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return SecretSyncEnvelope.parse(res.body).secretSync;
  };
  const get = async (dest: string, id: string) =>
    SecretSyncEnvelope.parse((await api().get(`${base(dest)}/${id}`)).body).secretSync;
  const settled = (s: SecretSync, field: "syncStatus" | "importStatus" | "removeStatus") =>
    s[field] === "succeeded" || s[field] === "failed";
  return { base, syncBody, createSync, get, settled };
}

export function rotationObjects(api: () => Api) {
  const base = (t: string) => apiPaths.secretRotations(t);
  /** Fresh, unique secret names for a type's mapping. */
  const mappingFor = (t: RotationType): Record<string, string> => {
    const tag = uniq("S").toUpperCase().replace(/-/g, "_");
    return Object.fromEntries(Object.keys(t.secretsMapping.shape).map((k) => [k, `${tag}_${k.toUpperCase()}`]));
  };
  const body = (t: RotationType, extra: Record<string, unknown> = {}) => ({
    name: uniq("rot"),
    projectId: FX.projectId,
    connectionId: FX.connection(t.connectionApp).id,
    environment: "dev",
    secretPath: "/app",
    rotationInterval: 30,
    parameters: t.example.parameters,
    secretsMapping: mappingFor(t),
    ...extra,
  });
  const create = async (t: RotationType, extra: Record<string, unknown> = {}): Promise<SecretRotation> => {
    const res = await api().post(base(t.type), body(t, extra));
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return SecretRotationEnvelope.parse(res.body).secretRotation;
  };
  const credentials = async (t: string, id: string) =>
    GeneratedCredentialsResponseSchema.parse((await api().get(`${base(t)}/${id}/generated-credentials`)).body);
  const expectedNext = (r: SecretRotation) =>
    computeNextRotationAt(new Date(r.lastRotatedAt!), r.rotationInterval, r.rotateAtUtc!, {
      isAutoRotationEnabled: r.isAutoRotationEnabled,
    })?.toISOString() ?? null;
  return { base, mappingFor, body, create, credentials, expectedNext };
}
