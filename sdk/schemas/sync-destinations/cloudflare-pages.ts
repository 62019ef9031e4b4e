import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/cloudflare-pages/cloudflare-pages-schema.ts`. */
export const cloudflarePages = destinationRow({
  destination: "cloudflare-pages",
  label: "Cloudflare Pages",
  family: "Edge hosting platform",
  origin: "service-enum",
  connectionApp: "cloudflare",
  destinationConfig: strictObject({
    /** The Pages project's name (it names the project, so it is where the secrets land). */
    projectName: nonEmpty,
    /** The project's deployment environment, e.g. `production` or `preview` (any non-empty string). */
    environment: nonEmpty,
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { projectName: "web", environment: "production" } },
});
