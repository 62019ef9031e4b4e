import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/** The SSH server's port: a whole number 1 to 65535 (the service coerces it to a number). */
const sshPort = z.coerce
  .number({ error: "must be a number" })
  .int({ error: "must be a whole number" })
  .min(1, { error: "must be 1 to 65535" })
  .max(65535, { error: "must be 1 to 65535" });

/** The service's `services/app-connection/ssh/ssh-connection-schemas.ts`. */
export const ssh = connectionKind({
  app: "ssh",
  label: "SSH",
  family: "SSH server",
  origin: "service-enum",
  methods: {
    password: {
      credentials: strictObject({
        /** The SSH server's host name or address. */
        host: str,
        /** The SSH server's port, 1 to 65535. */
        port: sshPort,
        /** The user the service logs in as. */
        username: str,
        /** That user's password: secret. */
        password: str,
      }),
      secretFields: ["password"],
    },
    "ssh-key": {
      credentials: strictObject({
        /** The SSH server's host name or address. */
        host: str,
        /** The SSH server's port, 1 to 65535. */
        port: sshPort,
        /** The user the service logs in as. */
        username: str,
        /** The user's PEM/OpenSSH private key: secret. */
        privateKey: str,
        /** The private key's passphrase, if it has one: secret. */
        passphrase: z.string().trim().optional(),
      }),
      secretFields: ["privateKey", "passphrase"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    password: { host: "ssh.emulator.local", port: 22, username: "rotator", password: "emulator-ssh-password" },
    "ssh-key": {
      host: "ssh.example.com",
      port: 22,
      username: "root",
      privateKey: "emulator-private-key",
      passphrase: "emulator-passphrase",
    },
  },
});
