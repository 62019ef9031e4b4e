import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const field = z.string().min(1, { error: "must not be empty" }).max(255, { error: "must be at most 255 characters" });

/** The service's `services/secret-sync/netlify/netlify-sync-schemas.ts`. */
export const netlify = destinationRow({
  destination: "netlify",
  label: "Netlify",
  family: "Deployment platform",
  origin: "service-enum",
  connectionApp: "netlify",
  destinationConfig: strictObject({
    /** The Netlify account's (team's) id. */
    accountId: field,
    /** The Netlify account's name: a label, not part of where the secrets land. */
    accountName: field.optional(),
    /** The site's id; unset: the account's shared environment variables. */
    siteId: field.optional(),
    /** The site's name: a label, not part of where the secrets land. */
    siteName: field.optional(),
    /** The deploy context the values apply to; unset: the service's default. */
    context: z.enum(["all", "deploy-preview", "production", "branch-deploy", "dev", "branch"]).optional(),
  }),
  extraSyncOptions: {},
  // The service's newer schema (commit 77c428cc) can import, and takes `accountName` as optional.
  canImport: true,
  duplicateCheckIgnores: ["accountName", "siteName"],
  example: {
    destinationConfig: {
      accountId: "acme-team",
      accountName: "Acme",
      siteId: "site-1",
      siteName: "web",
      context: "all",
    },
  },
});
