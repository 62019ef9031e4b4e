import * as pulumi from "@pulumi/pulumi";
import { AppConnectionSettings } from "secretops-pulumi";

/**
 * App-connection settings: app connections are usually created once by an administrator (in the
 * console, with an OAuth consent or a first password). This program takes over the settings
 * that change afterwards. Each resource finds an existing connection by name (or by id, with
 * `connectionId`) and manages only the fields it sets; `pulumi destroy` releases management and
 * leaves the connection exactly as it is.
 *
 *  - Auth0: its description;
 *  - PostgreSQL: new credentials with the password from secret config, connected directly rather
 *    than through a gateway;
 *  - LDAP: reached through a gateway in the private network (`gatewayId`, when set);
 *  - Azure client secrets: the connection's own credentials rotated every 60 days.
 *
 * The connections and the gateway are made outside any program, so this one takes them from
 * config. The names default to those of the emulator's default fixture (`npm run emulator --
 * --json` prints them); a gateway is a process deployed in the network, registered by its own
 * install, and has no default: without `gatewayId` the LDAP connection's gateway is left as it is.
 * The PostgreSQL password has no default; set it before the first `pulumi up`:
 *   pulumi config set --secret postgresPassword <password>
 * Against your own service, also set the names and the gateway:
 *   pulumi config set postgresConnectionName <name>   (and auth0ConnectionName, ldapConnectionName, azureConnectionName)
 *   pulumi config set gatewayId <id>
 *   pulumi config set secretops:apiUrl https://app.example.com
 *   pulumi config set --secret secretops:token <token>
 */
const config = new pulumi.Config();
const auth0ConnectionName = config.get("auth0ConnectionName") ?? "emulator-auth0";
const postgresConnectionName = config.get("postgresConnectionName") ?? "emulator-postgres";
const ldapConnectionName = config.get("ldapConnectionName") ?? "emulator-ldap";
const azureConnectionName = config.get("azureConnectionName") ?? "emulator-azure-client-secrets";
const gatewayId = config.get("gatewayId");

// The database the connection points at. The password is secret: encrypted in state, masked in
// previews, never returned by the service (a change made elsewhere is seen through the
// service's credentials hash, and the next `pulumi up` puts this one back).
const postgresHost = config.get("postgresHost") ?? "orders-db.internal.example.com";
const postgresPassword = config.requireSecret("postgresPassword");

// 1. By name, in the organization's scope (add `projectId` for a project's connection).
const auth0 = new AppConnectionSettings("auth0", {
  app: "auth0",
  connectionName: auth0ConnectionName,
  description: "Customer identity tenant: used by the user-sync rotation",
});

// 2. The credentials are replaced whole, in the shape of the connection's method
//    (`username-and-password`). `gatewayId: null` connects directly.
const postgres = new AppConnectionSettings("orders-postgres", {
  app: "postgres",
  connectionName: postgresConnectionName,
  description: "Orders database (primary), direct connection",
  gatewayId: null,
  credentials: {
    host: postgresHost,
    port: 5432,
    database: "orders",
    username: "secretops_rotator",
    password: postgresPassword,
    sslEnabled: true,
    sslRejectUnauthorized: true,
  },
});

// 3. Directory servers are reached through a gateway inside the private network. Without one in
//    config, the connection's gateway is not managed (left out, not `null`: that would detach it).
const ldap = new AppConnectionSettings("corp-ldap", {
  app: "ldap",
  connectionName: ldapConnectionName,
  ...(gatewayId ? { gatewayId } : {}),
  description: `Corporate Active Directory${gatewayId ? ", through the private-network gateway" : ""}`,
});

// 4. The connection to an Azure app registration rotates its own credentials: every 60 days.
const azure = new AppConnectionSettings("azure-app-registrations", {
  app: "azure-client-secrets",
  connectionName: azureConnectionName,
  isAutoRotationEnabled: true,
  rotation: { rotationInterval: 60 },
  description: "Manages app-registration client secrets; rotates its own every 60 days",
});

/** name → version, which grows by one with every change the service accepts. */
export const connectionVersions = pulumi
  .all([auth0, postgres, ldap, azure].map((c) => pulumi.all([c.connectionName, c.version])))
  .apply((rows) => Object.fromEntries(rows));
export const postgresConnectionId = postgres.connectionId;
export const ldapGatewayId = ldap.gatewayId;
export const azureRotation = azure.rotation;
export const postgresMethod = postgres.method;
