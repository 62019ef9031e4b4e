import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

const SEGMENT = /^[a-zA-Z0-9_-]+$/;

/** A Windmill folder or user path: `u/` or `f/`, then segments, ending with a slash (`f/folder/path/`). */
function isWindmillPath(p: string): boolean {
  const segments = p.split("/");
  return (
    (p.startsWith("u/") || p.startsWith("f/")) &&
    p.endsWith("/") &&
    segments.length >= 3 &&
    segments.slice(0, -1).every((s) => SEGMENT.test(s))
  );
}

/** The service's `services/secret-sync/windmill/windmill-sync-schemas.ts`. */
export const windmill = destinationRow({
  destination: "windmill",
  label: "Windmill",
  family: "Workflow engine",
  origin: "service-enum",
  connectionApp: "windmill",
  destinationConfig: strictObject({
    /** The Windmill workspace's id. */
    workspace: z.string().trim().min(1, { error: "must not be empty" }),
    /** The folder or user path the variables are written under, e.g. `f/folder/path/` (ends with `/`). */
    path: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .refine(isWindmillPath, { error: 'must follow the Windmill path format, e.g. "f/folder/path/"' }),
  }),
  extraSyncOptions: {},
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { workspace: "example", path: "f/app/prod/" } },
});
