import { z } from "zod";
import { nonEmpty, perRow, uuid } from "../common";
import { apiPaths } from "../paths";
import {
  GeneratedCredentialsResponseSchema,
  type RotationType,
  SecretRotationByNameQuery,
  SecretRotationDeleteQuery,
  SecretRotationEnvelope,
  SecretRotationListEnvelope,
  SecretRotationListQuery,
  secretRotationCreateSchema,
  secretRotationUpdateSchema,
} from "../secret-rotations";
import { op } from "./operation";

const rotationId = z.object({ rotationId: uuid });

/**
 * One rotation type as `GET /api/v2/secret-rotations/options` lists it (each type's
 * `*RotationListItemSchema`, ee/services/secret-rotation-v2/<type>/<type>-rotation-schemas.ts).
 * `template` is what the service's UI pre-fills (default secret names, the SQL types' statements);
 * read as given.
 */
export const SecretRotationOptionSchema = z.object({
  /** The type's display name. */
  name: z.string(),
  /** The type's slug. */
  type: z.string(),
  /** The connection kind a rotation of this type needs. */
  connection: z.string(),
  template: z.record(z.string(), z.unknown()).optional(),
});
export type SecretRotationOption = z.infer<typeof SecretRotationOptionSchema>;
export const SecretRotationOptionsEnvelope = z.object({ secretRotationOptions: z.array(SecretRotationOptionSchema) });

/**
 * The rotation types the service offers: `GET /api/v2/secret-rotations/options`
 * (`listSecretRotationOptions`, ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts
 * and ee/services/secret-rotation-v2/secret-rotation-v2-fns.ts), sorted by name.
 */
export const secretRotationOptionOperations = {
  list: op({ method: "GET", path: `${apiPaths.allSecretRotations}/options`, response: SecretRotationOptionsEnvelope }),
};

/** Secret rotations of one type: `/api/v2/secret-rotations/{type}`. */
export const secretRotationOperations = perRow((type: RotationType) => {
  const base = apiPaths.secretRotations(type.type);
  return {
    list: op({ method: "GET", path: base, query: SecretRotationListQuery, response: SecretRotationListEnvelope }),
    get: op({ method: "GET", path: `${base}/:rotationId`, params: rotationId, response: SecretRotationEnvelope }),
    getByName: op({
      method: "GET",
      path: `${base}/rotation-name/:rotationName`,
      params: z.object({ rotationName: nonEmpty }),
      query: SecretRotationByNameQuery,
      response: SecretRotationEnvelope,
    }),
    create: op({
      method: "POST",
      path: base,
      body: secretRotationCreateSchema(type),
      response: SecretRotationEnvelope,
    }),
    update: op({
      method: "PATCH",
      path: `${base}/:rotationId`,
      params: rotationId,
      body: secretRotationUpdateSchema(type),
      response: SecretRotationEnvelope,
    }),
    delete: op({
      method: "DELETE",
      path: `${base}/:rotationId`,
      params: rotationId,
      query: SecretRotationDeleteQuery,
      response: SecretRotationEnvelope,
    }),
    /** Runs synchronously on the service; never repeated (it would retire the credentials just issued). */
    rotate: op({
      method: "POST",
      path: `${base}/:rotationId/rotate-secrets`,
      params: rotationId,
      response: SecretRotationEnvelope,
    }),
    generatedCredentials: op({
      method: "GET",
      path: `${base}/:rotationId/generated-credentials`,
      params: rotationId,
      // Each credential set is also checked against the type's own shape.
      response: GeneratedCredentialsResponseSchema.extend({
        generatedCredentials: z.array(type.generatedCredentials).min(1).max(2),
      }),
    }),
  };
});

/**
 * A project's rotations of every type in one call: `GET /api/v2/secret-rotations?projectId=` (the
 * service's `listSecretRotations`, ee/routes/v2/secret-rotation-v2-routers/secret-rotation-v2-router.ts).
 */
export const allSecretRotationOperations = {
  list: op({
    method: "GET",
    path: apiPaths.allSecretRotations,
    query: SecretRotationListQuery,
    response: SecretRotationListEnvelope,
  }),
};
