import {
  applianceBasicAuthCredentials,
  applianceHostnameWithoutPort,
  connectionKind,
  standardPatchSupport,
} from "./row";

/** The service's `services/app-connection/f5-big-ip/f5-big-ip-connection-schemas.ts`. */
export const f5BigIp = connectionKind({
  app: "f5-big-ip",
  label: "F5 BIG-IP",
  family: "Application delivery controller",
  origin: { folder: "services/app-connection/f5-big-ip/" },
  methods: {
    "basic-auth": {
      credentials: applianceBasicAuthCredentials({
        /** The BIG-IP's host name or address, without a scheme, port or path (no `/`, `@`, `?`, `:` or `#`), at most 512 characters. */
        hostname: applianceHostnameWithoutPort,
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
