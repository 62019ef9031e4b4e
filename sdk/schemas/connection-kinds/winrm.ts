import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, strMax } from "./row";

/** The service's `services/app-connection/winrm/winrm-connection-schemas.ts`. */
export const winrm = connectionKind({
  app: "winrm",
  label: "Windows (WinRM)",
  family: "Windows server",
  origin: { folder: "services/app-connection/winrm/" },
  methods: {
    "username-password": {
      credentials: strictObject({
        /** The Windows host's DNS name (FQDN) or IP address, at most 255 characters. */
        host: strMax(255),
        /** The WinRM port, 1 to 65535: 5985 (the default) for NTLM-encrypted HTTP, 5986 for HTTPS. */
        port: z.coerce
          .number({ error: "must be a number" })
          .int({ error: "must be a whole number" })
          .min(1, { error: "must be 1 to 65535" })
          .max(65535, { error: "must be 1 to 65535" })
          .default(5985),
        /** The Windows login, `DOMAIN\user` or `user@domain`, at most 255 characters. */
        username: strMax(255),
        /** That account's password (not trimmed), at most 255 characters: secret, never returned by the service. */
        password: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(255, { error: "must be at most 255 characters" }),
        /** Use HTTPS (port 5986) instead of NTLM-encrypted HTTP. Default false. */
        useHttps: z.boolean().default(false),
        /** Skip TLS certificate verification with HTTPS (a self-signed WinRM listener). Default false. */
        insecure: z.boolean().default(false),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "username-password": {
      host: "win.emulator.local",
      port: 5985,
      username: "EMULATOR\\rotator",
      password: "emulator-winrm-password",
      useHttps: false,
      insecure: false,
    },
  },
});
