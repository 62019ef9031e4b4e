import { z } from "zod";
import { strictObject } from "../common";
import {
  applianceHostnameWithoutPort,
  connectionKind,
  optionalPort,
  standardPatchSupport,
  str,
  strMax,
  trimmedCertificate,
} from "./row";

/** Where Prism Central is, shared by both methods. */
const host = {
  /** Prism Central's host name or address, without a scheme, port or path (no `/`, `@`, `?`, `:` or `#`), at most 512 characters. */
  hostname: applianceHostnameWithoutPort,
  /** Prism Central's port, 1 to 65535; unset: the default. */
  port: optionalPort,
  /** Refuse a server certificate that does not verify. */
  sslRejectUnauthorized: z.boolean().optional(),
  /** PEM certificate of Prism Central's CA, for TLS; `""` for none. */
  sslCertificate: trimmedCertificate(),
};

/** The service's `services/app-connection/nutanix-prism-central/nutanix-prism-central-connection-schemas.ts`. */
export const nutanixPrismCentral = connectionKind({
  app: "nutanix-prism-central",
  label: "Nutanix Prism Central",
  family: "Virtualization platform",
  origin: { folder: "services/app-connection/nutanix-prism-central/" },
  methods: {
    "api-key": {
      credentials: strictObject({
        ...host,
        /** A Prism Central API key: 32 lowercase hexadecimal characters; secret, never returned by the service. */
        apiKey: str.regex(/^[0-9a-f]{32}$/, { error: "must be a 32-character lowercase hexadecimal string" }),
      }),
      secretFields: ["apiKey"],
    },
    "basic-auth": {
      credentials: strictObject({
        ...host,
        /** The user the service signs in as, at most 256 characters. */
        username: strMax(256),
        /** That user's password, at most 512 characters: secret, never returned by the service. */
        password: strMax(512),
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  // The first example (the fixture connection's) is the password method: a rotated API key no
  // longer matches the key's pattern.
  examples: {
    "basic-auth": {
      hostname: "prism.emulator.local",
      port: 9440,
      username: "admin",
      password: "emulator-prism-password",
      sslRejectUnauthorized: true,
    },
    "api-key": {
      hostname: "prism.emulator.local",
      port: 9440,
      apiKey: "0123456789abcdef0123456789abcdef",
      sslRejectUnauthorized: true,
    },
  },
});
