import { z } from "zod";
import { strictObject } from "../common";
import {
  applianceHostnameWithoutPort,
  connectionKind,
  optionalPort,
  standardPatchSupport,
  strMax,
  trimmedCertificate,
} from "./row";

/** The service's `services/app-connection/f5-big-ip/f5-big-ip-connection-schemas.ts`. */
export const f5BigIp = connectionKind({
  app: "f5-big-ip",
  label: "F5 BIG-IP",
  family: "Application delivery controller",
  origin: { folder: "services/app-connection/f5-big-ip/" },
  methods: {
    "basic-auth": {
      credentials: strictObject({
        /** The BIG-IP's host name or address, without a scheme, port or path (no `/`, `@`, `?`, `:` or `#`), at most 512 characters. */
        hostname: applianceHostnameWithoutPort,
        /** The management port, 1 to 65535; unset: the appliance's default. */
        port: optionalPort,
        /** The user the service signs in as, at most 256 characters. */
        username: strMax(256),
        /** That user's password, at most 512 characters: secret, never returned by the service. */
        password: strMax(512),
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** PEM certificate of the appliance's CA, for TLS; `""` for none. */
        sslCertificate: trimmedCertificate(),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "basic-auth": {
      hostname: "bigip.emulator.local",
      port: 443,
      username: "admin",
      password: "emulator-f5-password",
      sslRejectUnauthorized: true,
    },
  },
  invalidExamples: [
    {
      credentials: { hostname: "bigip.emulator.local:8443", username: "admin", password: "emulator-f5-password" },
      path: "credentials.hostname",
      message: "Hostname must not contain /, @, ?, :, or # characters",
    },
  ],
});
