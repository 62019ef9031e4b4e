import { applianceBasicAuthCredentials, applianceHostname, connectionKind, standardPatchSupport } from "./row";

/** The service's `services/app-connection/netscaler/netscaler-connection-schemas.ts`. */
export const netscaler = connectionKind({
  app: "netscaler",
  label: "NetScaler",
  family: "Application delivery controller",
  origin: { folder: "services/app-connection/netscaler/" },
  methods: {
    "basic-auth": {
      credentials: applianceBasicAuthCredentials({
        /** The NetScaler's host name or address, without a scheme or path (no `/`, `@` or `?`), at most 512 characters. */
        hostname: applianceHostname,
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
