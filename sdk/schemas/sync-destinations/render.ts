import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { destinationRow } from "./row";

/**
 * The service's `services/secret-sync/render/render-sync-schemas.ts` (scopes in
 * `render-sync-enums.ts`). Its `destinationConfig` is a union on `scope`: `service` with
 * `serviceId`, or `environment-group` with `environmentGroupId`. Here one object whose
 * refinement asks for the scope's id and refuses the other scope's.
 */
export const render = destinationRow({
  destination: "render",
  label: "Render",
  family: "Application platform",
  origin: "service-enum",
  connectionApp: "render",
  destinationConfig: strictObject({
    /** Where the secrets go: `service` (one service's environment) or `environment-group`. */
    scope: z.enum(["service", "environment-group"]),
    /** The Render service's id; with `scope: "service"` only, and required there. */
    serviceId: nonEmpty.optional(),
    /** The Render environment group's id; with `scope: "environment-group"` only, and required there. */
    environmentGroupId: nonEmpty.optional(),
    /** How the secrets are written: `env` (environment variables) or `file` (secret files). */
    type: z.enum(["env", "file"]),
  }).superRefine((c, ctx) => {
    const [own, other] =
      c.scope === "service"
        ? (["serviceId", "environmentGroupId"] as const)
        : (["environmentGroupId", "serviceId"] as const);
    if (c[own] === undefined)
      ctx.addIssue({ code: "custom", path: [own], message: `is required with scope "${c.scope}"` });
    if (c[other] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [other],
        message: `must not be set with scope "${c.scope}"`,
        params: fieldOfAnotherBranch,
      });
    }
  }),
  extraSyncOptions: {
    /** Redeploy the service after its secrets change. */
    autoRedeployServices: z.boolean().optional(),
  },
  canImport: true,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "service", serviceId: "srv-emulator", type: "env" } },
});
