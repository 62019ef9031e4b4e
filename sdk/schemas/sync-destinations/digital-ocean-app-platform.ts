import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const field = z.string().min(1, { error: "must not be empty" }).max(255, { error: "must be at most 255 characters" });

/** The service's `services/secret-sync/digital-ocean-app-platform/digital-ocean-app-platform-sync-schemas.ts`. */
export const digitalOceanAppPlatform = destinationRow({
  destination: "digital-ocean-app-platform",
  label: "Digital Ocean App Platform",
  family: "Cloud application platform",
  origin: "service-enum",
  connectionApp: "digital-ocean",
  destinationConfig: strictObject({
    /** The App Platform app's id. */
    appId: field,
    /** The app's name: a label, not part of where the secrets land. */
    appName: field,
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["appName"],
  example: { destinationConfig: { appId: "00000000-0000-4000-8000-0000000000d1", appName: "web" } },
});
