import type { FastifyInstance } from "fastify";
import {
  type AppConnectionKind,
  type AppConnectionOption,
  type ProjectType,
  type RotationType,
  type SecretRotationOption,
  type SecretSyncOption,
  appConnectionKinds,
  appConnectionOptionOperations,
  knownSyncDestinations,
  rotationTypes,
  secretRotationOptionOperations,
  secretSyncOptionOperations,
} from "../../sdk/schemas";
import { route } from "../route-registration";

/**
 * The three options routes: which destinations, connection kinds and rotation types the service
 * offers, each derived from its kind table (docs/service-api.md §15). They take no project and
 * are not audited, as the service's are not; any token may read them. Sorted by name, as the
 * service's `list…Options` sort with `localeCompare`.
 */
export function registerOptionsRoutes(app: FastifyInstance): void {
  route(app, secretSyncOptionOperations.list, async () => ({ secretSyncOptions: byName(syncOptions) }));
  route(app, secretRotationOptionOperations.list, async () => ({ secretRotationOptions: byName(rotationOptions) }));
  route(app, appConnectionOptionOperations.list, async (req) => ({
    appConnectionOptions: byName(kinds.filter((k) => listedFor(k, req.query.projectType)).map(connectionOption)),
  }));
}

const kinds = Object.values(appConnectionKinds) as AppConnectionKind[];
const types = Object.values(rotationTypes) as RotationType[];

const byName = <T extends { name: string }>(options: readonly T[]): T[] =>
  [...options].sort((a, b) => a.name.localeCompare(b.name));

/**
 * A destination's list option (its `*_SYNC_LIST_OPTION`, services/secret-sync/<destination>/): the
 * flags newer servers send for every destination, the others only where the row sets them.
 */
const syncOptions: SecretSyncOption[] = knownSyncDestinations.map((d) => ({
  name: d.label,
  destination: d.destination,
  connection: d.connectionApp,
  canImportSecrets: d.canImport,
  canRemoveSecretsOnDeletion: d.canRemoveSecretsOnDeletion ?? true,
  ...(d.supportsKeySchema === false && { supportsKeySchema: false }),
  ...(d.supportsDisableSecretDeletion === false && { supportsDisableSecretDeletion: false }),
  ...(d.enterprise && { enterprise: true }),
}));

/**
 * A type's list option. The service also sends a `template` (what its UI pre-fills: default
 * secret names, the SQL types' statements), which the rows do not hold; it is left out.
 */
const rotationOptions: SecretRotationOption[] = types.map((t) => ({
  name: t.label,
  type: t.type,
  connection: t.connectionApp,
}));

/**
 * A kind's list option (its `get…ConnectionListItem`). What a server configures for itself
 * (the OAuth kinds' `oauthClientId`, the GitHub App's slug) is unset here, as on a server
 * without that configuration.
 */
function connectionOption(k: AppConnectionKind): AppConnectionOption {
  return {
    name: k.label,
    app: k.app,
    methods: Object.keys(k.methods),
    ...(k.patchSupport.isPlatformManagedCredentials === "one-way" && { supportsPlatformManagement: true }),
  };
}

/** The kinds a sync destination or a rotation type uses: what a secret-manager project can use. */
const secretManagerApps = new Set<string>([
  ...knownSyncDestinations.map((d) => d.connectionApp),
  ...types.map((t) => t.connectionApp),
]);

/** The service's filter on `projectType` (`listAppConnectionOptions`, services/app-connection/app-connection-fns.ts). */
function listedFor(k: AppConnectionKind, projectType: ProjectType | undefined): boolean {
  switch (projectType) {
    case undefined:
      return true;
    case "secret-manager":
      return secretManagerApps.has(k.app);
    case "cert-manager":
    case "secret-scanning":
      return k.listedForProjectTypes?.includes(projectType) ?? false;
    default:
      // kms, ssh, pam: no connection kind
      return false;
  }
}
