import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, optionalCertificate, port, standardPatchSupport, str } from "./row";

/** The service's `services/app-connection/redis/redis-connection-schemas.ts`. */
export const redis = connectionKind({
  app: "redis",
  label: "Redis",
  family: "Key-value store",
  methods: {
    "username-and-password": {
      credentials: strictObject({
        /** The Redis server's host name or address. */
        host: str.toLowerCase(),
        /** The Redis server's port. */
        port,
        /** The user the service connects as. */
        username: str,
        /** That user's password: secret, never returned by the service. */
        password: z.string().optional(),
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
  example: {
    method: "username-and-password",
    credentials: {
      host: "redis.emulator.local",
      port: 6379,
      username: "default",
      password: "emulator-redis-password",
      sslEnabled: false,
      sslRejectUnauthorized: false,
    },
  },
});
