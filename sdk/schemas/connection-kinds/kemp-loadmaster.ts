import { applianceBasicAuthCredentials, applianceHostname, connectionKind, standardPatchSupport } from "./row";

/** The service's `services/app-connection/kemp-loadmaster/kemp-loadmaster-connection-schemas.ts`. */
export const kempLoadMaster = connectionKind({
  app: "kemp-loadmaster",
  label: "Kemp LoadMaster",
  family: "Load balancer",
  origin: { folder: "services/app-connection/kemp-loadmaster/" },
  methods: {
    "basic-auth": {
      credentials: applianceBasicAuthCredentials({
        /** The LoadMaster's host name or address, without a scheme or path (no `/`, `@` or `?`), at most 512 characters. */
        hostname: applianceHostname,
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "basic-auth": {
      hostname: "loadmaster.emulator.local",
      port: 443,
      username: "bal",
      password: "emulator-kemp-password",
      sslRejectUnauthorized: true,
    },
  },
});
