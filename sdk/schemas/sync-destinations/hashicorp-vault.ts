import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** One or more segments of letters, digits, `.`, `_` and `-`, joined by single slashes. */
const VAULT_PATH = /^([a-zA-Z0-9._-]+\/)*[a-zA-Z0-9._-]+$/;

/** The service's `services/secret-sync/hc-vault/hc-vault-sync-schemas.ts`. */
export const hashicorpVault = destinationRow({
  destination: "hashicorp-vault",
  label: "Hashicorp Vault",
  family: "Secrets manager",
  origin: "service-enum",
  connectionApp: "hashicorp-vault",
  destinationConfig: strictObject({
    /** The KV secrets engine's mount, e.g. `secret`. */
    mount: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(128, { error: "must be at most 128 characters" }),
    /** The secret's path in the mount, e.g. `app/prod`; leading and trailing slashes are removed. */
    path: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(128, { error: "must be at most 128 characters" })
      .transform((p) => p.replace(/^\/+|\/+$/g, ""))
      .refine((p) => VAULT_PATH.test(p), {
        error: "must be letters, digits, dots, dashes and underscores, with single slashes between segments",
      }),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { mount: "secret", path: "app/prod" } },
});
