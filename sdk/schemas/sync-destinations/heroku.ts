import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const required = z.string().trim().min(1, { error: "must not be empty" });

/** The service's `services/secret-sync/heroku/heroku-sync-schemas.ts`. */
export const heroku = destinationRow({
  destination: "heroku",
  label: "Heroku",
  family: "Application platform",
  origin: "service-enum",
  connectionApp: "heroku",
  destinationConfig: strictObject({
    /** The Heroku app's id. */
    app: required,
    /** The Heroku app's name: a label, not part of where the secrets land. */
    appName: required,
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["appName"],
  example: { destinationConfig: { app: "00000000-0000-4000-8000-0000000000d1", appName: "web" } },
});
