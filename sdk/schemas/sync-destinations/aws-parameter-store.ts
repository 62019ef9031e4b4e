import { z } from "zod";
import { strictObject } from "../common";
import { awsRegion } from "../connection-kinds/aws";
import { destinationRow } from "./row";

/** Characters the service allows in an AWS resource tag's key and value (`_.:/=+@-`, letters, digits, white space). */
const TAG_CHARS = /^[a-zA-Z0-9\s._:/=+@-]+$/;
/** Characters the service allows in a KMS key id, alias or ARN. */
const KMS_KEY_CHARS = /^[a-zA-Z0-9:/_-]+$/;
/** A path segment of a Parameter Store path. */
const PATH_SEGMENT = /^[a-zA-Z0-9_-]+$/;

/**
 * The `syncOptions` both AWS destinations add (the service's `AwsParameterStoreSyncOptionsSchema`
 * and `AwsSecretsManagerSyncOptionsSchema`, which are the same).
 */
export const awsSyncOptions = {
  /** The KMS key (id, alias or ARN) the synced values are encrypted with; unset: the AWS-managed key. */
  keyId: z
    .string()
    .min(1, { error: "Invalid KMS Key ID" })
    .max(256, { error: "Invalid KMS Key ID" })
    .regex(KMS_KEY_CHARS, { error: "Invalid KMS Key ID" })
    .optional(),
  /** Resource tags put on every synced value, at most 50, keys unique. */
  tags: z
    .array(
      strictObject({
        /** The tag's key, 1 to 128 characters: letters, digits, white space and `_.:/=+@-`. */
        key: z
          .string()
          .min(1, { error: "must not be empty" })
          .max(128, { error: "must be at most 128 characters" })
          .regex(TAG_CHARS, {
            error: "may only contain letters, digits, white space and any of the following: _.:/=+@-",
          }),
        /** The tag's value, at most 256 characters: letters, digits, white space and `_.:/=+@-`; may be empty. */
        value: z
          .string()
          .max(256, { error: "must be at most 256 characters" })
          // An empty value is accepted (the service's schema tests: "accepts an empty tag value").
          .refine((v) => v === "" || TAG_CHARS.test(v), {
            error: "may only contain letters, digits, white space and any of the following: _.:/=+@-",
          }),
      }),
    )
    .max(50, { error: "must have at most 50 tags" })
    .refine((items) => new Set(items.map((item) => item.key)).size === items.length, {
      error: "tag keys must be unique",
    })
    .optional(),
  /** Also write each secret's metadata as tags. */
  syncSecretMetadataAsTags: z.boolean().optional(),
};

/** The service's `services/secret-sync/aws-parameter-store/aws-parameter-store-sync-schemas.ts`. */
export const awsParameterStore = destinationRow({
  destination: "aws-parameter-store",
  label: "AWS Parameter Store",
  family: "Cloud parameter store",
  origin: "service-enum",
  connectionApp: "aws",
  destinationConfig: strictObject({
    /** The AWS region of the Parameter Store. */
    region: awsRegion,
    /** The path the parameters are written under, like `/example/path/`: starts and ends with `/`, segments of letters, digits, `_` and `-`; at most 2048 characters. */
    path: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(2048, { error: "must be at most 2048 characters" })
      .refine(
        (v) =>
          v.startsWith("/") &&
          v.endsWith("/") &&
          v
            .split("/")
            .filter(Boolean)
            .every((segment) => PATH_SEGMENT.test(segment)),
        { error: 'must follow the "/example/path/" format (segments of letters, digits, "_" and "-")' },
      ),
  }),
  extraSyncOptions: awsSyncOptions,
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { region: "us-east-1", path: "/emulator/app/" } },
  invalidExamples: [
    {
      destinationConfig: { region: "us-east-1", path: "/emulator/app" },
      path: "destinationConfig.path",
      message: 'must follow the "/example/path/" format',
    },
    {
      destinationConfig: { region: "us-east-1", path: "/emulator/a.b/" },
      path: "destinationConfig.path",
      message: 'must follow the "/example/path/" format',
    },
    { syncOptions: { keyId: "alias/my key" }, path: "syncOptions.keyId", message: "Invalid KMS Key ID" },
    {
      syncOptions: { tags: [{ key: "team%", value: "web" }] },
      path: "syncOptions.tags.0.key",
      message: "may only contain letters, digits, white space",
    },
    {
      syncOptions: { tags: [{ key: "team", value: "web%" }] },
      path: "syncOptions.tags.0.value",
      message: "may only contain letters, digits, white space",
    },
    {
      syncOptions: {
        tags: [
          { key: "team", value: "a" },
          { key: "team", value: "b" },
        ],
      },
      path: "syncOptions.tags",
      message: "tag keys must be unique",
    },
  ],
});
