import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const field = z.string().max(255, { error: "must be at most 255 characters" }).min(1, { error: "must not be empty" });

/**
 * The service's `services/secret-sync/supabase/supabase-sync-schemas.ts`: `projectId` since its
 * newer versions (commit 382bd1a8; its first version called it `projectRef`).
 */
export const supabase = destinationRow({
  destination: "supabase",
  label: "Supabase",
  family: "Backend platform",
  origin: "service-enum",
  connectionApp: "supabase",
  destinationConfig: strictObject({
    /** The Supabase project's id (its reference, e.g. `abcdefghijklmnopqrst`), at most 255 characters. */
    projectId: field,
    /** The Supabase project's name, at most 255 characters: a label, not part of where the secrets land. */
    projectName: field,
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: ["projectName"],
  example: { destinationConfig: { projectId: "abcdefghijklmnopqrst", projectName: "app" } },
});
