import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/laravel-forge/laravel-forge-sync-schemas.ts`. */
export const laravelForge = destinationRow({
  destination: "laravel-forge",
  label: "Laravel Forge",
  family: "Server management platform",
  origin: "service-enum",
  connectionApp: "laravel-forge",
  destinationConfig: strictObject({
    /**
     * The Forge organization's slug: lowercase letters, digits, dots and hyphens, at most 512
     * characters, not ending in a hyphen.
     */
    orgSlug: z
      .string()
      .min(1, { error: "must not be empty" })
      .max(512, { error: "must be at most 512 characters" })
      // The service's message also forbids a final dot, but its check only refuses a final
      // hyphen after at least one other character.
      .refine((v) => /^[a-z0-9.-]+$/.test(v) && !/.-$/.test(v), {
        error: "can only contain lowercase letters, numbers, dots and hyphens, and cannot end with a hyphen",
      }),
    /** The Forge organization's name, for display. */
    orgName: z.string().optional(),
    /** The Forge server's id: a number, as a string. */
    serverId: z
      .string()
      .min(1, { error: "must not be empty" })
      // The service's check is `!Number.isNaN(Number(val))`, whatever its message says.
      .refine((v) => !Number.isNaN(Number(v)), { error: "Server ID must be a valid integer" }),
    /** The Forge server's name, for display. */
    serverName: z.string().optional(),
    /** The id of the Forge site whose environment the secrets are written to. */
    siteId: z.string().min(1, { error: "must not be empty" }),
    /** The Forge site's name, for display. */
    siteName: z.string().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  // The service's SECRET_SYNC_SKIP_FIELDS_MAP (secret-sync-maps.ts) lists no field for Laravel
  // Forge: its display names count in the duplicate check.
  duplicateCheckIgnores: [],
  example: {
    destinationConfig: {
      orgSlug: "emulator-org",
      orgName: "Emulator Org",
      serverId: "12345",
      serverName: "emulator-server",
      siteId: "67890",
      siteName: "example.com",
    },
  },
  invalidExamples: [
    {
      destinationConfig: { orgSlug: "emulator-org", serverId: "twelve", siteId: "67890" },
      path: "destinationConfig.serverId",
      message: "Server ID must be a valid integer",
    },
    {
      destinationConfig: { orgSlug: "Emulator-Org", serverId: "12345", siteId: "67890" },
      path: "destinationConfig.orgSlug",
      message: "can only contain lowercase letters",
    },
  ],
});
