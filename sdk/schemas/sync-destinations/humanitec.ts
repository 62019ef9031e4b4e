import { z } from "zod";
import { nonEmpty, strictObject } from "../common";
import { fieldOfAnotherBranch } from "../issues";
import { destinationRow } from "./row";

/** The service's `services/secret-sync/humanitec/humanitec-sync-schemas.ts`. */
export const humanitec = destinationRow({
  destination: "humanitec",
  label: "Humanitec",
  family: "Platform orchestrator",
  origin: "service-enum",
  connectionApp: "humanitec",
  // The service's union on `scope`: `application` (org, app) or `environment` (org, app, env).
  destinationConfig: strictObject({
    /** Where the secrets go: `application` (shared values of the app) or `environment` (one environment's values). */
    scope: z.enum(["application", "environment"]),
    /** The Humanitec organization's id. */
    org: nonEmpty,
    /** The Humanitec application's id. */
    app: nonEmpty,
    /** The environment's id: required with scope `environment`, not allowed with `application`. */
    env: nonEmpty.optional(),
  }).superRefine((c, ctx) => {
    if (c.scope === "environment" && c.env === undefined) {
      ctx.addIssue({ code: "custom", path: ["env"], message: 'is required with scope "environment"' });
    }
    if (c.scope === "application" && c.env !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["env"],
        message: 'is only allowed with scope "environment"',
        params: fieldOfAnotherBranch,
      });
    }
  }),
  extraSyncOptions: {},
  canImport: false,
  duplicateCheckIgnores: [],
  example: { destinationConfig: { scope: "environment", org: "example-org", app: "web", env: "development" } },
});
