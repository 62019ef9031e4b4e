import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, port, standardPatchSupport } from "./row";

/** The service's `services/app-connection/mongodb/mongodb-connection-schemas.ts`. */
export const mongodb = connectionKind({
  app: "mongodb",
  label: "MongoDB",
  family: "Document database",
  origin: "service-enum",
  methods: {
    "username-and-password": {
      credentials: strictObject({
        /** The MongoDB server's host name or address (lowercased). */
        host: z.string().toLowerCase().min(1, { error: "must not be empty" }),
        /** The MongoDB server's port. */
        port,
        /** The user the service connects as. */
        username: z.string().min(1, { error: "must not be empty" }),
        /** That user's password: secret, never returned by the service. */
        password: z.string().min(1, { error: "must not be empty" }),
        /** The database to connect to (its users are rotated there). */
        database: z.string().min(1, { error: "must not be empty" }).trim(),
        /** Refuse a server certificate that does not verify. */
        tlsRejectUnauthorized: z.boolean(),
        /** Connect over TLS. */
        tlsEnabled: z.boolean(),
        /** PEM certificate of the server's CA, for TLS; `""` for none. */
        tlsCertificate: z
          .string()
          .trim()
          .optional()
          .transform((v) => v || undefined),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "username-and-password": {
      host: "mongo.emulator.local",
      port: 27017,
      username: "rotator",
      password: "emulator-mongo-password",
      database: "app",
      tlsRejectUnauthorized: false,
      tlsEnabled: false,
    },
  },
});
