import { z } from "zod";
import { strictObject } from "../common";
import { connectionKind, standardPatchSupport, str } from "./row";

/**
 * The service's `AWSRegion` (`services/app-connection/app-connection-enums.ts`): the regions its
 * AWS destinations and rotation accept. Shared by the AWS sync destinations and rotation type.
 */
export const awsRegion = z.enum([
  "us-east-1",
  "us-east-2",
  "us-west-1",
  "us-west-2",
  "us-gov-east-1",
  "us-gov-west-1",
  "af-south-1",
  "ap-east-1",
  "ap-south-1",
  "ap-south-2",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ca-central-1",
  "eu-central-1",
  "eu-central-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "eu-south-1",
  "eu-south-2",
  "eu-north-1",
  "me-south-1",
  "me-central-1",
  "sa-east-1",
]);

/** The service's `services/app-connection/aws/aws-connection-schemas.ts`. */
export const aws = connectionKind({
  app: "aws",
  label: "AWS",
  family: "Cloud provider",
  origin: "service-enum",
  methods: {
    "assume-role": {
      credentials: strictObject({
        /** The ARN of the IAM role the service assumes: secret, never returned by the service. */
        roleArn: str,
      }),
      secretFields: ["roleArn"],
    },
    "access-key": {
      credentials: strictObject({
        /** The IAM user's access key id. */
        accessKeyId: str,
        /** The IAM user's secret access key: secret. */
        secretAccessKey: str,
      }),
      secretFields: ["secretAccessKey"],
    },
  },
  patchSupport: standardPatchSupport,
  listedForProjectTypes: ["cert-manager"],
  examples: {
    "access-key": { accessKeyId: "AKIAEMULATOREXAMPLE", secretAccessKey: "emulator-aws-secret-access-key" },
    "assume-role": { roleArn: "arn:aws:iam::123456789012:role/emulator" },
  },
});
