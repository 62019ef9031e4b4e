import { z } from "zod";
import { secretPath } from "../common";
import { SecretEnvelope, SecretSchema, secretValue } from "../secrets";
import { op } from "./operation";

/**
 * Secrets through the service's older raw routes, `/api/v3/secrets/raw` (routes/v3/secret-router.ts;
 * docs/service-api.md §21): the same secrets as `/api/v4/secrets`, named by `workspaceId` (or, for
 * a list by a machine identity, `workspaceSlug`) instead of `projectId`. The official clients call
 * them; every route counts in the secrets bucket.
 */

const base = "/api/v3/secrets/raw";
const secretName = z.object({ secretName: z.string().trim().min(1, { error: "must not be empty" }) });

/** A boolean of the query string as the router reads it: `"true"` or `"false"`. */
const flag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(["true", "false"])])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === true || v === "true"));

const type = z.enum(["shared", "personal"]).default("shared");

/** What both reads take beside their place. */
const readOptions = {
  secretPath: secretPath.default("/"),
  /** Default false on this route, as the v4 one. */
  expandSecretReferences: flag(false),
  /** Default true (values shown where the caller may read them). */
  viewSecretValue: flag(true),
  /** Imports are not served by the emulator: a list answers `imports: []`. */
  include_imports: flag(false),
};

/** GET /api/v3/secrets/raw query: the project and environment optional at the schema, 400 when missing. */
export const SecretV3ListQuery = z.object({
  workspaceId: z.string().trim().optional(),
  workspaceSlug: z.string().trim().optional(),
  environment: z.string().trim().optional(),
  ...readOptions,
  recursive: flag(false),
  tagSlugs: z.string().optional(),
});

/** GET /api/v3/secrets/raw/{secretName} query. */
export const SecretV3GetQuery = z.object({
  workspaceId: z.string().trim().optional(),
  workspaceSlug: z.string().trim().optional(),
  environment: z.string().trim().optional(),
  ...readOptions,
  version: z.coerce.number().optional(),
  type,
});

const place = {
  workspaceId: z.string().trim(),
  environment: z.string().trim(),
  secretPath: secretPath.default("/"),
};

/** POST /api/v3/secrets/raw/{secretName} body. */
export const SecretV3CreateSchema = z.object({
  ...place,
  secretValue,
  secretComment: z.string().trim().optional().default(""),
  skipMultilineEncoding: z.boolean().optional(),
  type,
});

/** PATCH /api/v3/secrets/raw/{secretName} body. */
export const SecretV3UpdateSchema = z.object({
  ...place,
  secretValue: secretValue.optional(),
  newSecretName: z.string().trim().min(1).optional(),
  secretComment: z.string().trim().optional(),
  skipMultilineEncoding: z.boolean().optional(),
  type,
});

/** DELETE /api/v3/secrets/raw/{secretName} body. */
export const SecretV3DeleteSchema = z.object({ ...place, type });

/** A list's answer: the folder's secrets and its imports (none served here). */
export const SecretV3ListEnvelope = z.object({
  secrets: z.array(SecretSchema),
  imports: z
    .array(z.object({ secretPath: z.string(), environment: z.string(), secrets: z.array(SecretSchema) }))
    .optional(),
});

export const secretV3Operations = {
  list: op({ method: "GET", path: base, query: SecretV3ListQuery, response: SecretV3ListEnvelope, bucket: "secrets" }),
  get: op({
    method: "GET",
    path: `${base}/:secretName`,
    params: secretName,
    query: SecretV3GetQuery,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  create: op({
    method: "POST",
    path: `${base}/:secretName`,
    params: secretName,
    body: SecretV3CreateSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  update: op({
    method: "PATCH",
    path: `${base}/:secretName`,
    params: secretName,
    body: SecretV3UpdateSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
  delete: op({
    method: "DELETE",
    path: `${base}/:secretName`,
    params: secretName,
    body: SecretV3DeleteSchema,
    response: SecretEnvelope,
    bucket: "secrets",
  }),
};
