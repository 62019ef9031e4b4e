import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow, keySchemaNamesRule } from "./row";

/**
 * The service's `services/secret-sync/cloudflare-secrets-store/cloudflare-secrets-store-sync-schemas.ts`
 * (scopes in `cloudflare-secrets-store-sync-constants.ts`). The service also refuses a
 * `syncOptions.keySchema` whose own characters Cloudflare would refuse in a secret name (anything
 * but letters, digits, hyphens and underscores, placeholders aside): a body rule, in its words.
 */
const SECRET_NAME = /^[a-zA-Z0-9_-]+$/;
export const cloudflareSecretsStore = destinationRow({
  destination: "cloudflare-secrets-store",
  label: "Cloudflare Secrets Store",
  family: "Edge platform secrets store",
  origin: { folder: "services/secret-sync/cloudflare-secrets-store/" },
  connectionApp: "cloudflare",
  destinationConfig: strictObject({
    /** The Secrets Store's id: letters, digits, underscores and hyphens, at most 32 characters. */
    storeId: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(32, { error: "must be at most 32 characters" })
      .regex(/^[a-zA-Z0-9_-]+$/, { error: "may only contain letters, digits, underscores and hyphens" }),
    /** The store's name, at most 255 characters: a label, not part of where the secrets land. */
    storeName: z.string().trim().max(255, { error: "must be at most 255 characters" }).optional(),
    /** The Cloudflare services that may use the secrets, each at most once: `workers`, `ai_gateway`, `containers`. */
    scopes: z
      .array(z.enum(["workers", "ai_gateway", "containers"]))
      .min(1, { error: "must have at least one scope" })
      .refine((s) => new Set(s).size === s.length, { error: "each scope can only be listed once" }),
  }),
  extraSyncOptions: {},
  canImport: false,
  bodyRules: [
    keySchemaNamesRule(
      SECRET_NAME,
      "Key schema produces names Cloudflare Secrets Store rejects. Cloudflare Secrets Store secret names can only contain letters, digits, hyphens and underscores.",
    ),
  ],
  duplicateCheckIgnores: ["storeName"],
  example: {
    destinationConfig: { storeId: "0123456789abcdef0123456789abcdef", storeName: "default", scopes: ["workers"] },
  },
  invalidExamples: [
    {
      syncOptions: { keySchema: "APP/{{secretKey}}" },
      update: true,
      path: "syncOptions.keySchema",
      message: "Key schema produces names Cloudflare Secrets Store rejects.",
    },
    {
      destinationConfig: { storeId: "store.id", scopes: ["workers"] },
      path: "destinationConfig.storeId",
      message: "may only contain letters, digits, underscores and hyphens",
    },
    {
      destinationConfig: { storeId: "store", scopes: ["workers", "workers"] },
      path: "destinationConfig.scopes",
      message: "each scope can only be listed once",
    },
    {
      destinationConfig: { storeId: "store", scopes: [] },
      path: "destinationConfig.scopes",
      message: "must have at least one scope",
    },
  ],
});
