import { rotationRow } from "./row";
import { postgresCredentials } from "./sql";

/**
 * The service's `ee/services/secret-rotation-v2/oracledb-credentials/oracledb-credentials-rotation-schemas.ts`:
 * the SQL types' parameters, mapping and credentials (`ee/services/secret-rotation-v2/shared/sql-credentials/`).
 */
export const oracledbCredentials = rotationRow({
  type: "oracledb-credentials",
  label: "OracleDB Credentials",
  family: "SQL database credentials",
  origin: "service-enum",
  connectionApp: "oracledb",
  parameters: postgresCredentials.parameters,
  secretsMapping: postgresCredentials.secretsMapping,
  generatedCredentials: postgresCredentials.generatedCredentials,
  secretFields: ["password"],
  example: {
    parameters: {
      username1: "app_user_a",
      username2: "app_user_b",
      rotationStatement: 'ALTER USER "{{username}}" IDENTIFIED BY "{{password}}"',
    },
  },
});
