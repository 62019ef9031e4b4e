import { strictObject } from "../common";
import { passwordRequirements, rotationRow, str, usernamePassword, usernamePasswordMapping } from "./row";

/** The service's `ee/services/secret-rotation-v2/redis-credentials/redis-credentials-rotation-schemas.ts`. */
export const redisCredentials = rotationRow({
  type: "redis-credentials",
  label: "Redis Credentials",
  family: "Key-value store credentials",
  origin: "service-enum",
  connectionApp: "redis",
  parameters: strictObject({
    /** The ACL rules of the rotated user, e.g. `~cache:* +get +set`. */
    permissionScope: str,
    /** How passwords are generated. Unset: the service's default (48 characters, at least one lowercase, uppercase and digit). */
    passwordRequirements: passwordRequirements.optional(),
  }),
  secretsMapping: usernamePasswordMapping,
  generatedCredentials: usernamePassword,
  secretFields: ["password"],
  example: { parameters: { permissionScope: "~* +@all" } },
});
