import { z } from "zod";
import { applianceBasicAuthCredentials, connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/hpe-ilo/hpe-ilo-connection-schemas.ts` (Redfish API). */
export const hpeIlo = connectionKind({
  app: "hpe-ilo",
  label: "HPE iLO",
  family: "Server management controller",
  origin: { folder: "services/app-connection/hpe-ilo/" },
  methods: {
    "basic-auth": {
      credentials: applianceBasicAuthCredentials(
        {
          /** The iLO's host name or IP address, without a scheme, port, brackets or path (no IPv6 zone id), at most 512 characters. */
          hostname: strMax(512).refine(
            (v) =>
              z.hostname().safeParse(v).success ||
              ((z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success) && !v.includes("%")),
            { error: "must be a hostname or IP address without a scheme, port, brackets, or path" },
          ),
        },
        { trimsPassword: false, certificateMaxLength: 16384 },
      ),
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
