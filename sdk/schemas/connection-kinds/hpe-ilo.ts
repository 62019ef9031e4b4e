import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, optionalPort, standardPatchSupport, strMax, trimmedCertificate } from "./row";

/** The service's `services/app-connection/hpe-ilo/hpe-ilo-connection-schemas.ts` (Redfish API). */
export const hpeIlo = connectionKind({
  app: "hpe-ilo",
  label: "HPE iLO",
  family: "Server management controller",
  origin: { folder: "services/app-connection/hpe-ilo/" },
  methods: {
    "basic-auth": {
      credentials: strictObject({
        /** The iLO's host name or IP address, without a scheme, port, brackets or path (no IPv6 zone id), at most 512 characters. */
        hostname: strMax(512).refine(
          (v) =>
            z.hostname().safeParse(v).success ||
            ((z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success) && !v.includes("%")),
          { error: "must be a hostname or IP address without a scheme, port, brackets, or path" },
        ),
        /** The iLO's HTTPS port, 1 to 65535; unset: the default. */
        port: optionalPort,
        /** The iLO user the service signs in as, at most 256 characters. */
        username: strMax(256),
        /** That user's password (not trimmed), at most 512 characters: secret, never returned by the service. */
        password: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(512, { error: "must be at most 512 characters" }),
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** PEM certificate of the iLO's CA, for TLS, at most 16384 characters; `""` for none. */
        sslCertificate: trimmedCertificate(16384),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "basic-auth": {
      hostname: "ilo.emulator.local",
      port: 443,
      username: "Administrator",
      password: "emulator-ilo-password",
      sslRejectUnauthorized: true,
    },
  },
});
