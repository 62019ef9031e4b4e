import { z } from "zod";
import { secretName, strictObject } from "../common";
import { awsRegion } from "../connection-kinds/aws";
import { rotationRow, str } from "./row";

/** The service's `ee/services/secret-rotation-v2/aws-iam-user-secret/aws-iam-user-secret-rotation-schemas.ts`. */
export const awsIamUserSecret = rotationRow({
  type: "aws-iam-user-secret",
  label: "AWS IAM User Secret",
  family: "Cloud access key",
  origin: "service-enum",
  connectionApp: "aws",
  parameters: strictObject({
    /** The name of the IAM user whose access keys are rotated. */
    userName: str,
    /** The AWS region the IAM calls go to; unset: the service's default. */
    region: awsRegion.optional(),
  }),
  secretsMapping: strictObject({
    /** The secret the access key id is written to. */
    accessKeyId: secretName,
    /** The secret the secret access key is written to. */
    secretAccessKey: secretName,
  }),
  generatedCredentials: z.object({ accessKeyId: z.string(), secretAccessKey: z.string() }),
  secretFields: ["secretAccessKey"],
  example: { parameters: { userName: "emulator-deployer", region: "us-east-1" } },
});
