import { z } from "zod";
import { strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { awsRegion } from "../connection-kinds/aws";
import { awsSyncOptions } from "./aws-parameter-store";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/aws-secrets-manager/aws-secrets-manager-sync-schemas.ts`.
 * Its `destinationConfig` is a union on `mappingBehavior` (only `many-to-one` has `secretName`),
 * modelled as one object and the rule below. Its further rule that `many-to-one` does not go with
 * `syncOptions.syncSecretMetadataAsTags` spans both objects: a body rule, in the service's words
 * and at its path (the body itself).
 */
export const awsSecretsManager = destinationRow({
  destination: "aws-secrets-manager",
  label: "AWS Secrets Manager",
  family: "Cloud secret manager",
  origin: "service-enum",
  connectionApp: "aws",
  destinationConfig: strictObject({
    /** The AWS region of the Secrets Manager. */
    region: awsRegion,
    /** `one-to-one`: one AWS secret per secret; `many-to-one`: every secret as a key of one AWS secret, `secretName`. */
    mappingBehavior: z.enum(["one-to-one", "many-to-one"]),
    /** With `many-to-one` (and only then, required): the AWS secret's name, 1 to 256 characters: letters, digits and `/_+=.@-`. */
    secretName: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(256, { error: "must be at most 256 characters" })
      .regex(/^[a-zA-Z0-9/_+=.@-]+$/, {
        error: "must contain only alphanumeric characters and the characters /_+=.@-",
      })
      .optional(),
  }).superRefine((c, ctx) => {
    if (c.mappingBehavior === "many-to-one" && c.secretName === undefined)
      ctx.addIssue({ code: "custom", message: 'is required with mappingBehavior "many-to-one"', path: ["secretName"] });
    if (c.mappingBehavior === "one-to-one" && c.secretName !== undefined)
      ctx.addIssue({
        code: "custom",
        message: 'is only for mappingBehavior "many-to-one"',
        path: ["secretName"],
        params: fieldOfAnotherBranch,
      });
  }),
  extraSyncOptions: awsSyncOptions,
  canImport: true,
  bodyRules: [
    {
      // The service's `UpdateAwsSecretsManagerSyncSchema` checks the same only when the PATCH has
      // both parts (`sync.destinationConfig?.mappingBehavior`): a PATCH of `syncOptions` alone is
      // not compared with the stored config, and neither is one here.
      breaks: (b) =>
        b.destinationConfig?.mappingBehavior === "many-to-one" && b.syncOptions?.syncSecretMetadataAsTags === true,
      message: 'Syncing secret metadata is not supported with "Many-to-One" mapping behavior.',
      path: [],
    },
  ],
  // The service's SECRET_SYNC_SKIP_FIELDS_MAP (services/secret-sync/secret-sync-maps.ts): one
  // region's secrets are one place, whichever the mapping (`secretName` still tells two apart).
  duplicateCheckIgnores: ["mappingBehavior"],
  example: { destinationConfig: { region: "us-east-1", mappingBehavior: "one-to-one" } },
  invalidExamples: [
    {
      destinationConfig: { region: "us-east-1", mappingBehavior: "many-to-one", secretName: "app/all" },
      syncOptions: { syncSecretMetadataAsTags: true },
      update: true,
      path: "",
      message: 'Syncing secret metadata is not supported with "Many-to-One" mapping behavior.',
    },
    {
      destinationConfig: { region: "us-east-1", mappingBehavior: "many-to-one" },
      path: "destinationConfig.secretName",
      message: 'is required with mappingBehavior "many-to-one"',
    },
    {
      destinationConfig: { region: "us-east-1", mappingBehavior: "many-to-one", secretName: "app all" },
      path: "destinationConfig.secretName",
      message: "must contain only alphanumeric characters and the characters /_+=.@-",
    },
    {
      destinationConfig: { region: "mars-east-1", mappingBehavior: "one-to-one" },
      path: "destinationConfig.region",
      message: "must be one of the options",
    },
  ],
});
