import { z } from "zod";
import { dateTime, environmentSlug, nonEmpty, secretName, secretPath, strictObject } from "./common";

/**
 * Secrets, the raw (plaintext over TLS) API of `/api/v4/secrets` (docs/service-api.md §12;
 * routes/v4/secret-router.ts, services/secret-v2-bridge/secret-v2-bridge-service.ts). A secret is
 * named by its key in a folder (`secretPath`) of an environment; the folder must exist. Every route
 * counts in the service's `secretsLimit` bucket.
 */

/** Where a secret is: its project, environment and folder. */
const place = {
  /** The project. Changing it replaces the secret. */
  projectId: nonEmpty,
  /** The environment's slug. Changing it replaces the secret. */
  environment: environmentSlug,
  /** The folder's path, default `/`; the folder must exist. Changing it replaces the secret. */
  secretPath: secretPath.default("/"),
};

/**
 * The value as the service stores it: trimmed, except that a final newline stays (`secretValue`'s
 * transform in the router).
 */
export const secretValue = z.string().transform((v) => (v.at(-1) === "\n" ? `${v.trim()}\n` : v.trim()));

/** POST /api/v4/secrets/{secretName} body. */
export const SecretCreateSchema = strictObject({
  ...place,
  /** The value: secret, encrypted in state, never in outputs, logs or previews. Changing it updates in place. */
  secretValue,
  /** A note beside the secret. Changing it updates in place. */
  secretComment: z.string().trim().optional(),
  /** Keep a multi-line value as it is instead of encoding its newlines. Changing it updates in place. */
  skipMultilineEncoding: z.boolean().nullish(),
});
export type SecretCreate = z.input<typeof SecretCreateSchema>;

/** PATCH /api/v4/secrets/{secretName} body: the secret's place (to find it), then what changes. */
export const SecretUpdateSchema = strictObject({
  ...place,
  secretValue: secretValue.optional(),
  /** The secret's new key (a rename). */
  newSecretName: secretName.optional(),
  secretComment: z.string().optional(),
  skipMultilineEncoding: z.boolean().optional(),
});
export type SecretUpdate = z.input<typeof SecretUpdateSchema>;

/** DELETE /api/v4/secrets/{secretName} body. */
export const SecretDeleteSchema = strictObject(place);
export type SecretDelete = z.input<typeof SecretDeleteSchema>;

/** GET /api/v4/secrets/{secretName} and GET /api/v4/secrets query. */
export const SecretReadQuery = z.object({
  projectId: nonEmpty,
  environment: environmentSlug,
  secretPath: secretPath.default("/"),
  /** Whether values come back: default true, as the service's (when the caller may read them). */
  viewSecretValue: z
    .union([z.boolean(), z.enum(["true", "false"])])
    .optional()
    .transform((v) => v !== false && v !== "false"),
});

/**
 * A secret as returned. `secretValue` is the value only where the service returns it (`viewSecretValue`
 * and the permission to read values); otherwise `<hidden-by-infisical>` with `secretValueHidden`.
 */
export const SecretSchema = z.object({
  id: z.string().min(1),
  secretKey: z.string(),
  secretValue: z.string().optional(),
  secretValueHidden: z.boolean().optional(),
  secretComment: z.string().nullish(),
  skipMultilineEncoding: z.boolean().nullish(),
  version: z.number().optional(),
  type: z.string().optional(),
  environment: z.string().optional(),
  secretPath: z.string().optional(),
  projectId: z.string().optional(),
  workspace: z.string().optional(),
  createdAt: dateTime.optional(),
  updatedAt: dateTime.optional(),
});
export type Secret = z.infer<typeof SecretSchema>;

export const SecretEnvelope = z.object({ secret: SecretSchema });
export const SecretListEnvelope = z.object({ secrets: z.array(SecretSchema) });

/** The service's stand-in for a value it does not return. */
export const HIDDEN_SECRET_VALUE = "<hidden-by-infisical>";
