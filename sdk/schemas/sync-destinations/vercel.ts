import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/vercel/vercel-sync-schemas.ts`. */
export const vercel = destinationRow({
  destination: "vercel",
  label: "Vercel",
  family: "Deployment platform",
  origin: "service-enum",
  connectionApp: "vercel",
  // `env` is one of the three standard environments or any custom-environment id, so any
  // string (docs/service-api.md §9).
  destinationConfig: strictObject({
    /** The Vercel scope the sync writes in (the service's own value is `project`). */
    scope: z.string().optional(),
    /** The Vercel project's id. */
    app: nonEmpty,
    /** The Vercel project's name: a label, not part of where the secrets land. */
    appName: nonEmpty,
    /** `development`, `preview`, `production`, or a custom environment's id. */
    env: z.string(),
    /** The Vercel team's id. */
    teamId: z.string(),
    /** The git branch, used only with `env: "preview"`. */
    branch: z.string().optional(),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: ["appName"],
  example: {
    destinationConfig: { scope: "project", app: "prj_123", appName: "web", env: "development", teamId: "team_1" },
  },
});
