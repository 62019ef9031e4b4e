import { z } from "zod";
import { dateTime, environmentSlug, nonEmpty, secretName, secretPath, strictObject } from "./common";
import type { Issue } from "./issues";

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

/** The create body of a shared secret: what the package's `Secret` declares. */
export const SharedSecretCreateSchema = strictObject({
  ...place,
  /** The value: secret, encrypted in state, never in outputs, logs or previews. Changing it updates in place. */
  secretValue,
  /** A note beside the secret. Changing it updates in place. */
  secretComment: z.string().trim().optional(),
  /** Keep a multi-line value as it is instead of encoding its newlines. Changing it updates in place. */
  skipMultilineEncoding: z.boolean().nullish(),
});
export type SharedSecretCreate = z.input<typeof SharedSecretCreateSchema>;

/** POST /api/v4/secrets/{secretName} body. */
export const SecretCreateSchema = SharedSecretCreateSchema.extend({
  /**
   * `shared` (the service's default) or `personal`: a user's own override of a shared secret of
   * the same key. The service refuses `personal` to a machine identity (docs/service-api.md §12).
   */
  type: z.enum(["shared", "personal"]).optional(),
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

/** A boolean of the query string, as the service reads it (`"true"` or `"false"`; booleans stand for them). */
const queryFlag = z.union([z.boolean(), z.enum(["true", "false"])]).optional();

/** What both reads of secrets take beside their place. */
const readOptions = {
  secretPath: secretPath.default("/"),
  /** Whether values come back: default true, as the service's (when the caller may read them). */
  viewSecretValue: queryFlag.transform((v) => v !== false && v !== "false"),
  /**
   * Whether `${KEY}` and `${env.path.KEY}` references in values come back replaced by the values
   * they name: default false, as the service's, and always sent, so a value is read as written.
   */
  expandSecretReferences: queryFlag.transform((v) => v === true || v === "true"),
};

/**
 * GET /api/v4/secrets query. The service's schema takes `projectId` and `environment` as optional
 * and answers 400 when either is missing (`secretListQueryRules`).
 */
export const SecretListQuery = z.object({
  projectId: z.string().trim().optional(),
  environment: z.string().trim().optional(),
  ...readOptions,
  /** Every folder below `secretPath` too (default false; `convertStringBoolean` at the service). */
  recursive: queryFlag.transform((v) => v === true || v === "true"),
});

/** GET /api/v4/secrets/{secretName} query: `environment` optional at the schema, 400 when missing (`secretGetQueryRules`). */
export const SecretGetQuery = z.object({
  projectId: nonEmpty,
  environment: z.string().trim().optional(),
  ...readOptions,
});

/** The service's 400 for a list without its project or environment (docs/service-api.md §12). */
export function secretListQueryRules(q: { projectId?: string; environment?: string }): Issue[] {
  const missing = (["projectId", "environment"] as const).filter((k) => !q[k]);
  return missing.map((path) => ({ path, message: "Missing project id or environment" }));
}

/** The service's 400 for a read by name without its environment (docs/service-api.md §12). */
export function secretGetQueryRules(q: { environment?: string }): Issue[] {
  return q.environment ? [] : [{ path: "environment", message: "Missing environment" }];
}

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
