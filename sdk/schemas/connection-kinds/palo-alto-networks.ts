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

/** The service's `services/app-connection/palo-alto-networks/palo-alto-networks-connection-schemas.ts`. */
export const paloAltoNetworks = connectionKind({
  app: "palo-alto-networks",
  label: "Palo Alto Networks",
  family: "Firewall",
  origin: { folder: "services/app-connection/palo-alto-networks/" },
  methods: {
    "basic-auth": {
      credentials: strictObject({
        /** The firewall's or Panorama's host name or address, without a scheme or path (no `/`, `@` or `?`), at most 512 characters. */
        hostname: applianceHostname,
        /** The management port, 1 to 65535; unset: the appliance's default. */
        port: optionalPort,
        /** The administrator the service signs in as, at most 256 characters. */
        username: strMax(256),
        /** That administrator's password (not trimmed), at most 512 characters: secret, never returned by the service. */
        password: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(512, { error: "must be at most 512 characters" }),
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** PEM certificate of the appliance's CA, for TLS, at most 16384 characters; `""` for none. */
        sslCertificate: trimmedCertificate(16384),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "basic-auth": {
      hostname: "panorama.emulator.local",
      port: 443,
      username: "admin",
      password: "emulator-panos-password",
      sslRejectUnauthorized: true,
    },
  },
});
