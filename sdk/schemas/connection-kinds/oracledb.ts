import { connectionKind, standardPatchSupport } from "./row";
import { sqlCredentials } from "./sql";

/**
 * The service's `ee/services/app-connections/oracledb/oracledb-connection-schemas.ts`: the SQL
 * kinds' credentials (`services/app-connection/shared/sql/sql-connection-schemas.ts`).
 */
export const oracledb = connectionKind({
  app: "oracledb",
  label: "OracleDB",
  family: "SQL database server",
  origin: "service-enum",
  methods: { "username-and-password": { credentials: sqlCredentials, secretFields: ["password"] } },
  patchSupport: { ...standardPatchSupport, isPlatformManagedCredentials: "one-way", gatewayId: "uuid-or-null" },
  enterprise: true,
  examples: {
    "username-and-password": {
      host: "oracle.emulator.local",
      port: 1521,
      database: "ORCLPDB1",
      username: "rotator",
      password: "emulator-oracle-password",
      sslEnabled: true,
      sslRejectUnauthorized: true,
    },
  },
});
