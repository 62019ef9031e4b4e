import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/cloudflare-secrets-store/cloudflare-secrets-store-sync-schemas.ts`
 * (scopes in `cloudflare-secrets-store-sync-constants.ts`). The service also refuses a
 * `syncOptions.keySchema` whose own characters Cloudflare would refuse in a secret name (anything
 * but letters, digits, hyphens and underscores): a rule across two objects, left to the service.
 */
export const cloudflareSecretsStore = destinationRow({
  destination: "cloudflare-secrets-store",
  label: "Cloudflare Secrets Store",
  family: "Edge platform secrets store",
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
  duplicateCheckIgnores: ["storeName"],
  example: {
    destinationConfig: { storeId: "0123456789abcdef0123456789abcdef", storeName: "default", scopes: ["workers"] },
  },
});
