import { applianceBasicAuthCredentials, applianceHostname, connectionKind, standardPatchSupport } from "./row";

/** The service's `services/app-connection/palo-alto-networks/palo-alto-networks-connection-schemas.ts`. */
export const paloAltoNetworks = connectionKind({
  app: "palo-alto-networks",
  label: "Palo Alto Networks",
  family: "Firewall",
  origin: { folder: "services/app-connection/palo-alto-networks/" },
  methods: {
    "basic-auth": {
      credentials: applianceBasicAuthCredentials(
        {
          /** The firewall's or Panorama's host name or address, without a scheme or path (no `/`, `@` or `?`), at most 512 characters. */
          hostname: applianceHostname,
        },
        { trimsPassword: false, certificateMaxLength: 16384 },
      ),
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
