import { z } from "zod";
import { identityAuthMethod, positiveMaxTtl } from "./row";

const ARN = /^acs:ram::[0-9]{16}:(user|role)\/.*$/;

/**
 * The service's `server/routes/v1/identity-alicloud-auth-router.ts` and
 * `services/identity-alicloud-auth/identity-alicloud-auth-validators.ts`: a login sends a signed
 * `GetCallerIdentity` request. Its PATCH requires `allowedArns`: they are sent with every PATCH.
 */
export const alicloudAuth = identityAuthMethod({
  method: "alicloud-auth",
  label: "Alibaba Cloud Auth",
  alreadyAttachedMessage: "Failed to add Alibaba Cloud Auth to already configured identity",
  notAttachedMessage: "The identity does not have Alibaba Cloud Auth attached",
  notAttachedStatus: 404,
  origin: "backend/src/server/routes/v1/identity-alicloud-auth-router.ts",
  responseKey: "identityAliCloudAuth",
  fields: {
    /** RAM user or role ARNs allowed to log in, comma-separated (`acs:ram::<16 digits>:role/<name>`), at most 500 characters. */
    allowedArns: {
      schema: z
        .string()
        .trim()
        .min(1, { error: "Allowed ARNs required" })
        .max(500, { error: "Input exceeds the maximum limit of 500 characters" })
        .refine(
          (v) =>
            v
              .split(",")
              .map((i) => i.trim())
              .filter(Boolean)
              .every((arn) => ARN.test(arn)),
          { error: "One or more ARNs are invalid" },
        )
        .transform((v) =>
          v
            .split(",")
            .map((i) => i.trim())
            .filter(Boolean)
            .join(", "),
        ),
    },
    accessTokenMaxTTL: positiveMaxTtl,
  },
  alwaysInPatch: ["allowedArns"],
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { allowedArns: "acs:ram::1234567890123456:role/ci" },
});
