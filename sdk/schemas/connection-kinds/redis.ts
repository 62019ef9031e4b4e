import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, optionalCertificate, port, standardPatchSupport } from "./row";

/** The service's `services/app-connection/redis/redis-connection-schemas.ts`. */
export const redis = connectionKind({
  app: "redis",
  label: "Redis",
  family: "Key-value store",
  origin: "service-enum",
  methods: {
    "username-and-password": {
      credentials: strictObject({
        // As the service's schema: host, username and password are not trimmed.
        /** The Redis server's host name or address (lowercased). */
        host: z.string().toLowerCase().min(1, { error: "must not be empty" }),
        /** The Redis server's port. */
        port,
        /** The user the service connects as. */
        username: z.string().min(1, { error: "must not be empty" }),
        /** That user's password, not empty when given: secret, never returned by the service. */
        password: z.string().min(1, { error: "must not be empty" }).optional(),
        /** Connect over TLS. */
        sslEnabled: z.boolean(),
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean(),
        /** PEM certificate of the server's CA, for TLS; `""` for none. */
        sslCertificate: optionalCertificate,
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: standardPatchSupport,
  examples: {
    "username-and-password": {
      host: "redis.emulator.local",
      port: 6379,
      username: "default",
      password: "emulator-redis-password",
      sslEnabled: false,
      sslRejectUnauthorized: false,
    },
  },
  invalidExamples: [
    {
      credentials: {
        host: "cache.emulator.local",
        port: 6379,
        username: "default",
        password: "",
        sslEnabled: false,
        sslRejectUnauthorized: true,
      },
      path: "credentials.password",
      message: "must not be empty",
    },
  ],
});
