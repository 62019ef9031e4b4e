import { z } from "zod";
import { strictObject } from "../common";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/spacelift/spacelift-sync-schemas.ts`, in its version with
 * `configType` (commit df69f243; the values in `spacelift-sync-constants.ts`): required, and a
 * file mount needs its `mountPath`.
 */
export const spacelift = destinationRow({
  destination: "spacelift",
  label: "Spacelift",
  family: "Infrastructure-as-code platform",
  origin: { folder: "services/secret-sync/spacelift/" },
  connectionApp: "spacelift",
  destinationConfig: strictObject({
    /** The Spacelift context's id. */
    contextId: z.string().trim().min(1, { error: "must not be empty" }),
    /** The context's name: a label, not part of where the secrets land. */
    contextName: z.string().trim().min(1, { error: "must not be empty" }),
    /** How the secrets are written: `environment-variable`s of the context, or a `file-mount` at `mountPath`. */
    configType: z.enum(["environment-variable", "file-mount"]),
    /** With `file-mount` (required there): the path of the mounted file. */
    mountPath: z.string().trim().optional(),
  }).superRefine((c, ctx) => {
    if (c.configType === "file-mount" && !c.mountPath)
      ctx.addIssue({
        code: "custom",
        message: "File path is required when config type is file mount",
        path: ["mountPath"],
      });
  }),
  extraSyncOptions: {
    /** Write the secrets as write-only (their values hidden in Spacelift). Default false. */
    writeOnly: z.boolean().default(false),
  },
  canImport: true,
  duplicateCheckIgnores: ["contextName"],
  example: {
    destinationConfig: {
      contextId: "emulator-context",
      contextName: "Emulator Context",
      configType: "environment-variable",
    },
  },
  invalidExamples: [
    {
      destinationConfig: { contextId: "emulator-context", contextName: "Emulator Context", configType: "file-mount" },
      path: "destinationConfig.mountPath",
      message: "File path is required when config type is file mount",
    },
    {
      destinationConfig: { contextId: "emulator-context", contextName: "Emulator Context" },
      path: "destinationConfig.configType",
      message: "is required",
    },
  ],
});
