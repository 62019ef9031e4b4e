import { z } from "zod";
import { strictObject } from "../common";
import {
  applianceHostname,
  connectionKind,
  optionalPort,
  standardPatchSupport,
  strMax,
  trimmedCertificate,
} from "./row";

/** The service's `services/app-connection/netscaler/netscaler-connection-schemas.ts`. */
export const netscaler = connectionKind({
  app: "netscaler",
  label: "NetScaler",
  family: "Application delivery controller",
  origin: { folder: "services/app-connection/netscaler/" },
  methods: {
    "basic-auth": {
      credentials: strictObject({
        /** The NetScaler's host name or address, without a scheme or path (no `/`, `@` or `?`), at most 512 characters. */
        hostname: applianceHostname,
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
      hostname: "netscaler.emulator.local",
      port: 443,
      username: "nsroot",
      password: "emulator-netscaler-password",
      sslRejectUnauthorized: true,
    },
  },
});
