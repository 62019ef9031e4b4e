import { z } from "zod";
import { secretName, strictObject } from "../common";
import { passwordRequirements, rotationRow, str, currentPasswordRule } from "./row";

/**
 * The service's `DistinguishedNameRegex` and `UserPrincipalNameRegex`, as the `ldap` connection
 * kind uses them (connection-kinds/ldap.ts).
 */
const DISTINGUISHED_NAME =
  /^(?:(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*)(?:,(?:[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)(?:(?:\\+[a-zA-Z0-9]+=[^,+="<>#;\\\\]+)*))*)?$/;
const USER_PRINCIPAL_NAME = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9._-]+\.[a-zA-Z]{2,}$/;

/** The service's `ee/services/secret-rotation-v2/ldap-password/ldap-password-rotation-schemas.ts`. */
export const ldapPassword = rotationRow({
  type: "ldap-password",
  label: "LDAP Password",
  family: "Directory account password",
  origin: "service-enum",
  connectionApp: "ldap",
  // The service's create body also takes `temporaryParameters.password` (the account's current
  // password), required with `rotationMethod: "target-principal"`; the shared create body has no
  // such field, so that method is refused on create as the service refuses it without one.
  createRules: [currentPasswordRule("target-principal", "Password required")],
  parameters: strictObject({
    /** The distinguished name (`CN=user,OU=users,DC=example,DC=com`) or user principal name (`user@domain.tld`) of the account whose password is rotated. */
    dn: str.refine((v) => DISTINGUISHED_NAME.test(v) || USER_PRINCIPAL_NAME.test(v), {
      error: "Invalid DN/UPN format",
    }),
    /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
    passwordRequirements: passwordRequirements.optional(),
    /**
     * Who changes the password: `connection-principal` (the connection's bind user, the default) or
     * `target-principal` (the account itself, with its current password, which the service takes as `temporaryParameters.password` on create; this package does not send it, so that method is refused on create).
     */
    rotationMethod: z.enum(["connection-principal", "target-principal"]).optional(),
  }),
  secretsMapping: strictObject({
    /** The secret the account's DN is written to. */
    dn: secretName,
    /** The secret the active password is written to. */
    password: secretName,
  }),
  generatedCredentials: z.object({ dn: z.string(), password: z.string() }),
  secretFields: ["password"],
  example: { parameters: { dn: "CN=svc-app,OU=users,DC=emulator,DC=local" } },
  invalidExamples: [
    {
      parameters: { dn: "CN=svc-app,OU=users,DC=emulator,DC=local", rotationMethod: "target-principal" },
      path: "temporaryParameters.password",
      message: "Password required",
    },
    {
      parameters: { dn: "not a dn" },
      path: "parameters.dn",
      message: "Invalid DN/UPN format",
    },
  ],
});
