import { z } from "zod";
import { strictObject } from "../common";
import type { AppConnectionApp } from "../app-connections";
import { passwordRequirements, rotationRow, str, usernamePassword, usernamePasswordMapping } from "./row";

/**
 * The SQL types share their parameters, mapping and credentials, as in the service's
 * `ee/services/secret-rotation-v2/shared/sql-credentials/sql-credentials-rotation-schemas.ts`.
 */

/** A SQL rotation statement: must use {{username}} and {{password}}, and no other variable but {{database}}. */
const rotationStatement = z
  .string()
  .refine((s) => s.includes("{{username}}") && s.includes("{{password}}"), {
    error: "must contain {{username}} and {{password}}",
  })
  .refine(
    (s) =>
      [...s.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].every((m) => ["username", "password", "database"].includes(m[1]!)),
    {
      error: "may only use the variables {{username}}, {{password}} and {{database}}",
    },
  );

const sqlParameters = strictObject({
  /** The first of two existing database users the rotation uses alternately. */
  username1: str,
  /** The second user: while apps use one, the other's password is rotated. */
  username2: str,
  /** The statement that sets a password, using `{{username}}` and `{{password}}` (and optionally `{{database}}`). */
  rotationStatement: rotationStatement.optional(),
  /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
  passwordRequirements: passwordRequirements.optional(),
});
const sqlType = (
  type: string,
  label: string,
  connectionApp: AppConnectionApp,
  example: z.input<typeof sqlParameters>,
) =>
  rotationRow({
    type,
    label,
    family: "SQL database credentials",
    origin: "service-enum",
    connectionApp,
    parameters: sqlParameters,
    secretsMapping: usernamePasswordMapping,
    generatedCredentials: usernamePassword,
    secretFields: ["password"],
    example: { parameters: example },
    invalidExamples: [
      {
        parameters: { ...example, rotationStatement: "ALTER USER {{username}} PASSWORD 'x'" },
        path: "parameters.rotationStatement",
        message: "must contain {{username}} and {{password}}",
      },
      {
        parameters: { ...example, rotationStatement: "ALTER USER {{username}} IN {{schema}} PASSWORD '{{password}}'" },
        path: "parameters.rotationStatement",
        message: "may only use the variables {{username}}, {{password}} and {{database}}",
      },
      {
        // shared/general/password-requirements-schema.ts: allowedSymbols must hold one of its symbols.
        parameters: {
          ...example,
          passwordRequirements: {
            length: 20,
            required: { digits: 1, lowercase: 1, uppercase: 1, symbols: 1 },
            allowedSymbols: "abc",
          },
        },
        path: "parameters.passwordRequirements.allowedSymbols",
        message: "Invalid symbols",
      },
    ],
  });

export const postgresCredentials = sqlType("postgres-credentials", "PostgreSQL Credentials", "postgres", {
  username1: "app_user_a",
  username2: "app_user_b",
});
export const mssqlCredentials = sqlType("mssql-credentials", "Microsoft SQL Server Credentials", "mssql", {
  username1: "app_user_a",
  username2: "app_user_b",
  rotationStatement: "ALTER LOGIN [{{username}}] WITH PASSWORD = '{{password}}'",
});
export const mysqlCredentials = sqlType("mysql-credentials", "MySQL Credentials", "mysql", {
  username1: "app_user_a",
  username2: "app_user_b",
  rotationStatement: "ALTER USER {{username}} IDENTIFIED BY '{{password}}'",
});
