import { z } from "zod";
import { ANYWHERE, identityAuthMethod, trustedIps } from "./row";

/**
 * The service's `server/routes/v1/identity-universal-auth-router.ts` and
 * `services/identity-ua/identity-ua-service.ts`: a client id made on attach, client secrets made
 * apart (`IdentityClientSecret`), and a lockout after failed logins.
 */
export const universalAuth = identityAuthMethod({
  method: "universal-auth",
  label: "Universal Auth",
  alreadyAttachedMessage: "Failed to add universal auth to already configured identity",
  notAttachedMessage: "The identity does not have universal auth",
  origin: "backend/src/server/routes/v1/identity-universal-auth-router.ts",
  responseKey: "identityUniversalAuth",
  fields: {
    /** The IPs a login with a client secret may come from. Default anywhere; anything else needs the IP-allowlisting feature of a licensed plan. */
    clientSecretTrustedIps: { schema: trustedIps, default: ANYWHERE.map((ipAddress) => ({ ipAddress })) },
    /** Seconds of a periodic access token's period, renewed without limit; 0 (the default) for none. */
    accessTokenPeriod: {
      schema: z
        .number()
        .int({ error: "must be a whole number" })
        .min(0, { error: "must be at least 0" })
        .max(315360000, { error: "must be at most 315360000" }),
      default: 0,
    },
    /** Lock the login out after `lockoutThreshold` failed attempts. Default true. */
    lockoutEnabled: { schema: z.boolean(), default: true },
    /** Failed attempts before the lockout, 1 to 30. Default 3. */
    lockoutThreshold: {
      schema: z.number().min(1, { error: "must be at least 1" }).max(30, { error: "must be at most 30" }),
      default: 3,
    },
    /** Seconds a lockout lasts, 30 to 86400. Default 300. */
    lockoutDurationSeconds: {
      schema: z.number().min(30, { error: "must be at least 30" }).max(86400, { error: "must be at most 86400" }),
      default: 300,
    },
    /** Seconds after which the count of failed attempts starts again, 5 to 3600. Default 30. */
    lockoutCounterResetSeconds: {
      schema: z.number().min(5, { error: "must be at least 5" }).max(3600, { error: "must be at most 3600" }),
      default: 30,
    },
  },
  secretFields: [],
  trustedIpFields: ["clientSecretTrustedIps", "accessTokenTrustedIps"],
  ipGateNoun: "service token",
  login: "client-secret",
  example: {},
});
