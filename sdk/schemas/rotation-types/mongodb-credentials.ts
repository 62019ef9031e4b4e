import { strictObject } from "../common";
import { passwordRequirements, rotationRow, str, usernamePassword, usernamePasswordMapping } from "./row";

/** The service's `ee/services/secret-rotation-v2/mongodb-credentials/mongodb-credentials-rotation-schemas.ts`. */
export const mongodbCredentials = rotationRow({
  type: "mongodb-credentials",
  label: "MongoDB Credentials",
  family: "Document database credentials",
  origin: "service-enum",
  connectionApp: "mongodb",
  parameters: strictObject({
    /** The first of two existing database users the rotation uses alternately. */
    username1: str,
    /** The second user: while apps use one, the other's password is rotated. */
    username2: str,
    /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
    passwordRequirements: passwordRequirements.optional(),
  }),
  secretsMapping: usernamePasswordMapping,
  generatedCredentials: usernamePassword,
  secretFields: ["password"],
  example: { parameters: { username1: "infisical_user_1", username2: "infisical_user_2" } },
});
