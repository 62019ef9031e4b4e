import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, optionalCertificate, port, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/shared/sql/sql-connection-schemas.ts`, shared by the three SQL kinds. */
export const sqlCredentials = strictObject({
  /** The database server's host name or address. */
  host: str,
  /** The database server's port. */
  port,
  /** The database to connect to. */
  database: str,
  /** The user the service connects as. */
  username: str,
  /** That user's password: secret, never returned by the service. */
  password: str,
  /** Connect over TLS. */
  sslEnabled: z.boolean(),
  /** Refuse a server certificate that does not verify. */
  sslRejectUnauthorized: z.boolean(),
  /** PEM certificate of the server's CA, for TLS; `""` for none. */
  sslCertificate: optionalCertificate,
});

const sqlKind = <const A extends string>(app: A, label: string, port: number) =>
  connectionKind({
    app,
    label,
    family: "SQL database server",
    origin: "service-enum",
    methods: { "username-and-password": { credentials: sqlCredentials, secretFields: ["password"] } },
    patchSupport: { ...standardPatchSupport, isPlatformManagedCredentials: "one-way", gatewayId: "uuid-or-null" },
    examples: {
      "username-and-password": {
        host: "db.emulator.local",
        port,
        database: "app",
        username: "rotator",
        password: "emulator-db-password",
        sslEnabled: true,
        sslRejectUnauthorized: true,
      },
    },
  });

export const postgres = sqlKind("postgres", "PostgreSQL", 5432);
export const mssql = sqlKind("mssql", "Microsoft SQL Server", 1433);
export const mysql = sqlKind("mysql", "MySQL", 3306);
