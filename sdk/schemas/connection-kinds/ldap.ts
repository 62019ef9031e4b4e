import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, optionalCertificate, standardPatchSupport, str } from "./row";

/**
 * LDAP `dn`: a distinguished name or a user principal name, exactly as the service's
 * `DistinguishedNameRegex` and `UserPrincipalNameRegex` accept them (docs/service-api.md §9): `attr=value` pairs joined by commas with no space after a comma.
 */
const DISTINGUISHED_NAME =
  /^(?:(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*)(?:,(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*))*)?$/;
const USER_PRINCIPAL_NAME = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9._-]+\.[a-zA-Z]{2,}$/;

/** The service's `services/app-connection/ldap/ldap-connection-schemas.ts`. */
export const ldap = connectionKind({
  app: "ldap",
  label: "LDAP",
  family: "Directory server",
  origin: "service-enum",
  methods: {
    "simple-bind": {
      credentials: strictObject({
        /** The directory server's kind. */
        provider: z.enum(["active-directory"]),
        /** The server's URL, `ldap://` or `ldaps://`. */
        url: str.regex(/^ldaps?:\/\//, { error: "must be an LDAP URL (ldap:// or ldaps://)" }),
        /** The bind user's distinguished name, or a user principal name (`user@domain.tld`). */
        dn: str.refine((v) => DISTINGUISHED_NAME.test(v) || USER_PRINCIPAL_NAME.test(v), {
          error: "must be a distinguished name (cn=...,dc=...) or a user principal name (user@domain.tld)",
        }),
        /** The bind user's password: secret, never returned by the service. */
        password: str,
        /** Refuse a server certificate that does not verify. */
        sslRejectUnauthorized: z.boolean().optional(),
        /** PEM certificate of the server's CA, for TLS; `""` for none. */
        sslCertificate: optionalCertificate,
      }),
      secretFields: ["password"],
    },
  },
  patchSupport: { ...standardPatchSupport, gatewayId: "uuid-or-null" },
  examples: {
    "simple-bind": {
      provider: "active-directory",
      url: "ldaps://ldap.emulator.local:636",
      dn: "cn=admin,dc=emulator,dc=local",
      password: "emulator-ldap-password",
      sslRejectUnauthorized: true,
    },
  },
});
