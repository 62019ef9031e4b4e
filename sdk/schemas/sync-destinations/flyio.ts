import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/flyio/flyio-sync-schemas.ts`. */
export const flyio = destinationRow({
  destination: "flyio",
  label: "Fly.io",
  family: "Application platform",
  origin: "service-enum",
  connectionApp: "flyio",
  destinationConfig: strictObject({
    /** The Fly.io app's id, at most 255 characters. */
    appId: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(255, { error: "must be at most 255 characters" }),
    /** The Fly.io app's name, for display (the service's duplicate check still compares it). */
    appName: z.string().trim().optional(),
  }),
  extraSyncOptions: {
    /** Redeploy the app's machines after its secrets change. */
    autoRedeploy: z.boolean().optional(),
  },
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { appId: "emulator-app", appName: "emulator-app" } },
});
