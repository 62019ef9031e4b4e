import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/**
 * The service's `services/app-connection/adcs/adcs-connection-schemas.ts`: an on-premises Active
 * Directory Certificate Services server, reached through a gateway (unlike `azure-adcs`'s web
 * enrollment URL).
 */
export const adcs = connectionKind({
  app: "adcs",
  label: "ADCS",
  family: "Certificate authority",
  origin: { folder: "services/app-connection/adcs/" },
  methods: {
    "username-password": {
      credentials: strictObject({
        /** The AD CS server's DNS name (FQDN), e.g. `ca01.corp.example.com`, at most 255 characters. */
        host: strMax(255),
        /** The Windows login, `DOMAIN\user` or `user@domain`, at most 255 characters. */
        username: strMax(255),
        /** That account's password, at most 255 characters: secret, never returned by the service. */
        password: strMax(255),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "username-password": {
      host: "ca01.emulator.local",
      username: "EMULATOR\\certsvc",
      password: "emulator-adcs-password",
    },
  },
});
