import { z } from "zod";
import { identityAuthMethod, joinedList, positiveMaxTtl } from "./row";

const items = (v: string) =>
  v === ""
    ? []
    : v
        .split(",")
        .map((i) => i.trim())
        .filter(Boolean);
const ARN = /^arn:aws:iam::\d{12}:(user\/[a-zA-Z0-9_.@+*/-]+|role\/[a-zA-Z0-9_.@+*/-]+|\*)$/;

/**
 * The service's `server/routes/v1/identity-aws-iam-auth-router.ts` and
 * `services/identity-aws-auth/identity-aws-auth-validators.ts`: a login sends a signed
 * `sts:GetCallerIdentity` request, which the service forwards to `stsEndpoint`. Its PATCH sets
 * the ARNs and account ids to "" when left out: they are sent with every PATCH.
 */
export const awsAuth = identityAuthMethod({
  method: "aws-auth",
  label: "AWS Auth",
  alreadyAttachedMessage: "Failed to add AWS Auth to already configured identity",
  notAttachedMessage: "The identity does not have AWS Auth attached",
  notAttachedStatus: 404,
  origin: "backend/src/server/routes/v1/identity-aws-iam-auth-router.ts",
  responseKey: "identityAwsAuth",
  fields: {
    /** The STS endpoint the service checks logins at. Default `https://sts.amazonaws.com/`. */
    stsEndpoint: {
      schema: z.string().trim().min(1, { error: "must not be empty" }),
      default: "https://sts.amazonaws.com/",
    },
    /** IAM principal ARNs allowed to log in, comma-separated (`*` wildcards); "" for any. */
    allowedPrincipalArns: {
      schema: z
        .string()
        .trim()
        .refine((v) => items(v).every((arn) => ARN.test(arn)), {
          error:
            "Each ARN must be in the format of 'arn:aws:iam::123456789012:user/UserName', 'arn:aws:iam::123456789012:role/RoleName', or 'arn:aws:iam::123456789012:*'.",
        })
        .transform(joinedList),
      default: "",
    },
    /** AWS account ids allowed to log in, comma-separated; "" for any. */
    allowedAccountIds: {
      schema: z
        .string()
        .trim()
        .refine((v) => items(v).every((id) => /^\d{12}$/.test(id)), {
          error: "Each account ID must be a 12-digit number.",
        })
        .transform(joinedList),
      default: "",
    },
    accessTokenMaxTTL: positiveMaxTtl,
  },
  alwaysInPatch: ["allowedPrincipalArns", "allowedAccountIds"],
  secretFields: [],
  trustedIpFields: ["accessTokenTrustedIps"],
  ipGateNoun: "access token",
  example: { allowedAccountIds: "123456789012" },
});
