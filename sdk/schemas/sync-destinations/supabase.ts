import { nonEmpty, strictObject } from "../common";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/supabase/supabase-sync-schemas.ts`. */
export const supabase = destinationRow({
  destination: "supabase",
  label: "Supabase",
  family: "Backend platform",
  connectionApp: "supabase",
  destinationConfig: strictObject({
    /** The Supabase project's reference id. */
    projectRef: nonEmpty,
    /** The Supabase project's name: a label, not part of where the secrets land. */
    projectName: nonEmpty,
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["projectName"],
  example: { destinationConfig: { projectRef: "abcdefghijklmnopqrst", projectName: "app" } },
});
